/**
 * The rehearsal's scenarios for the leads commands, each run as the role the docs tell the author
 * or operator to use (docs/author.md, docs/operate.md): `leads export` and `erase` as the stack's
 * leads reader role, `unsent` as its leads operator role, `resend` as the operator listing and the
 * send function's role sending (what `resend --stack` does once it has assumed that role). Every
 * client calls the rehearsal's recording endpoint and signs with the role's access key id, so each
 * call is judged as that role's. The commands run in this process, so the send step's own clients
 * (lambdas/runtime/aws-clients.ts), which read the SDK's variables when first imported and when
 * first calling, get the send role's variables for the run, restored afterwards.
 */
import { PassThrough } from 'node:stream';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface OpsRole {
  /** The access key id the recorder maps to the role. */
  readonly accessKeyId: string;
}

export interface OpsRehearsal {
  /** The recording endpoint. */
  readonly endpoint: string;
  readonly region: string;
  /** Names the scenario the following calls belong to. */
  readonly scenario: (name: string) => void;
  readonly leadsReader?: OpsRole;
  readonly leadsOperator?: OpsRole;
  /** The send function's role and its template environment (what `resend --stack` reads from Lambda). */
  readonly sendFunction?: OpsRole & { readonly environment: Readonly<Record<string, string>> };
  /** Extra variables for the send step (the rehearsal's DNS stand-in). */
  readonly sendStepEnvironment?: Readonly<Record<string, string>>;
  /** An address the scenarios before saved, for erase. */
  readonly eraseAddress: string;
}

export interface OpsScenarioResult {
  readonly name: string;
  readonly exitCode?: number;
  readonly output?: string;
  readonly skipped?: string;
}

const sdkVariables = [
  'AWS_ENDPOINT_URL',
  'AWS_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
] as const;

export async function runOpsScenarios(rehearsal: OpsRehearsal): Promise<OpsScenarioResult[]> {
  const saved = Object.fromEntries(sdkVariables.map((name) => [name, process.env[name]]));
  const clientsAs = (role: OpsRole) => () => {
    const config = {
      endpoint: rehearsal.endpoint,
      region: rehearsal.region,
      credentials: { accessKeyId: role.accessKeyId, secretAccessKey: 'rehearsal', sessionToken: 'rehearsal' },
    };
    return {
      dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient(config)),
      cloudFormation: new CloudFormationClient(config),
      ses: new SESv2Client(config),
    };
  };
  // The send step's clients are created when its module is first imported: the variables go first.
  Object.assign(process.env, {
    AWS_ENDPOINT_URL: rehearsal.endpoint,
    AWS_REGION: rehearsal.region,
    AWS_ACCESS_KEY_ID: rehearsal.sendFunction?.accessKeyId ?? 'no-send-function',
    AWS_SECRET_ACCESS_KEY: 'rehearsal',
    AWS_SESSION_TOKEN: 'rehearsal',
  });
  delete process.env.AWS_PROFILE;
  const results: OpsScenarioResult[] = [];
  try {
    const { runLeadsCommand } = await import('../leads/leads-command');
    const run = async (name: string, role: OpsRole | undefined, args: string[], env: NodeJS.ProcessEnv = {}) => {
      if (!role) {
        results.push({ name, skipped: 'the stage has no such role (deploy with githubRepository)' });
        return;
      }
      rehearsal.scenario(name);
      let output = '';
      const stdin = new PassThrough();
      stdin.end();
      const exitCode = await runLeadsCommand(args, {
        stdout: () => undefined,
        stderr: (text) => (output += text),
        stdin,
        env,
        clients: clientsAs(role),
        mailProvider: () => Promise.resolve(undefined),
        // Twenty minutes on: the request the scenarios left unsent is past the 15 minutes unsent and resend wait.
        now: () => new Date(Date.now() + 20 * 60_000),
      });
      results.push({ name, exitCode, output });
    };
    await run('leads export', rehearsal.leadsReader, ['export']);
    await run('leads unsent', rehearsal.leadsOperator, ['unsent']);
    await run('leads resend', rehearsal.sendFunction && rehearsal.leadsOperator, ['resend', '--yes'], {
      ...rehearsal.sendFunction?.environment,
      ...rehearsal.sendStepEnvironment,
    });
    await run('leads erase', rehearsal.leadsReader, ['erase', rehearsal.eraseAddress, '--yes']);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return results;
}
