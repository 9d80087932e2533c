/**
 * The audit report's data-protection case, read from the templates: the personal data the
 * product holds (field, store, retention, how it is erased), who can read each store holding it
 * (the leads' key policy, for the tables), the deploy role's trust conditions, and the stamp of
 * what the report describes (commit, date, tool versions, stage).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  asList,
  propertiesOf,
  renderCondition,
  renderPrincipal,
  resourcesOfType,
  type Json,
  type PolicyDocument,
  type StackView,
  type TemplateResource,
} from './cloudformation-template';
import { table } from './markdown-table';
import { githubTokenIssuer } from '../constructs/github-workflow-trust';

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

/** An action list grants kms:Decrypt when it names it or a wildcard covering it (`kms:Decrypt*`, `kms:*`). */
const grantsDecrypt = (actions: readonly Json[]) =>
  actions.some((action) => typeof action === 'string' && /^kms:(\*|Decrypt\*?)$/.test(action));

interface KeyStatement {
  readonly Effect: string;
  readonly Principal?: Json;
  readonly Action: Json;
  readonly Condition?: Parameters<typeof renderCondition>[0];
}

/**
 * Who may decrypt what a store holds, from its key's Allow statements that grant kms:Decrypt:
 * those conditioned on the store's own service (`kms:ViaService` on `dynamodb.` for a table,
 * `sqs.` for a queue) read it; the others cannot, and the cell says why (another service's
 * condition, or an AWS service acting for this stack's own resources, which no person can act as).
 */
function readersOfStore(
  view: StackView,
  store: string,
  keyValue: Json | undefined,
  service: 'dynamodb' | 'sqs',
  awsManaged: string,
): string[] {
  const keyRef = JSON.stringify(keyValue ?? null).match(/"Fn::GetAtt":\["([^"]+)"/)?.[1];
  const key = keyRef === undefined ? undefined : view.resources[keyRef];
  if (!key) return [store, awsManaged];
  const statements = asList(propertiesOf<{ KeyPolicy: PolicyDocument }>(key).KeyPolicy?.Statement) as KeyStatement[];
  const decrypting = statements.filter((s) => s.Effect === 'Allow' && grantsDecrypt(asList(s.Action)));
  const through = (s: KeyStatement) => JSON.stringify(s.Condition?.StringEquals?.['kms:ViaService'] ?? null);
  const readers = decrypting.filter((s) => through(s).includes(`${service}.`));
  const services = decrypting.filter((s) => isServicePrincipal(s.Principal));
  const elsewhere = decrypting.filter((s) => !readers.includes(s) && !services.includes(s));
  const line = (s: KeyStatement) => `${renderPrincipal(s.Principal)} (${renderCondition(s.Condition)})`;
  return [
    store,
    [
      `its key \`${keyRef}\` lets decrypt it: ${readers.map(line).join('; ')}`,
      ...(elsewhere.length > 0
        ? [
            `Not through ${service === 'dynamodb' ? 'DynamoDB' : 'SQS'}, so not this store: ${elsewhere.map(line).join('; ')}`,
          ]
        : []),
      ...(services.length > 0
        ? [
            `AWS services for this stack's own resources only, which no person or role can act as, and none reads a lead: ${services.map(line).join('; ')}`,
          ]
        : []),
      'the account administers the key, and cannot decrypt with it',
    ].join('. '),
  ];
}

const isServicePrincipal = (principal: Json | undefined) =>
  typeof principal === 'object' && principal !== null && !Array.isArray(principal) && 'Service' in principal;

/** Who may decrypt each table, and each queue under a customer key (the failed events): its key's policy. */
export function readersSection(views: readonly StackView[]): string {
  const rows = views.flatMap((view) => [
    ...resourcesOfType(view, 'AWS::DynamoDB::Table').map(([, tableResource]) => {
      const { TableName, SSESpecification } = propertiesOf<{
        TableName: string;
        SSESpecification: { KMSMasterKeyId?: Json };
      }>(tableResource);
      return readersOfStore(
        view,
        `\`${TableName}\``,
        SSESpecification?.KMSMasterKeyId,
        'dynamodb',
        'the AWS managed key aws/dynamodb: every principal of the account that may call DynamoDB',
      );
    }),
    ...resourcesOfType(view, 'AWS::SQS::Queue')
      .filter(([, queue]) => propertiesOf<{ KmsMasterKeyId?: Json }>(queue).KmsMasterKeyId !== undefined)
      .map(([id, queue]) =>
        readersOfStore(
          view,
          `the queue \`${id}\``,
          propertiesOf<{ KmsMasterKeyId?: Json }>(queue).KmsMasterKeyId,
          'sqs',
          'an AWS managed key: every principal of the account that may receive from it',
        ),
      ),
  ]);
  return ['## Who can read the leads', '', table(['store', 'who can read it'], rows)].join('\n');
}

/** The values a trust's condition requires of one of GitHub's claims, under any operator. */
function claimValues(condition: Json | undefined, claim: string): string[] {
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return [];
  return Object.values(condition).flatMap((entries) => {
    if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) return [];
    const value = (entries as Record<string, Json>)[`${githubTokenIssuer}:${claim}`];
    return value === undefined ? [] : asList(value).map(String);
  });
}

/**
 * Which runs may assume a role, read from its trust's conditions (never from its name): the workflow
 * file (`job_workflow_ref`), the ref, the repository and the environment, each "any" when the trust
 * leaves it open. A `sub` pattern (`repo:*`) counts as open.
 */
export function assumedByOfTrust(condition: Json | undefined): string {
  const exact = (values: string[]) => values.find((value) => !value.includes('*'));
  const workflows = claimValues(condition, 'job_workflow_ref').map(
    (value) => /\.github\/workflows\/([^@]+)@/.exec(value)?.[1] ?? value,
  );
  const refs = claimValues(condition, 'ref');
  const subject = exact(claimValues(condition, 'sub'));
  const repository = exact(claimValues(condition, 'repository')) ?? /^repo:([^:]+):/.exec(subject ?? '')?.[1];
  const environment = exact(claimValues(condition, 'environment')) ?? /:environment:(.+)$/.exec(subject ?? '')?.[1];
  const ref = refs[0];
  const branch =
    ref === undefined
      ? 'any branch or pull request'
      : ref.startsWith('refs/heads/') && !ref.includes('*')
        ? `branch ${ref.slice('refs/heads/'.length)} only`
        : /^refs\/pull\//.test(ref)
          ? 'pull requests only'
          : `refs matching ${ref}`;
  return [
    workflows.length > 0 ? `${workflows.join(', ')}'s jobs` : 'any workflow',
    `of ${repository ?? 'any repository'}`,
    `on ${branch}`,
    `in environment ${environment ?? 'any'}`,
  ].join(' ');
}

/** The trust policy of every role a web identity (GitHub's OIDC provider) may assume. */
export function deployRoleSection(views: readonly StackView[]): string {
  const rows = views.flatMap((view) =>
    resourcesOfType(view, 'AWS::IAM::Role').flatMap(([id, role]) =>
      asList(propertiesOf<{ AssumeRolePolicyDocument: PolicyDocument }>(role).AssumeRolePolicyDocument?.Statement)
        .filter((s) => asList(s.Action).includes('sts:AssumeRoleWithWebIdentity'))
        .map((s) => [
          `\`${view.name}\` \`${id}\``,
          assumedByOfTrust(s.Condition),
          renderPrincipal(s.Principal),
          renderCondition(s.Condition),
        ]),
    ),
  );
  return [
    '## Which workflow assumes which role',
    '',
    rows.length === 0
      ? 'No role trusts GitHub in this synth: the deploy role is in the `DeployAccess` stack, synthesized with `-c githubRepository=OWNER/NAME -c stage=NAME`; the leads roles come with `githubRepository` too.'
      : table(['role', 'assumed by (from its conditions)', 'trusted provider', 'conditions'], rows),
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
