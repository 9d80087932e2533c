/**
 * The audit report's data-protection case, read from the templates: the personal data the
 * product holds (field, store, retention, how it is erased), and the stamp of what the report
 * describes (commit, date, tool versions, stage). Who can read, decrypt, send and assume each role
 * is computed in audit-access.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  propertiesOf,
  resourcesOfType,
  type Json,
  type StackView,
  type TemplateResource,
} from './cloudformation-template';
import { dataPathRows } from './audit-data-paths';
import { table } from './markdown-table';
import { funnelRetentionDays } from '../../core/data/funnel';
import { funnelVisitorsTableName } from '../../core/data/tables';

/** DynamoDB's point-in-time recovery keeps every version of an item, deleted ones too, this long. */
export const pointInTimeRecoveryDays = 35;

const findResource = (views: readonly StackView[], type: string, predicate: (r: TemplateResource) => boolean) =>
  views
    .flatMap((view) => resourcesOfType(view, type).map(([id, resource]) => ({ view, id, resource })))
    .find(({ resource }) => predicate(resource));

const tableNamed = (views: readonly StackView[], name: string) =>
  findResource(views, 'AWS::DynamoDB::Table', (r) => propertiesOf<{ TableName: string }>(r).TableName === name);

/** The log groups' retention, as the template sets it (the same for every log group of the stack). */
function logRetentionDays(views: readonly StackView[]): string {
  const days = new Set(
    views.flatMap((view) =>
      resourcesOfType(view, 'AWS::Logs::LogGroup').map(
        ([, r]) => propertiesOf<{ RetentionInDays: number }>(r).RetentionInDays ?? 'never expires',
      ),
    ),
  );
  return [...days].map((value) => (typeof value === 'number' ? `${value} days` : value)).join(', ');
}

/** The requests' retention: the functions' REQUEST_RETENTION_DAYS with the table's TTL, else none. */
function requestRetention(views: readonly StackView[]): string {
  const requests = tableNamed(views, 'cheat_sheet_requests');
  const ttl =
    requests &&
    propertiesOf<{ TimeToLiveSpecification: { Enabled: boolean } }>(requests.resource).TimeToLiveSpecification;
  const days = findResource(views, 'AWS::Lambda::Function', (r) =>
    JSON.stringify(r.Properties ?? {}).includes('REQUEST_RETENTION_DAYS'),
  );
  const value =
    days &&
    propertiesOf<{ Environment: { Variables: Record<string, Json> } }>(days.resource).Environment?.Variables
      ?.REQUEST_RETENTION_DAYS;
  const live =
    ttl?.Enabled && typeof value === 'string' ? `${value} days (DynamoDB TTL)` : 'no expiry: kept until erased';
  return `${live}; deleted items stay ${pointInTimeRecoveryDays} days in point-in-time recovery`;
}

/** The funnel's salt and marks: the day, and whether a backup keeps them past it (the table's point-in-time recovery). */
function funnelVisitorsRetention(views: readonly StackView[]): string {
  const visitors = tableNamed(views, funnelVisitorsTableName);
  const recovery =
    visitors &&
    propertiesOf<{ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled?: boolean } }>(visitors.resource)
      .PointInTimeRecoverySpecification;
  const backups = recovery?.PointInTimeRecoveryEnabled
    ? `${pointInTimeRecoveryDays} days in point-in-time recovery`
    : 'no backup keeps them (no point-in-time recovery)';
  return `the day's end (DynamoDB TTL; the next day's first visit deletes the salt); ${backups}`;
}

function accessLogRetention(views: readonly StackView[]): string {
  const logs = findResource(views, 'AWS::S3::Bucket', (r) =>
    JSON.stringify(r.Properties ?? {}).includes('"ExpirationInDays"'),
  );
  const rules =
    logs &&
    propertiesOf<{ LifecycleConfiguration: { Rules: { ExpirationInDays?: number }[] } }>(logs.resource)
      .LifecycleConfiguration?.Rules;
  const days = rules?.find((rule) => rule.ExpirationInDays !== undefined)?.ExpirationInDays;
  return days === undefined ? 'no expiry' : `${days} days (then 30 days as an old version)`;
}

/** With a mail provider: the requests table's stream (new images) and the author's list at the provider. */
function mailProviderRows(views: readonly StackView[], erase: string): string[][] {
  const requests = tableNamed(views, 'cheat_sheet_requests');
  const stream =
    requests &&
    propertiesOf<{ StreamSpecification: { StreamViewType?: string } }>(requests.resource).StreamSpecification;
  if (!stream) return [];
  return [
    [
      `each new request as written (name, address, consent), the table's stream (${stream.StreamViewType ?? 'records'})`,
      'the `cheat_sheet_requests` stream',
      '24 hours (DynamoDB Streams)',
      'expire; not per reader',
    ],
    [
      'name and address of a reader who consented',
      "the author's mail provider (outside AWS)",
      'until removed there',
      `${erase}: MailerLite and Mailchimp delete it; Kit and a webhook, by hand (the tool says what)`,
    ],
  ];
}

export function personalDataSection(views: readonly StackView[]): string {
  const logs = logRetentionDays(views);
  const erase = '`npm run leads -- erase <email>`: the address and its `+tag` and Gmail-dot variants';
  return [
    '## Personal data',
    '',
    'What the product holds about a reader, where, for how long, and how it is erased. Retention is read from the templates.',
    '',
    table(
      ['field', 'store', 'retention', 'how it is erased'],
      [
        [
          'name, e-mail address, request and send times, delivery status, consent (time and words)',
          '`cheat_sheet_requests`',
          requestRetention(views),
          erase,
        ],
        [
          'the `Idempotency-Key` of each submission (`submission_key`), which names its request',
          '`cheat_sheet_requests`',
          requestRetention(views),
          `${erase} (with its request)`,
        ],
        [
          "HMAC-SHA-256 of the normalized address under a key derived from the deployment's secret (daily cap; no one without the secret can match it); items written before the ids were keyed hold its plain SHA-256",
          '`cheat_sheet_send_quotas`',
          'a day after the newest send (DynamoDB TTL), the plain SHA-256 ones included',
          `${erase} (its counters, under both ids)`,
        ],
        [
          "HMAC-SHA-256 (the deployment's key) of a mailbox that bounced for good or complained (`suppressed#…`); an entry written before the ids were keyed holds its plain SHA-256 until `npm run leads -- rekey` moves it",
          '`cheat_sheet_send_quotas`',
          'no expiry: kept until erased, so the mailbox is not mailed again',
          `${erase} (its suppression entry, under both ids; the mailbox may then be mailed again)`,
        ],
        [
          "a submission's key (hashed), its body's hash (the form's: a keyed hash of the mailbox) and its reply (no address)",
          '`cheat_sheet_idempotency`',
          'a day (DynamoDB TTL)',
          `${erase} (found through the key on each request; a submission that stored no request is not found, and expires)`,
        ],
        [
          'keyed hashes of the client network (hourly limits)',
          '`cheat_sheet_send_quotas`',
          'hours (DynamoDB TTL)',
          'expire; no address in them',
        ],
        [
          "the funnel's unique visitors (`funnel-visitor#…`): HMAC-SHA-256 of the day, the client network and the user agent under a random salt of that day's (`funnel-salt#…`)",
          `\`${funnelVisitorsTableName}\``,
          funnelVisitorsRetention(views),
          'expire; once the salt is gone no hash can be matched to anyone',
        ],
        [
          "the funnel's day counts (`funnel#…`): visits and unique visitors, numbers only",
          '`cheat_sheet_send_quotas`',
          `${funnelRetentionDays} days (DynamoDB TTL)`,
          'nothing to erase: no one is in them',
        ],
        [
          'client IP address, user agent, path',
          "the API's access log group",
          logs,
          'expire with the log group; not per reader',
        ],
        [
          'client IP address, user agent, path',
          'the access-log bucket (`cloudfront/`, `s3/`)',
          accessLogRetention(views),
          'expire with the lifecycle rule; not per reader',
        ],
        [
          "recipient's domain (never the address), errors with addresses masked",
          "the functions' log groups",
          logs,
          'expire with the log group',
        ],
        [
          'an address that bounced or complained',
          "the SES account's suppression list (outside the stack)",
          'until removed',
          `${erase}, removed with DeleteSuppressedDestination`,
        ],
        ...mailProviderRows(views, erase),
        ...dataPathRows(views),
        [
          "each week's new requests (names, addresses, times, status) as a CSV, with `authorEmail`",
          "the weekly digest in the author's mailbox (outside AWS)",
          'until the author deletes it',
          'by hand: the tool cannot reach a mailbox',
        ],
      ],
    ),
  ].join('\n');
}

export interface AuditStamp {
  readonly commit: string;
  readonly date: string;
  readonly awsCdkLib: string;
  readonly node: string;
  readonly stage: string;
}

/** What this report describes: the checkout, the time, the tools and the stage it was synthesized from. */
export function auditStamp(stage: string | undefined, now = new Date()): AuditStamp {
  const git = (args: string[]) =>
    execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  let commit: string;
  try {
    commit = git(['rev-parse', 'HEAD']) + (git(['status', '--porcelain']) === '' ? '' : ' (with uncommitted changes)');
  } catch {
    commit = 'unknown (not a git checkout)';
  }
  const cdkPackage = JSON.parse(
    readFileSync(path.join(process.cwd(), 'node_modules/aws-cdk-lib/package.json'), 'utf8'),
  ) as {
    version: string;
  };
  return {
    commit,
    date: now.toISOString(),
    awsCdkLib: cdkPackage.version,
    node: process.version,
    stage: stage ?? 'none (-c stage not given: the stage-less stack)',
  };
}

export function stampSection(stamp: AuditStamp): string {
  return table(
    ['commit', 'date', 'aws-cdk-lib', 'Node.js', 'stage'],
    [[stamp.commit, stamp.date, stamp.awsCdkLib, stamp.node, stamp.stage]],
  );
}
