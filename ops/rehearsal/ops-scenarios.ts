/**
 * The rehearsal's scenarios for the ops commands, each run with `--stack` as the role the docs tell
 * the author or operator to use (docs/author.md, docs/operate.md, docs/deploy.md): `leads export`
 * (to a file and, with authorEmail, `--mail`), `funnel`, `rekey` and `erase` as the stack's leads reader role, `unsent`
 * and `resend` as its leads operator role (resend reads the send function's configuration from
 * Lambda and assumes its role through STS, then sends as that role), `sending pause` and `resume` as
 * the leads operator role, the smoke test's `--stack` checks as CDK's bootstrap lookup role, and
 * the preflight (`npm run preflight` with the stage's `-c` values) as the same lookup role, which
 * the deploy workflow's preflight step assumes, in the account as before the first deploy (no
 * stack, no table, no sender identity: every check then calls AWS). The preflight's own clients
 * (ops/preflight/aws-clients.ts) take the SDK's default credentials, so the lookup role's key is in
 * the process environment for its run. None of its checks needs DNS or the network: CloudFront's
 * account verification is a MANUAL line without a call.
 * Every client calls the rehearsal's recording endpoint and signs with the role's access key id, so
 * each call is judged as that role's. The commands run in this process, so the send step's own
 * clients (lambdas/runtime/aws-clients.ts), which read the SDK's variables from the process
 * environment, get them there for the run, restored afterwards; before resend assumes the send
 * role they hold no role's key, so a send not signed with the assumed credentials is refused.
 */
import { PassThrough } from 'node:stream';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { STSClient } from '@aws-sdk/client-sts';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readStackOutputs } from '../leads/leads-tables';
import { runPreflightCommand } from '../preflight/preflight-command';
import { runSendingCommand } from '../sending/sending-command';
import { runDeploymentChecks } from '../smoke/deployment-checks';

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
  /** What `--stack` names: the product's stack. */
  readonly stackName: string;
  readonly leadsReader?: OpsRole;
  readonly leadsOperator?: OpsRole;
  /** CDK's bootstrap lookup role: the smoke test's in the deploy workflow. */
  readonly lookupRole: OpsRole;
  /** Extra variables for the send step (the rehearsal's DNS stand-in). */
  readonly sendStepEnvironment?: Readonly<Record<string, string>>;
  /** An address the scenarios before saved, for erase. */
  readonly eraseAddress: string;
  /** The `-c` arguments the stage was synthesized with: the preflight's. */
  readonly preflightArguments: readonly string[];
  /** Turns the control plane's account into the one before the first deploy, and back. */
  readonly firstDeploy: (on: boolean) => void;
}

export interface OpsScenarioResult {
  readonly name: string;
  readonly exitCode?: number;
  readonly output?: string;
  readonly skipped?: string;
  /** What the command printed that it should not have, when it exited 0 all the same. */
  readonly failure?: string;
  /** What the rehearsal does not judge (the preflight's checks of the repository's own files). */
  readonly notJudged?: string;
}

/**
 * The preflight's checks of the repository's files, not of the account: the author's placeholders
 * and cdk.json's sample stage values, a FAIL for production by design (docs/author.md). The
 * rehearsal judges the checks that call AWS.
 */
const repositoryChecks = new Set(['content', 'stage values']);

const sdkVariables = [
  'AWS_ENDPOINT_URL',
  'AWS_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'DNS_SERVERS',
] as const;

/** What the send step signs with until resend has assumed the send function's role: no role's key. */
export const noRoleYet = 'rehearsal-no-role-assumed-yet';

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
      lambda: new LambdaClient(config),
      sts: new STSClient(config),
      // erase reads the deployment's secret (the keyed ids of the address's counters and suppression entry).
      secretsManager: new SecretsManagerClient(config),
    };
  };
  // The send step's clients are created when its module is first imported: the variables go first.
  Object.assign(process.env, {
    AWS_ENDPOINT_URL: rehearsal.endpoint,
    AWS_REGION: rehearsal.region,
    AWS_ACCESS_KEY_ID: noRoleYet,
    AWS_SECRET_ACCESS_KEY: 'rehearsal',
    AWS_SESSION_TOKEN: 'rehearsal',
    ...rehearsal.sendStepEnvironment,
  });
  delete process.env.AWS_PROFILE;
  const stack = ['--stack', rehearsal.stackName];
  const results: OpsScenarioResult[] = [];
  const noRole = (name: string) =>
    results.push({ name, skipped: 'the stage has no such role (deploy with githubRepository)' });
  try {
    const { leadsOutputs, runLeadsCommand } = await import('../leads/leads-command');
    const leads = async (name: string, role: OpsRole | undefined, args: string[]) => {
      if (!role) return noRole(name);
      rehearsal.scenario(name);
      let output = '';
      const stdin = new PassThrough();
      stdin.end();
      const exitCode = await runLeadsCommand([...args, ...stack], {
        stdout: () => undefined,
        stderr: (text) => (output += text),
        stdin,
        // resend --stack puts the send role's credentials here, as the command line's process.env.
        env: process.env,
        clients: clientsAs(role),
        mailProvider: () => Promise.resolve(undefined),
        // Twenty minutes on: the request the scenarios left unsent is past the 15 minutes unsent and resend wait.
        now: () => new Date(Date.now() + 20 * 60_000),
      });
      results.push({ name, exitCode, output });
    };
    await leads('leads export', rehearsal.leadsReader, ['export']);
    if (rehearsal.leadsReader) {
      const outputs = await readStackOutputs(clientsAs(rehearsal.leadsReader)().cloudFormation, rehearsal.stackName);
      if (outputs[leadsOutputs.leadDigestFunctionName]) {
        await leads('leads export --mail', rehearsal.leadsReader, ['export', '--mail']);
      } else results.push({ name: 'leads export --mail', skipped: 'the stage has no authorEmail' });
    } else noRole('leads export --mail');
    await leads('leads unsent', rehearsal.leadsOperator, ['unsent']);
    await leads('leads resend', rehearsal.leadsOperator, ['resend', '--yes']);
    // The Leads workflow's stuck choices, as the operator (the clear writes as the send function's role, as resend).
    await leads('leads stuck list', rehearsal.leadsOperator, ['stuck', 'list']);
    await leads('leads stuck clear', rehearsal.leadsOperator, [
      'stuck',
      'clear',
      '--older-than',
      '1d',
      '--as',
      'unknown',
      '--yes',
    ]);
    // The Leads workflow's funnel choice: the last 14 days, as the reader (the day counts' GetItem on the counters).
    await leads('leads funnel', rehearsal.leadsReader, ['funnel', '--days', '14']);
    await leads('leads rekey', rehearsal.leadsReader, ['rekey']);
    await leads('leads erase', rehearsal.leadsReader, ['erase', rehearsal.eraseAddress, '--yes']);

    for (const [command, state] of [
      ['pause', 'paused'],
      ['resume', 'enabled'],
    ] as const) {
      const name = `sending ${command}`;
      if (!rehearsal.leadsOperator) {
        noRole(name);
        continue;
      }
      rehearsal.scenario(name);
      let output = '';
      const exitCode = await runSendingCommand([command, ...stack], {
        stdout: (text) => (output += text),
        stderr: (text) => (output += text),
        clients: clientsAs(rehearsal.leadsOperator),
      });
      const shown = output.includes(`sending ${state}.`);
      results.push({
        name,
        exitCode,
        output,
        ...(exitCode === 0 && !shown && { failure: `the state read back is not "sending ${state}"` }),
      });
    }

    rehearsal.scenario('smoke --stack');
    const smoke = await runDeploymentChecks(rehearsal.stackName, clientsAs(rehearsal.lookupRole)());
    const failed = smoke.results.filter((result) => !result.ok);
    results.push({
      name: 'smoke --stack',
      exitCode: failed.length === 0 ? 0 : 1,
      output: failed.map((result) => `${result.name}: ${result.detail}`).join('; '),
    });

    results.push(await rehearsePreflight(rehearsal));
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return results;
}

/**
 * `npm run preflight` with the stage's `-c` values, signed as the lookup role. Judged on its checks
 * that call AWS: each must PASS (MANUAL for CloudFront's verification), so an unanswered or refused
 * call shows; the ones of the repository's files are reported, not judged.
 */
async function rehearsePreflight(rehearsal: OpsRehearsal): Promise<OpsScenarioResult> {
  const name = 'preflight';
  rehearsal.scenario(name);
  rehearsal.firstDeploy(true);
  process.env.AWS_ACCESS_KEY_ID = rehearsal.lookupRole.accessKeyId;
  const lines: string[] = [];
  let exitCode: number;
  try {
    exitCode = await runPreflightCommand(rehearsal.preflightArguments, {
      print: (line) => lines.push(line),
      printError: (line) => lines.push(line),
      cwd: process.cwd(),
    });
  } finally {
    process.env.AWS_ACCESS_KEY_ID = noRoleYet;
    rehearsal.firstDeploy(false);
  }
  const output = lines.join('\n');
  const checks = lines.flatMap((line) => {
    const match = /^(PASS|WARN|FAIL|MANUAL) +([^:]+): /.exec(line);
    return match ? [{ status: match[1], check: match[2], line }] : [];
  });
  const notPassed = checks.filter(
    ({ status, check }) => !repositoryChecks.has(check) && status !== 'PASS' && status !== 'MANUAL',
  );
  const repository = checks.filter(({ status, check }) => repositoryChecks.has(check) && status !== 'PASS');
  const failure =
    exitCode === 2 || checks.length === 0
      ? `exited with ${exitCode} before its checks: ${output}`
      : notPassed.length > 0
        ? notPassed.map(({ line }) => line).join('; ')
        : undefined;
  return {
    name,
    output,
    ...(failure && { failure }),
    ...(repository.length > 0 && {
      notJudged: repository.map(({ status, check }) => `${check} ${status} (the repository's files)`).join(', '),
    }),
  };
}
