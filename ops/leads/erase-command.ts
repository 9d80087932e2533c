/** `npm run leads -- erase <email>`: what is found, the question, the removals and their report. */

import { appendFile } from 'node:fs/promises';
import {
  countOf,
  eraseAddressItems,
  findAddressItems,
  removeFromSuppressionList,
  suppressionCandidates,
  type AddressItems,
  type SuppressionRemoval,
} from './erase-address';
import { mailProviderFromEnvironment, mailProviderFromStack, removeFromMailProvider } from './mail-provider-removal';
import type { MailProviderClient } from '../../lambdas/mail-provider/mail-provider-client';
import type { LeadsTables } from './leads-tables';
import type { AddressKeySource } from '../../lambdas/limits/address-key';
import { deploymentSecretMissing } from './deployment-secret';
import { confirmed, messageOf, type LeadsClients, type LeadsCommandIo } from './leads-io';

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

export function defaultMailProvider(
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

/** Whether something may be stored that was not looked for: then erase reports it, and never "nothing stored". */
const uncheckedIn = (found: AddressItems) =>
  found.idempotencyNotChecked !== undefined || found.keyedNotChecked !== undefined;

export async function eraseLeads(
  clients: LeadsClients,
  tables: LeadsTables,
  email: string,
  yes: boolean,
  io: LeadsCommandIo,
  mailProvider: () => Promise<MailProviderClient | undefined>,
  summaryFile?: string,
  addressKey?: AddressKeySource,
): Promise<number> {
  const client = clients.dynamoDb;
  const found = await findAddressItems(client, tables, email, {
    pageSize: io.pageSize,
    addressKey,
    addressKeyMissing: deploymentSecretMissing,
  });
  const count = countOf(found);
  // With --summary (the leads workflow): counts only, in the job summary; no address in any output.
  if (summaryFile !== undefined) return eraseWithSummary(clients, tables, found, yes, io, summaryFile, mailProvider);
  let failures = 0;
  if (count === 0 && !uncheckedIn(found)) {
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
    countOf(found) === 0 && !uncheckedIn(found)
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
