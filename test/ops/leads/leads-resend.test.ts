/**
 * `npm run leads -- unsent` and `resend` against the emulators (dynalite, s3rver, aws-ses-v2-local)
 * through the real SDK, with the functions' own variables: requests saved by the save handler and
 * left unsent are listed, and resent through the send step's limits and claim, one e-mail each
 * however often (or however many at once) `resend` runs.
 */

import { Readable } from 'node:stream';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { sendCheatSheetVariables } from '../../../core/config/function-environment';
import { runLeadsCommand } from '../../../ops/leads/leads-command';
import { startHandlerStack, type HandlerStack } from '../../lambdas/support/handler-stack';
import { postEvent, saveRoute } from '../../lambdas/support/http-api-events';

let emulators: HandlerStack;
let save: (event: ReturnType<typeof postEvent>) => Promise<unknown>;

beforeAll(async () => {
  emulators = await startHandlerStack();
  save = (await import('../../../lambdas/save-request/handler')).handler;
});
afterAll(() => emulators?.stop());

/** The tool run as if 20 minutes had passed: the requests just saved are unsent "15 minutes after". */
async function run(args: string[], env: NodeJS.ProcessEnv = process.env) {
  let stdout = '';
  let stderr = '';
  const code = await runLeadsCommand(args, {
    stdout: (text) => (stdout += `${text}\n`),
    stderr: (text) => (stderr += `${text}\n`),
    stdin: Readable.from([]),
    env,
    now: () => new Date(Date.now() + 20 * 60_000),
  });
  return { code, stdout, stderr };
}

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.resend.${visitorNumber}@example.com` });

test('unsent lists the requests saved and never sent; resend sends each once, and a second run sends nothing', async () => {
  const first = newVisitor();
  const second = newVisitor();
  await save(postEvent(saveRoute, first));
  await save(postEvent(saveRoute, second));

  const listed = await run(['unsent']);
  const firstRun = await run(['resend', '--yes']);
  const secondRun = await run(['resend', '--yes']);

  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain(first.email);
  expect(listed.stdout).toContain(second.email);
  expect([firstRun.code, secondRun.code]).toEqual([0, 0]);
  expect(firstRun.stdout).toContain('Sent 2 e-mail(s)');
  expect(secondRun.stdout).toContain('Sent 0 e-mails');
  expect(await emulators.emails(first.email)).toHaveLength(1);
  expect(await emulators.emails(second.email)).toHaveLength(1);
  expect((await emulators.items(first.email))[0]).toMatchObject({ delivery_status: 'sent', cheat_sheet_sent: true });
  expect((await run(['unsent'])).stdout).not.toContain(first.email);
});

test("resend without the deployment's secret refuses to run (it could not check the caps and suppressions), sending nothing", async () => {
  const visitor = newVisitor();
  await save(postEvent(saveRoute, visitor));
  const withoutSecret = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !['CLIENT_ADDRESS_SOURCE', 'CLIENT_ADDRESS_KEY', 'ORIGIN_SECRET_ARN'].includes(name),
    ),
  );

  const result = await run(['resend', '--yes'], withoutSecret);

  expect(result.code).toBe(1);
  expect(result.stderr).toContain('resend cannot check the daily caps and suppressions: no deployment secret is named');
  expect(await emulators.emails(visitor.email)).toEqual([]);
  expect((await emulators.items(visitor.email))[0]).toMatchObject({ cheat_sheet_sent: false });
});

test('two resends at once still send one e-mail per request', async () => {
  const visitor = newVisitor();
  await save(postEvent(saveRoute, visitor));

  const runs = await Promise.all([run(['resend', '--yes']), run(['resend', '--yes'])]);

  expect(runs.map(({ code }) => code)).toEqual([0, 0]);
  expect(await emulators.emails(visitor.email)).toHaveLength(1);
});

test('a request whose send may have reached SES (unknown, or stuck sending) is listed but never resent', async () => {
  const visitor = newVisitor();
  const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000).toISOString();
  for (const status of ['unknown', 'sending']) {
    await emulators.dynamoDb.send(
      new PutCommand({
        TableName: emulators.stack.tableName,
        Item: {
          id: `${status}-${visitor.email}`,
          ...visitor,
          cheat_sheet_sent: false,
          requested_at: twentyMinutesAgo,
          delivery_status: status,
        },
      }),
    );
  }

  const listed = await run(['unsent']);
  await run(['resend', '--yes']);

  expect(listed.stdout).toContain(`sending  ${visitor.email}`);
  expect(await emulators.emails(visitor.email)).toEqual([]);
});

test('resend goes through the same limits: a suppressed mailbox is refused, reported, and sent nothing', async () => {
  const visitor = newVisitor();
  await save(postEvent(saveRoute, visitor));
  const { suppressionList } = await import('../../../lambdas/mail/suppressions');
  await suppressionList(
    emulators.dynamoDb,
    emulators.stack.limitCountersTableName,
    emulators.addressKeySource,
  ).suppress(visitor.email, 'bounce', new Date());

  const result = await run(['resend', '--yes']);

  expect(result.code).toBe(1);
  expect(result.stdout).toContain('not sent (address_suppressed)');
  expect(await emulators.emails(visitor.email)).toEqual([]);
  expect((await emulators.items(visitor.email))[0]).toMatchObject({
    delivery_status: 'failed',
    failure_code: 'address_suppressed',
  });
});

test('resend without --yes asks first, and sends nothing when the answer is not yes', async () => {
  const visitor = newVisitor();
  await save(postEvent(saveRoute, visitor));

  const result = await run(['resend']);

  expect(result.code).toBe(1);
  expect(result.stderr).toContain('Nothing sent.');
  expect(await emulators.emails(visitor.email)).toEqual([]);
});

describe('resend --stack: the send function deployed', () => {
  const functionName = 'First100DaysSite-SendCheatSheetFunction';
  const functionRole = 'arn:aws:iam::123456789012:role/First100DaysSite-SendCheatSheetRole';
  /** What the deployed function holds: the variables the handler stack set for it. */
  const functionVariables = () =>
    Object.fromEntries(
      Object.values(sendCheatSheetVariables).flatMap((name) =>
        process.env[name] === undefined ? [] : [[name, process.env[name]!]],
      ),
    );

  test("sends with the function's own settings (read from Lambda) and as its role, none of them set by hand", async () => {
    const visitor = newVisitor();
    await save(postEvent(saveRoute, visitor));
    const cloudFormation = new CloudFormationClient({ region: 'us-east-1' });
    mockClient(cloudFormation)
      .on(DescribeStacksCommand)
      .resolves({
        Stacks: [
          {
            StackName: 'First100DaysSite',
            CreationTime: new Date(),
            StackStatus: 'UPDATE_COMPLETE',
            Outputs: [
              { OutputKey: 'TableName', OutputValue: emulators.stack.tableName },
              { OutputKey: 'SendQuotaTableName', OutputValue: emulators.stack.limitCountersTableName },
              { OutputKey: 'SendFunctionName', OutputValue: functionName },
            ],
          },
        ],
      });
    const lambda = new LambdaClient({ region: 'us-east-1' });
    const lambdaMock = mockClient(lambda);
    lambdaMock
      .on(GetFunctionConfigurationCommand, { FunctionName: functionName })
      .resolves({ Role: functionRole, Environment: { Variables: functionVariables() } });
    const sts = new STSClient({ region: 'us-east-1' });
    const stsMock = mockClient(sts);
    stsMock.on(AssumeRoleCommand, { RoleArn: functionRole }).resolves({
      Credentials: {
        AccessKeyId: 'ASIASENDROLE',
        SecretAccessKey: 'send-role-secret',
        SessionToken: 'send-role-session',
        Expiration: new Date(Date.now() + 900_000),
      },
    });
    // The operator's own environment: none of the function's variables.
    const operatorEnv = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !Object.keys(functionVariables()).includes(name)),
    );

    let stdout = '';
    const code = await runLeadsCommand(['resend', '--yes', '--stack', 'First100DaysSite'], {
      stdout: (text) => (stdout += `${text}\n`),
      stderr: (text) => (stdout += `${text}\n`),
      stdin: Readable.from([]),
      env: operatorEnv,
      now: () => new Date(Date.now() + 20 * 60_000),
      clients: () => ({
        dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
        cloudFormation,
        ses: new SESv2Client({}),
        lambda,
        sts,
      }),
    });

    // Other tests' requests may be refused by a limit (exit 1); this one is sent, once.
    expect([0, 1]).toContain(code);
    const [request] = await emulators.items(visitor.email);
    expect(stdout).toContain(`${request!.id as string}: sent`);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    expect(stsMock.commandCalls(AssumeRoleCommand)).toHaveLength(1);
    // The send step's clients find the role's credentials where the SDK reads them.
    expect(operatorEnv).toMatchObject({ AWS_ACCESS_KEY_ID: 'ASIASENDROLE', AWS_SESSION_TOKEN: 'send-role-session' });
  });
});
