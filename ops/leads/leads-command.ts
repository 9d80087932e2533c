/**
 * `npm run leads -- export [--out FILE] [--stack NAME]`,
 * `npm run leads -- erase <email> [--yes] [--stack NAME]`: the author's two operations on the
 * readers' data; `npm run leads -- unsent [--stack NAME]` and `npm run leads -- resend [--yes]`:
 * the requests still unsent 15 minutes after they were saved, and sending them again
 * (unsent-requests.ts). Exit code 0 on success (an unknown address included), 1 when the work failed or
 * was declined, 2 for a usage error or a malformed address.
 */

import { appendFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseEmailAddress } from '../../core/api/request-schema';
import {
  countOf,
  eraseAddressItems,
  findAddressItems,
  removeFromSuppressionList,
  suppressionCandidates,
  type AddressItems,
  type SuppressionRemoval,
} from './erase-address';
import { readAllRequests } from './export-leads';
import { mailProviderFromEnvironment, mailProviderFromStack, removeFromMailProvider } from './mail-provider-removal';
import type { MailProviderClient } from '../../lambdas/mail-provider/mail-provider-client';
import { leadsCsv } from '../../core/data/leads-csv';
import { sesEmailSender } from '../../lambdas/mail/email-sender';
import {
  readStackOutputs,
  StackOutputsError,
  tablesFromEnvironment,
  tablesFromStack,
  type LeadsTables,
} from './leads-tables';
import { describeUnsent, isResendable, markSupersededRequests, resendRequests, unsentOf } from './unsent-requests';

export const usage = [
  "Usage: npm run leads -- export [--out FILE | --mail] [--stack NAME]   (--mail: the CSV to the stack's AuthorEmail)",
  '       npm run leads -- erase <email> [--yes] [--stack NAME] [--summary FILE]   (its +tag and gmail-dot variants too)',
  '       npm run leads -- unsent [--stack NAME]   (requests still unsent 15 minutes after they were saved)',
  "       npm run leads -- resend [--yes] [--stack NAME]   (sends each again, through the send function's limits and claim)",
  "Deployed, run as the leads reader role (the stack's leadsReaderRoleArn, e.g. AWS_PROFILE=leads-reader):",
  "the tables' key lets no other role read them (docs/author.md).",
].join('\n');

/** What an AccessDenied from KMS means here, and what to do. */
export const readerRoleHint =
  "Only the functions and the leads reader role may read the leads: run as the role the stack's leadsReaderRoleArn names (docs/author.md, getting the leads).";

export interface LeadsClients {
  readonly dynamoDb: DynamoDBDocumentClient;
  readonly cloudFormation: CloudFormationClient;
  /** erase removes the address from the account's SES suppression list; export --mail sends through it. */
  readonly ses: SESv2Client;
  /** erase reads the mail provider's key. @default none: no provider is reached */
  readonly secretsManager?: SecretsManagerClient;
  /** resend --stack reads the send function's environment. */
  readonly lambda?: LambdaClient;
  /** resend --stack assumes the send function's role. */
  readonly sts?: STSClient;
}

export interface LeadsCommandIo {
  /** The CSV (without --out) and erase's report. */
  readonly stdout: (text: string) => void;
  /** Progress, questions and errors. */
  readonly stderr: (text: string) => void;
  /** Where erase reads its y/N answer. */
  readonly stdin: Readable;
  readonly env: NodeJS.ProcessEnv;
  /** @default clients from the SDK's usual settings (credentials, region, AWS_ENDPOINT_URL_DYNAMODB) */
  readonly clients?: () => LeadsClients;
  /** Items per Scan call, for tests. @default DynamoDB's own page */
  readonly pageSize?: number;
  /** Export reports its progress on stderr once it has read this many. @default 1000 */
  readonly progressFrom?: number;
  /** @default new Date() */
  readonly now?: () => Date;
  /**
   * The mail provider erase removes the address from.
   *
   * @default the stack's (its MailProvider outputs) with --stack, else the functions' variables (MAIL_PROVIDER…); none without either
   */
  readonly mailProvider?: () => Promise<MailProviderClient | undefined>;
}

const defaultClients = (): LeadsClients => ({
  dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
  cloudFormation: new CloudFormationClient({}),
  ses: new SESv2Client({}),
  secretsManager: new SecretsManagerClient({}),
  lambda: new LambdaClient({}),
  sts: new STSClient({}),
});

/** The stack outputs export --mail and resend --stack read (infra/stack.ts, with githubRepository). */
export const leadsOutputs = {
  authorEmail: 'AuthorEmail',
  senderEmail: 'SenderEmail',
  configurationSetName: 'ConfigurationSetName',
  sendFunctionName: 'SendFunctionName',
} as const;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
      },
    });
  } catch (error) {
    io.stderr(`${messageOf(error)}\n${usage}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  const { out, stack, yes = false, mail = false, summary } = parsed.values;
  const usageError = (message: string) => {
    io.stderr(`${message}\n${usage}`);
    return 2;
  };
  if (command === 'export' && (rest.length > 0 || yes)) return usageError('export takes no address and no --yes.');
  if (command === 'erase' && (rest.length !== 1 || out !== undefined))
    return usageError('erase takes exactly one e-mail address, and no --out.');
  if ((command === 'unsent' || command === 'resend') && (rest.length > 0 || out !== undefined))
    return usageError(`${command} takes no address and no --out.`);
  if (command === 'unsent' && yes) return usageError('unsent only lists: it takes no --yes.');
  if (mail && (command !== 'export' || out !== undefined || stack === undefined))
    return usageError("--mail is for export with --stack (it mails to the stack's AuthorEmail), without --out.");
  if (summary !== undefined && command !== 'erase') return usageError('--summary is for erase.');
  if (!['export', 'erase', 'unsent', 'resend'].includes(command ?? ''))
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
    const tables =
      stack === undefined ? tablesFromEnvironment(io.env) : await tablesFromStack(clients.cloudFormation, stack);
    if (command === 'unsent') return await listUnsent(clients.dynamoDb, tables, io);
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
  }
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

/** export --mail: the CSV to the stack's AuthorEmail, from its sender through its configuration set; nothing on disk. */
async function mailLeads(
  clients: LeadsClients,
  tables: LeadsTables,
  stack: string,
  io: LeadsCommandIo,
): Promise<number> {
  const outputs = await readStackOutputs(clients.cloudFormation, stack);
  const authorEmail = outputs[leadsOutputs.authorEmail];
  const senderEmail = outputs[leadsOutputs.senderEmail];
  if (!authorEmail || !senderEmail) {
    throw new StackOutputsError(
      `The stack ${stack} has no ${leadsOutputs.authorEmail} and ${leadsOutputs.senderEmail} outputs: deploy it with authorEmail and githubRepository (docs/author.md).`,
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
  io.stdout(
    `Mailed ${items.length} requests as CSV to the author's address (the stack's ${leadsOutputs.authorEmail}).`,
  );
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

function describe(found: AddressItems): string {
  const lines = [
    `${found.email}: ${found.requests.length} request(s) in the requests table, its +tag and gmail-dot variants included`,
  ];
  for (const request of found.requests) {
    lines.push(
      `  ${request.requested_at}  ${request.cheat_sheet_sent ? 'sent' : 'not sent'}  ${request.email}  (id ${request.id})`,
    );
  }
  if (found.addressDailyCapItemIds.length === 0) lines.push('  no send counter');
  for (const id of found.addressDailyCapItemIds) lines.push(`  1 send counter (id ${id})`);
  for (const id of found.suppressionItemIds)
    lines.push(`  its suppression entry (id ${id}): the mailbox may be mailed again`);
  if (found.idempotencyRecordIds.length > 0) {
    lines.push(`  ${found.idempotencyRecordIds.length} idempotency record(s) of its submissions`);
  }
  return lines.join('\n');
}

/** What besides the requests was found: its send counters, its suppression entry, its idempotency records. */
function othersOf(found: AddressItems): string {
  const count = found.addressDailyCapItemIds.length;
  const parts = [
    ...(count === 0 ? [] : [count === 1 ? 'its send counter' : `its ${count} send counters`]),
    ...(found.suppressionItemIds.length === 0 ? [] : ['its suppression entry']),
    ...(found.idempotencyRecordIds.length === 0 ? [] : [`${found.idempotencyRecordIds.length} idempotency record(s)`]),
  ];
  if (parts.length === 0) return '';
  return parts.length === 1 ? ` and ${parts[0]}` : `, ${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

async function confirmed(io: LeadsCommandIo, question: string): Promise<boolean> {
  const reader = createInterface({ input: io.stdin, terminal: false });
  try {
    io.stderr(question);
    // A closed stdin (no answer at all) counts as no.
    const answer = await new Promise<string>((resolve) => {
      reader.once('line', resolve);
      reader.once('close', () => resolve(''));
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    reader.close();
  }
}

function defaultMailProvider(
  clients: LeadsClients,
  stack: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<MailProviderClient | undefined> {
  if (!clients.secretsManager) return Promise.resolve(undefined);
  return stack === undefined
    ? mailProviderFromEnvironment(env, clients.secretsManager)
    : mailProviderFromStack(clients.cloudFormation, clients.secretsManager, stack);
}

/** The address at the author's mail provider, when there is one; exit 1 when a removal failed. */
async function eraseAtMailProvider(
  mailProvider: () => Promise<MailProviderClient | undefined>,
  found: AddressItems,
  io: LeadsCommandIo,
): Promise<number> {
  let provider: MailProviderClient | undefined;
  try {
    provider = await mailProvider();
  } catch (error) {
    io.stderr(
      `Could not reach the mail provider (${messageOf(error)}): remove the address from the author's list there by hand.`,
    );
    return 1;
  }
  if (!provider) return 0;
  const { report, failures } = await removeFromMailProvider(provider, suppressionCandidates(found));
  io.stdout(report.join('\n'));
  for (const failure of failures) io.stderr(failure);
  return failures.length === 0 ? 0 : 1;
}

/**
 * A removal beyond the tables, run whether or not anything was stored (the tables' items may have
 * expired while the address is still held elsewhere): it reports what it removed and what failed.
 * Each failure makes the command exit 1.
 */
interface ExternalRemoval {
  /** Runs the removal, writes its own report, and answers how many of its parts failed. */
  readonly run: () => Promise<number>;
}

async function eraseLeads(
  clients: LeadsClients,
  tables: LeadsTables,
  email: string,
  yes: boolean,
  io: LeadsCommandIo,
  mailProvider: () => Promise<MailProviderClient | undefined>,
  summaryFile?: string,
): Promise<number> {
  const client = clients.dynamoDb;
  const found = await findAddressItems(client, tables, email, { pageSize: io.pageSize });
  const count = countOf(found);
  // With --summary (the leads workflow): counts only, in the job summary; no address in any output.
  if (summaryFile !== undefined) return eraseWithSummary(clients, tables, found, yes, io, summaryFile, mailProvider);
  let failures = 0;
  if (count === 0 && found.idempotencyNotChecked === undefined) {
    io.stdout(`Removed 0 items: nothing is stored for ${email}.`);
  } else {
    io.stdout(describe(found));
    if (!yes && !(await confirmed(io, `Remove these ${count} item(s) for good? [y/N] `))) {
      io.stderr('Nothing removed.');
      return 1;
    }
    const { removed, failed } = await eraseAddressItems(client, tables, found);
    io.stdout(`Removed ${removed} item(s) for ${email}: ${found.requests.length} request(s)${othersOf(found)}.`);
    for (const { what, reason } of failed) {
      io.stderr(`Could not remove ${what} (${reason}): run erase again, or delete it by hand.`);
    }
    failures += failed.length;
  }
  // After the tables: the places outside them that may hold the address.
  const removals: readonly ExternalRemoval[] = [
    {
      run: async () => {
        const { report, failures: failedLines } = sesSuppressionReport(
          await removeFromSuppressionList(clients.ses, suppressionCandidates(found)),
        );
        io.stdout(report);
        for (const line of failedLines) io.stderr(line);
        return failedLines.length;
      },
    },
    // The author's mail provider, when the stack hands leads to one.
    { run: () => eraseAtMailProvider(mailProvider, found, io) },
  ];
  for (const removal of removals) failures += await removal.run();
  return failures === 0 ? 0 : 1;
}

/**
 * What SES's suppression list held of the address. "Not on it" only when SES said so for every
 * spelling: a spelling it could not remove is reported as failed, with the command that removes it.
 */
function sesSuppressionReport({ removed, failed }: SuppressionRemoval): { report: string; failures: string[] } {
  const parts = [
    ...(removed.length === 0 ? [] : [`removed ${removed.join(', ')}`]),
    ...(failed.length === 0 ? [] : [`could not check ${failed.length} spelling(s): see below`]),
  ];
  return {
    report: `\nSES suppression list: ${parts.length === 0 ? 'the address was not on it' : parts.join('; ')}.`,
    failures: failed.map(
      ({ email, reason }) =>
        `Could not remove ${email} from the SES suppression list (${reason}): aws sesv2 delete-suppressed-destination --email-address ${email}`,
    ),
  };
}

/**
 * erase --summary FILE: the same erasure, reported as counts only (no address, no spelling), on
 * stdout and appended to FILE as Markdown (the workflow's $GITHUB_STEP_SUMMARY); `--yes` required,
 * since a workflow cannot answer a question. A failure is reported as a failure, exit 1.
 */
async function eraseWithSummary(
  clients: LeadsClients,
  tables: LeadsTables,
  found: AddressItems,
  yes: boolean,
  io: LeadsCommandIo,
  summaryFile: string,
  mailProvider: () => Promise<MailProviderClient | undefined>,
): Promise<number> {
  if (!yes) {
    io.stderr('erase --summary runs without a question: add --yes.');
    return 2;
  }
  const tableRemoval =
    countOf(found) === 0 && found.idempotencyNotChecked === undefined
      ? { removed: 0, failed: [] }
      : await eraseAddressItems(clients.dynamoDb, tables, found);
  const removed = tableRemoval.removed;
  // Items only, never their ids: an idempotency record's id or a request's is no address, but counts suffice here.
  const tablesFailed = tableRemoval.failed.length > 0;
  const { removed: unsuppressed, failed } = await removeFromSuppressionList(clients.ses, suppressionCandidates(found));
  // The author's mail provider, when one is set: its report names addresses, so only whether it failed is told.
  let providerLine: string | undefined;
  let providerFailed = false;
  try {
    const provider = await mailProvider();
    if (provider) {
      const { failures } = await removeFromMailProvider(provider, suppressionCandidates(found));
      providerFailed = failures.length > 0;
      providerLine = providerFailed
        ? `- **Failed**: the mail provider did not remove ${failures.length} spelling(s); remove the reader there by hand.`
        : '- Mail provider: asked to remove every spelling.';
    }
  } catch (error) {
    providerFailed = true;
    providerLine = `- **Failed**: the mail provider could not be reached (${messageOf(error).replace(/[^\s@]+@[^\s@]+/g, '<address>')}); remove the reader there by hand.`;
  }
  const lines = [
    '## Erasure',
    '',
    `- Requests removed: ${found.requests.length}`,
    `- Send counters removed: ${found.addressDailyCapItemIds.length}`,
    `- Suppression entries removed: ${found.suppressionItemIds.length}`,
    `- Idempotency records removed: ${found.idempotencyRecordIds.length}`,
    `- Items removed in all: ${removed}`,
    ...(tablesFailed
      ? [
          `- **Failed**: ${tableRemoval.failed.length} item(s) could not be removed from the tables. Run the workflow again.`,
        ]
      : []),
    `- Spellings taken off the SES suppression list: ${unsuppressed.length}`,
    ...(providerLine === undefined ? [] : [providerLine]),
    ...(failed.length === 0 && !providerFailed && !tablesFailed
      ? ['', 'Done: nothing of this address is left in the tables or on the suppression list.']
      : failed.length === 0
        ? []
        : [
            `- **Failed**: ${failed.length} spelling(s) could not be taken off the SES suppression list (${[
              ...new Set(failed.map(({ reason }) => reason)),
            ].join(
              '; ',
            )}). Run the workflow again; if it fails again, the operator removes them by hand (docs/author.md).`,
          ]),
    '',
  ];
  await appendFile(summaryFile, lines.join('\n'));
  io.stdout(lines.filter((line) => line.startsWith('- ') || line.startsWith('Done')).join('\n'));
  return failed.length === 0 && !providerFailed && !tablesFailed ? 0 : 1;
}
