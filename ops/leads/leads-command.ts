/**
 * `npm run leads -- export [--out FILE] [--stack NAME]`,
 * `npm run leads -- erase <email> [--yes] [--stack NAME]`: the author's two operations on the
 * readers' data; `npm run leads -- unsent [--stack NAME]` and `npm run leads -- resend [--yes]`:
 * the requests still unsent 15 minutes after they were saved, and sending them again
 * (unsent-requests.ts); `npm run leads -- rekey [--stack NAME]`: the operator's one-off move of the
 * suppression entries written under plain SHA-256 ids to keyed ones (rekey-suppressions.ts);
 * `npm run leads -- funnel [--days N] [--json]`: the author's funnel per day (funnel-command.ts);
 * `npm run leads -- dead-letters list|redrive --stack NAME [--yes]`: the dead-letter queues'
 * messages, and their work redone (dead-letters.ts); `npm run leads -- stuck list|clear`: the requests stuck
 * `sending` for a day, marked `unknown` or `failed` (stuck-command.ts). Exit code 0 on success (an unknown address included), 1 when the work failed or
 * was declined, 2 for a usage error or a malformed address.
 */

import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseEmailAddress } from '../../core/api/request-schema';
import { readAllRequests } from './export-leads';
import { leadsCsv } from '../../core/data/leads-csv';
import { sesEmailSender } from '../../lambdas/mail/email-sender';
import { leadDigestVariables } from '../../core/config/function-environment';
import {
  readStackOutputs,
  StackOutputsError,
  tablesFromEnvironment,
  tablesFromStack,
  type LeadsTables,
} from './leads-tables';
import { defaultMailProvider, eraseLeads } from './erase-command';
import { deploymentSecretMissing, deploymentSecretOf, leadsAddressKey } from './deployment-secret';
import { rekeySuppressions } from './rekey-suppressions';
import { maxFunnelDays, parseFunnelDays, showFunnel } from './funnel-command';
import type { AddressKeySource } from '../../lambdas/limits/address-key';
import { confirmed, messageOf, type LeadsClients, type LeadsCommandIo } from './leads-io';
import { listDeadLetters, redriveDeadLetters } from './dead-letters';
import { describeUnsent, isResendable, markSupersededRequests, resendRequests, unsentOf } from './unsent-requests';
import { parseStuckOptions, runStuck } from './stuck-command';

export type { LeadsClients, LeadsCommandIo } from './leads-io';

export const usage = [
  "Usage: npm run leads -- export [--out FILE | --mail] [--stack NAME]   (--mail: the CSV to the stack's authorEmail)",
  '       npm run leads -- erase <email> [--yes] [--stack NAME] [--summary FILE]   (its +tag and gmail-dot variants too)',
  '       npm run leads -- unsent [--stack NAME]   (requests still unsent 15 minutes after they were saved)',
  "       npm run leads -- resend [--yes] [--stack NAME]   (sends each again, through the send function's limits and claim)",
  `       npm run leads -- funnel [--days N] [--json] [--stack NAME]   (per day: visits, unique visitors, requests, sent... and the conversion; N up to ${maxFunnelDays}, 7 by default)`,
  '       npm run leads -- rekey [--stack NAME]   (moves suppression entries from plain SHA-256 ids to keyed ones, once per stage)',
  '       npm run leads -- dead-letters list|redrive --stack NAME [--yes]   (what failed after its retries; redo it, then delete it)',
  '       npm run leads -- stuck list|clear [<id>...] [--older-than AGE] [--as unknown|failed] [--yes] [--stack NAME]   (requests sending for a day or more; AGE: 36h, 2d)',
  'Deployed, run as the role the context value leadsReaderRoleArn names (e.g. AWS_PROFILE=leads-reader), or use the Leads workflow:',
  "the tables' key lets no other role read them (docs/author.md).",
].join('\n');

/** What an AccessDenied from KMS means here, and what to do. */
export const readerRoleHint =
  "Only the functions and the leads roles may read the leads: run the Leads workflow in GitHub, or run as the role the context value leadsReaderRoleArn names (docs/author.md, 'Exporting the leads').";

const defaultClients = (): LeadsClients => ({
  dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
  cloudFormation: new CloudFormationClient({}),
  ses: new SESv2Client({}),
  secretsManager: new SecretsManagerClient({}),
  lambda: new LambdaClient({}),
  sts: new STSClient({}),
  sqs: new SQSClient({}),
});

/** The stack outputs export --mail and resend --stack read (infra/stack.ts, with githubRepository). */
export const leadsOutputs = {
  leadDigestFunctionName: 'LeadDigestFunctionName',
  senderEmail: 'SenderEmail',
  configurationSetName: 'ConfigurationSetName',
  sendFunctionName: 'SendFunctionName',
} as const;

export async function runLeadsCommand(args: readonly string[], io: LeadsCommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        stack: { type: 'string' },
        yes: { type: 'boolean', short: 'y' },
        mail: { type: 'boolean' },
        summary: { type: 'string' },
        days: { type: 'string' },
        json: { type: 'boolean' },
        'older-than': { type: 'string' },
        as: { type: 'string' },
      },
    });
  } catch (error) {
    io.stderr(`${messageOf(error)}\n${usage}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  const { out, stack, yes = false, mail = false, summary, days, json = false, as } = parsed.values;
  const olderThan = parsed.values['older-than'];
  const usageError = (message: string) => {
    io.stderr(`${message}\n${usage}`);
    return 2;
  };
  if (command === 'export' && (rest.length > 0 || yes)) return usageError('export takes no address and no --yes.');
  if (command === 'erase' && (rest.length !== 1 || out !== undefined))
    return usageError('erase takes exactly one e-mail address, and no --out.');
  if ((command === 'unsent' || command === 'resend' || command === 'rekey') && (rest.length > 0 || out !== undefined))
    return usageError(`${command} takes no address and no --out.`);
  if (command === 'unsent' && yes) return usageError('unsent only lists: it takes no --yes.');
  if (mail && (command !== 'export' || out !== undefined || stack === undefined))
    return usageError("--mail is for export with --stack (it mails to the stack's authorEmail), without --out.");
  if (summary !== undefined && command !== 'erase') return usageError('--summary is for erase.');
  if (command === 'rekey' && yes) return usageError('rekey asks nothing: it takes no --yes.');
  if ((days !== undefined || json) && command !== 'funnel') return usageError('--days and --json are for funnel.');
  const funnelDays = parseFunnelDays(days);
  if (command === 'funnel' && (rest.length > 0 || out !== undefined || yes || funnelDays === undefined))
    return usageError(`funnel takes --days (a whole number from 1 to ${maxFunnelDays}) and --json only.`);

  if (
    command === 'dead-letters' &&
    (rest.length !== 1 || !['list', 'redrive'].includes(rest[0]) || stack === undefined)
  )
    return usageError('dead-letters takes list or redrive, and --stack NAME.');
  if (command === 'dead-letters' && rest[0] === 'list' && yes)
    return usageError('dead-letters list only reads: no --yes.');
  if ((olderThan ?? as) !== undefined && command !== 'stuck') return usageError('--older-than and --as are for stuck.');
  const stuckOptions = command === 'stuck' ? parseStuckOptions(rest, { olderThan, as, yes }) : undefined;
  if (typeof stuckOptions === 'string') return usageError(stuckOptions);
  if (!['export', 'erase', 'unsent', 'resend', 'rekey', 'funnel', 'dead-letters', 'stuck'].includes(command ?? ''))
    return usageError(command ? `Unknown command "${command}".` : '');

  let email = '';
  if (command === 'erase') {
    const address = parseEmailAddress(rest[0] ?? '');
    if (!address.success) {
      io.stderr(`"${rest[0]}" is not an e-mail address the site would have stored: ${address.error}`);
      return 2;
    }
    email = address.email;
  }

  const clients = (io.clients ?? defaultClients)();
  try {
    if (command === 'dead-letters') {
      const deadLetterClients = {
        cloudFormation: clients.cloudFormation,
        sqs: clients.sqs ?? new SQSClient({}),
        lambda: clients.lambda ?? new LambdaClient({}),
      };
      return rest[0] === 'list'
        ? await listDeadLetters(deadLetterClients, stack!, io)
        : await redriveDeadLetters(deadLetterClients, stack!, yes, io);
    }
    const tables =
      stack === undefined ? tablesFromEnvironment(io.env) : await tablesFromStack(clients.cloudFormation, stack);
    if (command === 'unsent') return await listUnsent(clients.dynamoDb, tables, io);
    if (command === 'stuck') {
      // With --stack the clear writes as the send function's role (as resend does): the operator role only reads.
      const writer = async () =>
        stack === undefined ? clients.dynamoDb : await sendRoleClient(clients, stack, io.env);
      return await runStuck(clients.dynamoDb, tables, stuckOptions!, io, writer);
    }
    if (command === 'funnel') return await showFunnel(clients.dynamoDb, tables, { days: funnelDays!, json }, io);
    if (command === 'rekey') {
      const addressKey = leadsAddressKey(
        await deploymentSecretOf(clients.cloudFormation, stack, io.env),
        clients.secretsManager,
      );
      return await rekey(clients.dynamoDb, tables, addressKey, io);
    }
    if (command === 'resend') {
      const env = stack === undefined ? io.env : await sendFunctionEnvironment(clients, stack, io.env);
      return await resendUnsent(clients.dynamoDb, tables, yes, { ...io, env });
    }
    if (command === 'export' && mail) return await mailLeads(clients, tables, stack!, io);
    return command === 'export'
      ? await exportLeads(clients.dynamoDb, tables, out, io)
      : await eraseLeads(
          clients,
          tables,
          email,
          yes,
          io,
          () => (io.mailProvider ? io.mailProvider() : defaultMailProvider(clients, stack, io.env)),
          summary,
          leadsAddressKey(await deploymentSecretOf(clients.cloudFormation, stack, io.env), clients.secretsManager),
        );
  } catch (error) {
    const kmsDenied = /KMS|kms:/.test(messageOf(error)) && /AccessDenied|not authorized/i.test(messageOf(error));
    io.stderr(`Failed: ${messageOf(error)}${kmsDenied ? `\n${readerRoleHint}` : ''}`);
    return 1;
  } finally {
    clients.dynamoDb.destroy();
    clients.cloudFormation.destroy();
    clients.ses.destroy();
    clients.secretsManager?.destroy();
    clients.lambda?.destroy();
    clients.sts?.destroy();
    clients.sqs?.destroy();
  }
}

/** rekey: what moved, what no request matches (left), what failed (exit 1). */
async function rekey(
  client: DynamoDBDocumentClient,
  tables: LeadsTables,
  addressKey: AddressKeySource | undefined,
  io: LeadsCommandIo,
): Promise<number> {
  if (!addressKey) {
    io.stderr(`Nothing moved: ${deploymentSecretMissing}.`);
    return 1;
  }
  const { moved, unmatched, failed } = await rekeySuppressions(client, tables, addressKey, { pageSize: io.pageSize });
  io.stdout(
    `Moved ${moved} suppression entr${moved === 1 ? 'y' : 'ies'} to keyed ids; ${unmatched} legacy entr${unmatched === 1 ? 'y' : 'ies'} no stored request matches (left: still refused, removed by erase or by hand).`,
  );
  for (const { id, reason } of failed) io.stderr(`Could not move ${id} (${reason}): run rekey again.`);
  return failed.length === 0 ? 0 : 1;
}

/**
 * The send function's own environment (its tables, bucket, sender, limits), read from Lambda, and
 * its role's credentials, assumed, in `env`: resend then sends exactly as the function does, with
 * its rights and no variable to set by hand. The send step's clients (lambdas/runtime/aws-clients.ts)
 * read the credentials from the process environment when they first call AWS, so they go there.
 */
async function sendFunctionEnvironment(
  clients: LeadsClients,
  stack: string,
  env: NodeJS.ProcessEnv,
): Promise<NodeJS.ProcessEnv> {
  const functionName = (await readStackOutputs(clients.cloudFormation, stack))[leadsOutputs.sendFunctionName];
  if (!functionName) {
    throw new StackOutputsError(
      `The stack ${stack} has no ${leadsOutputs.sendFunctionName} output: deploy it with githubRepository (docs/deploy.md).`,
    );
  }
  const lambda = clients.lambda ?? new LambdaClient({});
  const sts = clients.sts ?? new STSClient({});
  const configuration = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: functionName }));
  const { Credentials } = await sts.send(
    new AssumeRoleCommand({ RoleArn: configuration.Role, RoleSessionName: 'leads-resend', DurationSeconds: 900 }),
  );
  if (!Credentials?.AccessKeyId || !Credentials.SecretAccessKey || !Credentials.SessionToken) {
    throw new Error(`STS returned no credentials for ${configuration.Role}.`);
  }
  const credentials = {
    AWS_ACCESS_KEY_ID: Credentials.AccessKeyId,
    AWS_SECRET_ACCESS_KEY: Credentials.SecretAccessKey,
    AWS_SESSION_TOKEN: Credentials.SessionToken,
  };
  Object.assign(env, credentials);
  return { ...env, ...configuration.Environment?.Variables, ...credentials };
}

/** A DynamoDB client with the send function's role's credentials (sendFunctionEnvironment). */
async function sendRoleClient(clients: LeadsClients, stack: string, env: NodeJS.ProcessEnv) {
  const role = await sendFunctionEnvironment(clients, stack, env);
  const credentials = {
    accessKeyId: role.AWS_ACCESS_KEY_ID!,
    secretAccessKey: role.AWS_SECRET_ACCESS_KEY!,
    sessionToken: role.AWS_SESSION_TOKEN!,
  };
  return DynamoDBDocumentClient.from(new DynamoDBClient({ credentials }));
}

/**
 * export --mail: the CSV to the stack's authorEmail, from its sender through its configuration set;
 * nothing on disk. The address is read from the weekly digest function's environment (the stack's
 * LeadDigestFunctionName output names it): no output holds the address, as deploy logs print outputs.
 */
async function mailLeads(
  clients: LeadsClients,
  tables: LeadsTables,
  stack: string,
  io: LeadsCommandIo,
): Promise<number> {
  const outputs = await readStackOutputs(clients.cloudFormation, stack);
  const digestFunction = outputs[leadsOutputs.leadDigestFunctionName];
  const senderEmail = outputs[leadsOutputs.senderEmail];
  if (!digestFunction || !senderEmail) {
    throw new StackOutputsError(
      `The stack ${stack} has no ${leadsOutputs.leadDigestFunctionName} and ${leadsOutputs.senderEmail} outputs: deploy it with authorEmail and githubRepository (docs/author.md).`,
    );
  }
  const lambda = clients.lambda ?? new LambdaClient({});
  const digest = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: digestFunction }));
  const authorEmail = digest.Environment?.Variables?.[leadDigestVariables.authorEmail];
  if (!authorEmail) {
    throw new StackOutputsError(
      `The digest function ${digestFunction} has no ${leadDigestVariables.authorEmail}: deploy the stack with authorEmail (docs/author.md).`,
    );
  }
  const items = await readAllRequests(clients.dynamoDb, tables.requests, { pageSize: io.pageSize });
  const day = (io.now ?? (() => new Date()))().toISOString().slice(0, 10);
  const summaryLine = `${items.length} cheat-sheet request${items.length === 1 ? '' : 's'} in all, as of ${day}, attached as CSV.`;
  const configurationSetName = outputs[leadsOutputs.configurationSetName];
  await sesEmailSender(clients.ses)({
    from: senderEmail,
    to: authorEmail,
    subject: `All cheat-sheet requests, ${day}: ${items.length}`,
    text: `${summaryLine}\n`,
    html: `<!doctype html><html><body><p>${summaryLine}</p></body></html>`,
    attachment: {
      fileName: `cheat-sheet-requests-all-${day}.csv`,
      contentType: 'text/csv; charset=utf-8',
      content: new TextEncoder().encode(leadsCsv(items)),
    },
    ...(configurationSetName !== undefined && { configurationSetName }),
  });
  io.stdout(`Mailed ${items.length} requests as CSV to the author's address (the stack's authorEmail).`);
  return 0;
}

async function exportLeads(
  client: DynamoDBDocumentClient,
  tables: LeadsTables,
  out: string | undefined,
  io: LeadsCommandIo,
): Promise<number> {
  const progressFrom = io.progressFrom ?? 1000;
  const items = await readAllRequests(client, tables.requests, {
    pageSize: io.pageSize,
    onPage: (soFar) => {
      if (soFar >= progressFrom) io.stderr(`Read ${soFar} requests from ${tables.requests}…`);
    },
  });
  const csv = leadsCsv(items);
  if (out === undefined) {
    io.stdout(csv);
  } else {
    // Names and addresses: readable by the author's account only.
    await writeFile(out, csv, { encoding: 'utf8', mode: 0o600 });
    io.stderr(`Wrote ${items.length} requests to ${out}.`);
  }
  return 0;
}

async function listUnsent(client: DynamoDBDocumentClient, tables: LeadsTables, io: LeadsCommandIo): Promise<number> {
  const now = (io.now ?? (() => new Date()))();
  const items = await readAllRequests(client, tables.requests, { pageSize: io.pageSize });
  const unsent = unsentOf(items, now);
  if (unsent.length === 0) {
    io.stdout('No request is unsent 15 minutes after it was saved.');
    return 0;
  }
  io.stdout(
    [
      `${unsent.length} request(s) unsent 15 minutes after they were saved:`,
      ...unsent.map((item) => describeUnsent(item, items)),
    ].join('\n'),
  );
  return 0;
}

async function resendUnsent(
  client: DynamoDBDocumentClient,
  tables: LeadsTables,
  yes: boolean,
  io: LeadsCommandIo,
): Promise<number> {
  const now = (io.now ?? (() => new Date()))();
  const items = await readAllRequests(client, tables.requests, { pageSize: io.pageSize });
  const unsent = unsentOf(items, now);
  // The reader was mailed through a later request: recorded, and never resent.
  for (const id of await markSupersededRequests(client, tables.requests, unsent, items, now)) {
    io.stdout(`  ${id}: superseded (its mailbox was sent to through a later request)`);
  }
  const resendable = unsent.filter((item) => isResendable(item, items));
  if (resendable.length === 0) {
    io.stdout('Sent 0 e-mails: no request is unsent 15 minutes after it was saved.');
    return 0;
  }
  io.stdout(
    [`${resendable.length} request(s) to send again:`, ...resendable.map((item) => describeUnsent(item, items))].join(
      '\n',
    ),
  );
  if (!yes && !(await confirmed(io, `Send the cheat sheet for these ${resendable.length} request(s)? [y/N] `))) {
    io.stderr('Nothing sent.');
    return 1;
  }
  const outcomes = await resendRequests(resendable, io.env);
  const lines = outcomes.map((result) =>
    result.outcome === 'refused' ? `  ${result.id}: not sent (${result.code})` : `  ${result.id}: ${result.outcome}`,
  );
  const sent = outcomes.filter((result) => result.outcome === 'sent').length;
  io.stdout([`Sent ${sent} e-mail(s):`, ...lines].join('\n'));
  return outcomes.some((result) => result.outcome === 'refused') ? 1 : 0;
}
