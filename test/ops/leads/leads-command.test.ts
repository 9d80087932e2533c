/**
 * `npm run leads` against the local DynamoDB (dynalite, both tables as deployed) through the real
 * AWS SDK: the library in this process, then the script itself spawned once per command.
 */

import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { BatchWriteCommand, DynamoDBDocumentClient, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { localDailyCapId as addressDailyCapItemId } from '../../support/address-key';
import type { CheatSheetRequestItem } from '../../../core/data/tables';
import { startLocalStack, type LocalStack } from '../../../local/local-stack';
import { runLeadsCommand, type LeadsCommandIo } from '../../../ops/leads/leads-command';
import { attachmentBytes, capturedEmails } from '../../support/captured-emails';
import { spawnScript } from '../../support/spawned-script';
import { startStandInSes } from './stand-in-ses';
import { mailProviderClient } from '../../../lambdas/mail-provider/mail-provider-client';
import { startStandInMailProvider, type StandInMailProvider } from '../../support/stand-in-mail-provider';

let stack: LocalStack;
let dynamoDb: DynamoDBDocumentClient;
let outDirectory: string;

beforeAll(async () => {
  stack = await startLocalStack({ siteDir: null, cheatSheetPdf: null });
  // startLocalStack points the SDK's own settings (AWS_ENDPOINT_URL_DYNAMODB, region, keys) at it.
  dynamoDb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  outDirectory = await mkdtemp(path.join(os.tmpdir(), 'leads-'));
});

afterAll(async () => {
  dynamoDb.destroy();
  await stack.stop();
  await rm(outDirectory, { recursive: true, force: true });
});

beforeEach(async () => {
  for (const table of [stack.tableName, stack.limitCountersTableName]) {
    const { Items = [] } = await dynamoDb.send(new ScanCommand({ TableName: table }));
    for (const item of Items) {
      await dynamoDb.send(
        new BatchWriteCommand({ RequestItems: { [table]: [{ DeleteRequest: { Key: { id: item.id } } }] } }),
      );
    }
  }
});

let sequence = 0;
async function putRequest(name: string, email: string, requestedAt: string, sentAt?: string) {
  const item: CheatSheetRequestItem = {
    id: `request-${(sequence += 1)}`,
    name,
    email,
    requested_at: requestedAt,
    cheat_sheet_sent: sentAt !== undefined,
    ...(sentAt === undefined ? {} : { sent_at: sentAt }),
  };
  await dynamoDb.send(new PutCommand({ TableName: stack.tableName, Item: item }));
  return item;
}

async function putSendCounter(email: string) {
  await dynamoDb.send(
    new PutCommand({
      TableName: stack.limitCountersTableName,
      Item: { id: addressDailyCapItemId(email), recent_sends: ['2025-03-01T10:00:00.000Z'], version: 1, expires_at: 1 },
    }),
  );
}

async function run(args: string[], { answer, ...options }: Partial<LeadsCommandIo> & { answer?: string } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runLeadsCommand(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += `${text}\n`),
    stdin: Readable.from(answer === undefined ? [] : [answer]),
    env: process.env,
    ...options,
  });
  return { code, stdout, stderr };
}

const remainingEmails = async () => {
  const { Items = [] } = await dynamoDb.send(new ScanCommand({ TableName: stack.tableName }));
  return Items.map((item) => item.email as string).sort();
};
const remainingCounters = async () => {
  const { Items = [] } = await dynamoDb.send(new ScanCommand({ TableName: stack.limitCountersTableName }));
  return Items.map((item) => item.id as string).sort();
};

test('export prints every request as CSV, newest first, with awkward names intact and formulas neutralised', async () => {
  await putRequest("O'Brien, Liam", 'liam@example.com', '2025-03-01T09:00:00.000Z');
  await putRequest(
    'Ada "The Countess" Lovelace',
    'ada@example.com',
    '2025-03-02T09:00:00.000Z',
    '2025-03-02T09:00:01.000Z',
  );
  await putRequest('=HYPERLINK("http://evil.example","x")', 'formula@example.com', '2025-03-03T09:00:00.000Z');

  const { code, stdout } = await run(['export']);

  expect(code).toBe(0);
  expect(stdout.split('\r\n')).toEqual([
    'name,email,requested_at,cheat_sheet_sent,sent_at,delivery_status,status_at,consent_at,consent_statement,mailing_list,mailing_list_statement,privacy_version,form_version',
    `"'=HYPERLINK(""http://evil.example"",""x"")",formula@example.com,2025-03-03T09:00:00.000Z,false,,,,,,,,,`,
    '"Ada ""The Countess"" Lovelace",ada@example.com,2025-03-02T09:00:00.000Z,true,2025-03-02T09:00:01.000Z,,,,,,,,',
    `"O'Brien, Liam",liam@example.com,2025-03-01T09:00:00.000Z,false,,,,,,,,,`,
    '',
  ]);
});

test("export, unsent and resend leave the canary's requests out", async () => {
  await putRequest('Reader Before', 'reader.before@example.com', '2025-04-01T09:00:00.000Z');
  const canary = {
    id: `request-canary-${(sequence += 1)}`,
    name: 'Site Canary',
    email: 'success+export@simulator.amazonses.com',
    requested_at: '2025-04-01T09:01:00.000Z',
    cheat_sheet_sent: false,
    delivery_status: 'requested',
    canary: true,
  };
  await dynamoDb.send(new PutCommand({ TableName: stack.tableName, Item: canary }));

  const exported = await run(['export']);
  const unsent = await run(['unsent']);

  expect(exported.stdout).toContain('reader.before@example.com');
  expect(exported.stdout).not.toContain('simulator.amazonses.com');
  expect(unsent.stdout).not.toContain(canary.id);
});

test('export pages through more items than one Scan page holds, and reports progress on stderr', async () => {
  for (let day = 1; day <= 7; day += 1) {
    await putRequest(`Reader ${day}`, `reader${day}@example.com`, `2025-03-0${day}T09:00:00.000Z`);
  }

  const { code, stdout, stderr } = await run(['export'], { pageSize: 2, progressFrom: 2 });

  expect(code).toBe(0);
  expect(
    stdout
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]),
  ).toEqual([7, 6, 5, 4, 3, 2, 1].map((day) => `Reader ${day}`));
  expect(stderr).toContain('Read 2 requests');
  expect(stderr).toContain('Read 6 requests');
});

test('export --out writes the CSV to a file only its owner can read', async () => {
  await putRequest('Grace Hopper', 'grace@example.com', '2025-03-01T09:00:00.000Z');
  const file = path.join(outDirectory, 'leads.csv');

  const { code, stdout, stderr } = await run(['export', '--out', file]);

  expect(code).toBe(0);
  expect(stdout).toBe('');
  expect(stderr).toContain(`Wrote 1 requests to ${file}`);
  expect(await readFile(file, 'utf8')).toContain('Grace Hopper,grace@example.com');
  expect((await stat(file)).mode & 0o777).toBe(0o600);
});

test('erase --yes removes every request of the address and its send counter, and nothing of anyone else', async () => {
  await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z', '2025-03-01T09:00:01.000Z');
  await putRequest('Ada L.', 'ada@example.com', '2025-03-02T09:00:00.000Z');
  await putRequest('Grace', 'grace@example.com', '2025-03-02T09:00:00.000Z');
  await putSendCounter('ada@example.com');
  await putSendCounter('grace@example.com');
  // The per-client and budget counters hold no address: keyed by a client's network, or by the hour.
  const otherCounters = ['client#0f1e2d#2025-03-01T09:00:00.000Z', 'budget#2025-03-01T09:00:00.000Z'];
  for (const id of otherCounters) {
    await dynamoDb.send(
      new PutCommand({ TableName: stack.limitCountersTableName, Item: { id, sends: 1, expires_at: 1 } }),
    );
  }

  const { code, stdout } = await run(['erase', ' Ada@Example.com ', '--yes']);

  expect(code).toBe(0);
  expect(stdout).toContain('Removed 3 item(s) for ada@example.com: 2 request(s) and its send counter.');
  expect(await remainingEmails()).toEqual(['grace@example.com']);
  expect(await remainingCounters()).toEqual([...otherCounters, addressDailyCapItemId('grace@example.com')].sort());
});

test('erase removes the +tag variants of the address and their send counters, and keeps other mailboxes', async () => {
  await putRequest('V', 'v@example.com', '2025-03-01T09:00:00.000Z');
  await putRequest('V one', 'v+1@example.com', '2025-03-01T10:00:00.000Z');
  await putRequest('V news', 'v+news+2@example.com', '2025-03-01T11:00:00.000Z');
  await putRequest('W', 'w@example.com', '2025-03-01T12:00:00.000Z');
  await putRequest('Not a tag', 'v1@example.com', '2025-03-01T12:00:00.000Z');
  await putSendCounter('v+1@example.com');
  await putSendCounter('w@example.com');

  const { code, stdout } = await run(['erase', 'v+3@example.com', '--yes']);

  expect(code).toBe(0);
  expect(stdout).toContain('Removed 4 item(s) for v+3@example.com: 3 request(s) and its send counter.');
  expect(await remainingEmails()).toEqual(['v1@example.com', 'w@example.com']);
  expect(await remainingCounters()).toEqual([addressDailyCapItemId('w@example.com')]);
});

test('erase removes the gmail-dot and googlemail.com variants of a Gmail address, and only at Gmail', async () => {
  await putRequest('Ada', 'ada.lovelace@gmail.com', '2025-03-01T09:00:00.000Z');
  await putRequest('Ada', 'adalovelace+book@googlemail.com', '2025-03-01T10:00:00.000Z');
  await putRequest('Ada elsewhere', 'ada.lovelace@example.com', '2025-03-01T11:00:00.000Z');
  await putRequest('Ada elsewhere', 'adalovelace@example.com', '2025-03-01T11:00:00.000Z');

  const { code, stdout } = await run(['erase', 'A.DaLovelace@gmail.com', '--yes']);

  expect(code).toBe(0);
  expect(stdout).toContain('Removed 2 item(s) for a.dalovelace@gmail.com: 2 request(s).');
  expect(await remainingEmails()).toEqual(['ada.lovelace@example.com', 'adalovelace@example.com']);
});

test("erase removes the send counter keyed by the normalized address as well as those keyed by a variant's spelling", async () => {
  await putRequest('V', 'v+1@example.com', '2025-03-01T09:00:00.000Z');
  await putSendCounter('v@example.com');
  await putSendCounter('v+1@example.com');

  const { code, stdout } = await run(['erase', 'v+1@example.com', '--yes']);

  expect(code).toBe(0);
  expect(stdout).toContain('Removed 3 item(s) for v+1@example.com: 1 request(s) and its 2 send counters.');
  expect(await remainingCounters()).toEqual([]);
});

test('erase lists every variant it found, each with its own address', async () => {
  await putRequest('V', 'v@example.com', '2025-03-01T09:00:00.000Z');
  await putRequest('V one', 'v+1@example.com', '2025-03-01T10:00:00.000Z');

  const { stdout } = await run(['erase', 'v@example.com'], { answer: 'n\n' });

  expect(stdout).toContain(
    'v@example.com: 2 request(s) in the requests table, its +tag and gmail-dot variants included',
  );
  expect(stdout).toMatch(/2025-03-01T09:00:00.000Z {2}not sent {2}v@example.com/);
  expect(stdout).toMatch(/2025-03-01T10:00:00.000Z {2}not sent {2}v\+1@example.com/);
});

test('erase finds the variants across more items than one Scan page holds', async () => {
  for (let reader = 1; reader <= 5; reader += 1) {
    await putRequest(`Reader ${reader}`, `reader${reader}@example.com`, '2025-03-01T09:00:00.000Z');
  }
  await putRequest('V', 'v+a@example.com', '2025-03-01T09:00:00.000Z');
  await putRequest('V', 'v+b@example.com', '2025-03-02T09:00:00.000Z');

  const { code, stdout } = await run(['erase', 'v@example.com', '--yes'], { pageSize: 2 });

  expect(code).toBe(0);
  expect(stdout).toContain('2 request(s)');
  expect(await remainingEmails()).toHaveLength(5);
});

test('erase lists what it found and removes it once the answer is y', async () => {
  await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');

  const { code, stdout, stderr } = await run(['erase', 'ada@example.com'], { answer: 'y\n' });

  expect(code).toBe(0);
  expect(stdout).toContain('ada@example.com: 1 request(s)');
  expect(stdout).toContain('2025-03-01T09:00:00.000Z');
  expect(stderr).toContain('Remove these 1 item(s) for good? [y/N]');
  expect(await remainingEmails()).toEqual([]);
});

test('erase removes nothing when the answer is not yes', async () => {
  await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');
  await putSendCounter('ada@example.com');

  const { code, stderr } = await run(['erase', 'ada@example.com'], { answer: 'n\n' });

  expect(code).toBe(1);
  expect(stderr).toContain('Nothing removed.');
  expect(await remainingEmails()).toEqual(['ada@example.com']);
  expect(await remainingCounters()).toHaveLength(1);
});

test('erase of an unknown address answers 0 removed and exits 0', async () => {
  await putRequest('Grace', 'grace@example.com', '2025-03-02T09:00:00.000Z');

  const { code, stdout } = await run(['erase', 'nobody@example.com']);

  expect(code).toBe(0);
  expect(stdout).toBe(
    'Removed 0 items: nothing is stored for nobody@example.com.\nSES suppression list: the address was not on it.',
  );
  expect(await remainingEmails()).toEqual(['grace@example.com']);
});

test('erase refuses a malformed address with a clear message, a non-zero exit, and removes nothing', async () => {
  await putRequest('Grace', 'grace@example.com', '2025-03-02T09:00:00.000Z');

  const { code, stderr } = await run(['erase', 'grace@', '--yes']);

  expect(code).toBe(2);
  expect(stderr).toContain(
    '"grace@" is not an e-mail address the site would have stored: Please enter a valid email address.',
  );
  expect(await remainingEmails()).toEqual(['grace@example.com']);
});

describe('erase and the SES suppression list (a stand-in SES endpoint)', () => {
  /** The local twin's DynamoDB, and SES at the stand-in, through the real SDK clients. */
  async function runWithSes(args: string[], onList: string[], failing: string[] = []) {
    const ses = await startStandInSes(onList, { failing });
    try {
      const clients = () => ({
        dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
        cloudFormation: new CloudFormationClient({}),
        ses: new SESv2Client({ endpoint: ses.url }),
      });
      return { ...(await run(args, { clients })), ses };
    } finally {
      await ses.close();
    }
  }

  test('removes every variant it erased from the suppression list, and says which', async () => {
    await putRequest('Ada', 'ada+book@example.com', '2025-03-01T09:00:00.000Z');
    await putRequest('Ada', 'ada@example.com', '2025-03-02T09:00:00.000Z');

    const { code, stdout, ses } = await runWithSes(
      ['erase', 'ada@example.com', '--yes'],
      ['ada+book@example.com', 'ada@example.com', 'grace@example.com'],
    );

    expect(code).toBe(0);
    expect(ses.deleteCalls.sort()).toEqual(['ada+book@example.com', 'ada@example.com']);
    expect([...ses.suppressed]).toEqual(['grace@example.com']);
    expect(stdout).toContain('SES suppression list: removed ada@example.com, ada+book@example.com.');
  });

  test('an address not on the list (NotFoundException) is no failure', async () => {
    await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');

    const { code, stdout, ses } = await runWithSes(['erase', 'ada@example.com', '--yes'], []);

    expect(code).toBe(0);
    expect(ses.deleteCalls).toEqual(['ada@example.com']);
    expect(stdout).toContain('SES suppression list: the address was not on it.');
  });

  test('removes the address from the list even when no request of it is stored any more', async () => {
    const { code, stdout, ses } = await runWithSes(['erase', 'ada@example.com', '--yes'], ['ada@example.com']);

    expect(code).toBe(0);
    expect(stdout).toContain('Removed 0 items: nothing is stored for ada@example.com.');
    expect(ses.suppressed.size).toBe(0);
  });

  test('a spelling SES cannot remove fails the command with the command that removes it by hand', async () => {
    await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');

    const { code, stderr } = await runWithSes(
      ['erase', 'ada@example.com', '--yes'],
      ['ada@example.com'],
      ['ada@example.com'],
    );

    expect(code).toBe(1);
    expect(stderr).toContain('aws sesv2 delete-suppressed-destination --email-address ada@example.com');
    // The requests are erased all the same.
    expect(await remainingEmails()).toEqual([]);
  });

  test('nothing leaves the list when the author answers no', async () => {
    await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');
    const ses = await startStandInSes(['ada@example.com']);
    try {
      const clients = () => ({
        dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
        cloudFormation: new CloudFormationClient({}),
        ses: new SESv2Client({ endpoint: ses.url }),
      });
      const { code } = await run(['erase', 'ada@example.com'], { clients, answer: 'n\n' });
      expect(code).toBe(1);
      expect(ses.deleteCalls).toEqual([]);
    } finally {
      await ses.close();
    }
  });
});

test("--stack exports the table named by the stack's outputs", async () => {
  await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');
  const cloudFormation = new CloudFormationClient({ region: 'us-east-1' });
  mockClient(cloudFormation)
    .on(DescribeStacksCommand, { StackName: 'First100DaysSite' })
    .resolves({
      Stacks: [
        {
          StackName: 'First100DaysSite',
          CreationTime: new Date(),
          StackStatus: 'CREATE_COMPLETE',
          Outputs: [
            { OutputKey: 'TableName', OutputValue: stack.tableName },
            { OutputKey: 'SendQuotaTableName', OutputValue: stack.limitCountersTableName },
          ],
        },
      ],
    });
  const clients = () => ({
    dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
    cloudFormation,
    ses: new SESv2Client({}),
  });

  // A TABLE_NAME that does not exist: only the stack's output can lead to the data.
  const { code, stdout } = await run(['export', '--stack', 'First100DaysSite'], {
    clients,
    env: { TABLE_NAME: 'no_such_table' },
  });

  expect(code).toBe(0);
  expect(stdout).toContain('Ada,ada@example.com');
});

/** A CloudFormation client that answers DescribeStacks for the product stack with these outputs. */
function stackWithOutputs(outputs: Record<string, string>): CloudFormationClient {
  const cloudFormation = new CloudFormationClient({ region: 'us-east-1' });
  mockClient(cloudFormation)
    .on(DescribeStacksCommand, { StackName: 'First100DaysSite' })
    .resolves({
      Stacks: [
        {
          StackName: 'First100DaysSite',
          CreationTime: new Date(),
          StackStatus: 'CREATE_COMPLETE',
          Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
        },
      ],
    });
  return cloudFormation;
}

const productOutputs = () => ({
  TableName: stack.tableName,
  SendQuotaTableName: stack.limitCountersTableName,
  LeadDigestFunctionName: 'First100DaysSite-LeadDigest',
  SenderEmail: 'cheatsheet@example.com',
});

/** A Lambda client whose digest function carries the author's address in its environment, as the stack deploys it. */
function digestFunctionWithAuthor(authorEmail: string): LambdaClient {
  const lambda = new LambdaClient({ region: 'us-east-1' });
  mockClient(lambda)
    .on(GetFunctionConfigurationCommand, { FunctionName: 'First100DaysSite-LeadDigest' })
    .resolves({ Environment: { Variables: { TABLE_NAME: stack.tableName, AUTHOR_EMAIL: authorEmail } } });
  return lambda;
}

test("export --mail mails every request as CSV to the digest function's author address, and prints no address", async () => {
  await putRequest('=Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');
  await putRequest("Sam O'Neill", 'sam@example.com', '2025-03-02T09:00:00.000Z');
  const before = (await capturedEmails(stack.urls.mail, 'author@example.com')).length;
  const clients = () => ({
    dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
    cloudFormation: stackWithOutputs(productOutputs()),
    ses: new SESv2Client({}),
    lambda: digestFunctionWithAuthor('author@example.com'),
  });

  const { code, stdout, stderr } = await run(['export', '--mail', '--stack', 'First100DaysSite'], { clients });

  expect(code).toBe(0);
  expect(`${stdout}${stderr}`).not.toMatch(/@example\.com/);
  const mails = await capturedEmails(stack.urls.mail, 'author@example.com');
  expect(mails).toHaveLength(before + 1);
  const mail = mails.at(-1)!;
  expect(mail.from).toBe('cheatsheet@example.com');
  const csv = attachmentBytes(mail.attachments[0]!).toString('utf8');
  expect(csv).toContain("Sam O'Neill,sam@example.com");
  expect(csv).toContain("'=Ada,ada@example.com");
});

test('export --mail needs the stack (its digest function) and takes no --out', async () => {
  expect((await run(['export', '--mail'])).code).toBe(2);
  expect((await run(['export', '--mail', '--stack', 'First100DaysSite', '--out', 'x.csv'])).code).toBe(2);
});

/**
 * The clients erase --stack runs with as the leads reader role: the stack's outputs (OriginSecretArn
 * included), and Secrets Manager answering with the deployment's secret (this run's key, so the
 * keyed ids match what the local stack wrote).
 */
function readerClients(sesUrl: string) {
  const secretArn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:OriginSecret-AbCdEf';
  const secretsManager = new SecretsManagerClient({ region: 'us-east-1' });
  mockClient(secretsManager)
    .on(GetSecretValueCommand, { SecretId: secretArn })
    .resolves({ SecretString: process.env.CLIENT_ADDRESS_KEY });
  return () => ({
    dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
    cloudFormation: stackWithOutputs({ ...productOutputs(), OriginSecretArn: secretArn }),
    ses: new SESv2Client({ endpoint: sesUrl }),
    secretsManager,
  });
}

test('erase --summary writes counts only to the summary file and the output, never an address', async () => {
  await putRequest('Reader', 'reader@example.com', '2025-03-01T09:00:00.000Z');
  await putRequest('Reader', 'reader+book@example.com', '2025-03-02T09:00:00.000Z');
  await putSendCounter('reader@example.com');
  await putRequest('Other', 'other@example.com', '2025-03-01T09:00:00.000Z');
  const summary = path.join(outDirectory, 'summary.md');
  await writeFile(summary, '');
  const ses = await startStandInSes(['reader+book@example.com']);
  try {
    const clients = readerClients(ses.url);
    const { code, stdout, stderr } = await run(
      ['erase', 'reader@example.com', '--yes', '--stack', 'First100DaysSite', '--summary', summary],
      { clients },
    );
    expect(code).toBe(0);
    const written = await readFile(summary, 'utf8');
    expect(`${written}${stdout}${stderr}`).not.toMatch(/@/);
    expect(written).toContain('- Requests removed: 2');
    expect(written).toContain('- Send counters removed: 1');
    expect(written).toContain('- Spellings taken off the SES suppression list: 1');
    expect(await remainingEmails()).toEqual(['other@example.com']);
  } finally {
    await ses.close();
  }
});

test('erase --summary reports a spelling SES could not remove as a failure, exit 1, without the address', async () => {
  await putRequest('Reader', 'reader@example.com', '2025-03-01T09:00:00.000Z');
  const summary = path.join(outDirectory, 'summary-failed.md');
  await writeFile(summary, '');
  const ses = await startStandInSes(['reader@example.com'], { failing: ['reader@example.com'] });
  try {
    const clients = readerClients(ses.url);
    const { code, stdout, stderr } = await run(
      ['erase', 'reader@example.com', '--yes', '--stack', 'First100DaysSite', '--summary', summary],
      { clients },
    );
    expect(code).toBe(1);
    const written = await readFile(summary, 'utf8');
    expect(written).toMatch(/\*\*Failed\*\*: 1 spelling/);
    expect(`${written}${stdout}${stderr}`).not.toMatch(/reader@/);
  } finally {
    await ses.close();
  }
});

test('a table that cannot be read fails with its reason and exit 1', async () => {
  const { code, stderr } = await run(['export'], { env: { TABLE_NAME: 'no_such_table' } });
  expect(code).toBe(1);
  expect(stderr).toMatch(/^Failed: Requested resource not found/);
});

test('an unknown command prints the usage and exits 2', async () => {
  const { code, stderr } = await run(['list']);
  expect(code).toBe(2);
  expect(stderr).toContain('Usage: npm run leads -- export');
});

test('the script exports to stdout when spawned', async () => {
  await putRequest("O'Brien, Liam", 'liam@example.com', '2025-03-01T09:00:00.000Z');

  const script = spawnScript('scripts/leads.ts', {}, ['export']);

  expect(await script.exited).toBe(0);
  expect(script.stdout()).toBe(
    `name,email,requested_at,cheat_sheet_sent,sent_at,delivery_status,status_at,consent_at,consent_statement,mailing_list,mailing_list_statement,privacy_version,form_version\r\n"O'Brien, Liam",liam@example.com,2025-03-01T09:00:00.000Z,false,,,,,,,,,\r\n`,
  );
});

test('the script erases an address when spawned with --yes', async () => {
  await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');
  await putRequest('Grace', 'grace@example.com', '2025-03-02T09:00:00.000Z');

  const script = spawnScript('scripts/leads.ts', {}, ['erase', 'ada@example.com', '--yes']);

  expect(await script.exited).toBe(0);
  expect(script.stdout()).toContain('Removed 1 item(s) for ada@example.com');
  expect(await remainingEmails()).toEqual(['grace@example.com']);
});

describe("erase and the author's mail provider (a stand-in provider on loopback)", () => {
  const keys = {
    kit: 'kit-key',
    mailerlite: 'ml-token',
    mailchimp: 'abc123-us21',
    webhook: `whsec_${'a'.repeat(43)}=`,
  };
  const lists = { kit: '1234567', mailerlite: '42', mailchimp: 'a1b2c3', webhook: undefined };

  async function eraseWith(
    provider: keyof typeof keys,
    args: string[],
    prepare?: (standIn: StandInMailProvider) => void,
  ) {
    const standIn = await startStandInMailProvider({ provider, key: keys[provider], list: lists[provider] });
    const ses = await startStandInSes([]);
    try {
      // The reader is in the author's list, as the hand-off put them there.
      await mailProviderClient({
        provider,
        key: keys[provider],
        list: lists[provider],
        ...(provider === 'webhook' ? { webhookUrl: standIn.url } : { baseUrl: standIn.url }),
      }).handOff({
        id: 'r-1',
        name: 'Ada',
        email: 'ada@example.com',
        requestedAt: '2025-03-01T09:00:00.000Z',
        consentedAt: '2025-03-01T09:00:00.000Z',
      });
      prepare?.(standIn);
      const clients = () => ({
        dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
        cloudFormation: new CloudFormationClient({}),
        ses: new SESv2Client({ endpoint: ses.url }),
      });
      const mailProvider = () =>
        Promise.resolve(
          mailProviderClient({
            provider,
            key: keys[provider],
            list: lists[provider],
            ...(provider === 'webhook' ? { webhookUrl: standIn.url } : { baseUrl: standIn.url }),
            timeoutMs: 500,
          }),
        );
      return { ...(await run(args, { clients, mailProvider })), standIn };
    } finally {
      await ses.close();
      await standIn.close();
    }
  }

  test.each(['mailerlite', 'mailchimp'] as const)('%s: the address is deleted there too', async (provider) => {
    await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');
    const { code, stdout, standIn } = await eraseWith(provider, ['erase', 'ada@example.com', '--yes']);

    expect(code).toBe(0);
    expect(standIn.subscribers.size).toBe(0);
    expect(stdout).toMatch(/Mail provider \((MailerLite|Mailchimp)\):\nada@example\.com: removed/);
    expect(stdout).not.toContain('The author must');
  });

  test('kit: unsubscribed through the API, and the output tells the author to delete it in Kit', async () => {
    await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');
    const { code, stdout, standIn } = await eraseWith('kit', ['erase', 'ada@example.com', '--yes']);

    expect(code).toBe(0);
    expect(standIn.subscribers.get('ada@example.com')?.state).toBe('cancelled');
    expect(stdout).toContain('ada@example.com: unsubscribed');
    expect(stdout).toContain("The author must: Kit's API cannot delete a subscriber");
  });

  test('webhook: a signed lead.erased event, and the output tells the author to check the receiver', async () => {
    await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');
    const { code, stdout, standIn } = await eraseWith('webhook', ['erase', 'ada@example.com', '--yes']);

    expect(code).toBe(0);
    expect(standIn.rejectedSignatures).toBe(0);
    expect(standIn.subscribers.size).toBe(0);
    expect(stdout).toContain('ada@example.com: notified');
    expect(stdout).toContain('The author must: The webhook only tells the receiving service');
  });

  test('a provider that fails the removal: reported as a failure, exit 1, the tables still erased', async () => {
    await putRequest('Ada', 'ada@example.com', '2025-03-01T09:00:00.000Z');
    const { code, stderr, standIn } = await eraseWith('mailchimp', ['erase', 'ada@example.com', '--yes'], (s) =>
      s.fail({ status: 503 }),
    );

    expect(code).toBe(1);
    expect(stderr).toContain(
      'Could not remove ada@example.com from Mailchimp (Mailchimp: deleting it answered HTTP 503)',
    );
    expect(standIn.subscribers.size).toBe(1);
    expect(await remainingEmails()).toEqual([]);
  });

  test('nothing stored any more: the provider is still asked to remove it', async () => {
    const { code, stdout, standIn } = await eraseWith('mailerlite', ['erase', 'ada@example.com', '--yes']);

    expect(code).toBe(0);
    expect(stdout).toContain('Removed 0 items');
    expect(standIn.subscribers.size).toBe(0);
  });
});
