/**
 * The audit report's access sections, computed from the synthesized statements, never written:
 * who can read each store of the leads (its key's statements and the roles' own grants), who can
 * decrypt with each key (a statement without `kms:ViaService` decrypts everything under the key,
 * by any path), who can send mail (every role with an SES send grant, to whom, and who may assume
 * it), and which workflow, branch and environment may assume each role trusting GitHub.
 */
import { githubTokenIssuer } from '../constructs/github-workflow-trust';
import { roleGrants, type RoleProperties } from './audit-iam-section';
import {
  asList,
  propertiesOf,
  renderCondition,
  renderPrincipal,
  resourcesOfType,
  type Json,
  type PolicyDocument,
  type StackView,
  type Statement,
} from './cloudformation-template';
import { table } from './markdown-table';

/** An action list grants kms:Decrypt when it names it or a wildcard covering it (`kms:Decrypt*`, `kms:*`, `*`). */
const grantsDecrypt = (actions: readonly Json[]) =>
  actions.some((action) => typeof action === 'string' && /^(\*|kms:\*|kms:Decrypt\*?)$/.test(action));

const isServicePrincipal = (principal: Json | undefined) =>
  typeof principal === 'object' && principal !== null && !Array.isArray(principal) && 'Service' in principal;

const isAccountRoot = (principal: Json | undefined) => /:root\b/.test(renderPrincipal(principal));

/** The services a statement's `kms:ViaService` names, under any operator; none: any path. */
function viaServices(statement: Statement): string[] {
  return Object.values(statement.Condition ?? {}).flatMap((keys) =>
    Object.entries(keys)
      .filter(([key]) => key.toLowerCase() === 'kms:viaservice')
      .flatMap(([, value]) => asList(value).map(String)),
  );
}

/** One decrypting statement in words: who, and through what. */
function decrypter(statement: Statement): string {
  const who = isAccountRoot(statement.Principal)
    ? `the account (${renderPrincipal(statement.Principal)}): every principal of it whose own policy allows kms:Decrypt`
    : renderPrincipal(statement.Principal);
  const via = viaServices(statement);
  // A service principal decrypts for its own resources of this stack (its source conditions), never by any path for a person.
  return via.length === 0 && !isServicePrincipal(statement.Principal)
    ? `${who}, through any path (no kms:ViaService: it decrypts everything under the key)`
    : `${who} (${renderCondition(statement.Condition)})`;
}

function keyStatements(view: StackView, keyId: string): Statement[] {
  const key = view.resources[keyId];
  return key ? asList(propertiesOf<{ KeyPolicy: PolicyDocument }>(key).KeyPolicy?.Statement) : [];
}

/** What the account's own statement of a key allows, computed: decrypt or not. */
function accountLine(statements: readonly Statement[]): string {
  const account = statements.filter((s) => s.Effect === 'Allow' && isAccountRoot(s.Principal));
  if (account.length === 0) return 'the account has no statement of its own';
  return account.some((s) => grantsDecrypt(asList(s.Action)))
    ? 'the account can decrypt with it (its statement grants kms:Decrypt): any of its principals whose own policy allows it'
    : 'the account administers the key (its statement grants no kms:Decrypt), and cannot decrypt with it';
}

/** The roles of the stack whose own policies allow a read of the store, with the actions. */
function rolesReading(view: StackView, storeId: string, readActions: RegExp): string[] {
  return resourcesOfType(view, 'AWS::IAM::Role').flatMap(([roleId, role]) => {
    const actions = roleGrants(view, roleId, propertiesOf<RoleProperties>(role)).filter(
      (grant) =>
        grant.effect === 'Allow' &&
        readActions.test(grant.action) &&
        grant.resources.some((resource) => resource.includes(`<${storeId}.Arn>`) || resource === '*'),
    );
    return actions.length === 0 ? [] : [`\`${roleId}\` (${[...new Set(actions.map((g) => g.action))].join(', ')})`];
  });
}

/**
 * Who may read a store: its key's decrypting statements through the store's service or through any
 * path, the account's own statement as it is, and the roles whose policies allow a read of it.
 */
function readersOfStore(
  view: StackView,
  store: { readonly name: string; readonly id: string; readonly key: Json | undefined },
  service: 'dynamodb' | 'sqs',
  awsManaged: string,
): string[] {
  const keyRef = JSON.stringify(store.key ?? null).match(/"Fn::GetAtt":\["([^"]+)"/)?.[1];
  const readActions =
    service === 'dynamodb'
      ? /^dynamodb:(\*|Scan|Query|GetItem|BatchGetItem|PartiQLSelect)$/
      : /^sqs:(\*|ReceiveMessage)$/;
  const roles = rolesReading(view, store.id, readActions);
  const rolesLine = `roles of the stack whose own policies allow reading it: ${roles.join(', ') || 'none'}`;
  if (keyRef === undefined || !view.resources[keyRef]) return [store.name, `${awsManaged}. ${rolesLine}`];
  const statements = keyStatements(view, keyRef);
  const decrypting = statements.filter(
    (s) => s.Effect === 'Allow' && grantsDecrypt(asList(s.Action)) && !isAccountRoot(s.Principal),
  );
  const services = decrypting.filter((s) => isServicePrincipal(s.Principal));
  const readers = decrypting.filter(
    (s) =>
      !services.includes(s) &&
      (viaServices(s).length === 0 || viaServices(s).some((via) => via.startsWith(`${service}.`))),
  );
  const elsewhere = decrypting.filter((s) => !readers.includes(s) && !services.includes(s));
  return [
    store.name,
    [
      `its key \`${keyRef}\` lets decrypt it: ${readers.map(decrypter).join('; ') || 'no one'}`,
      ...(elsewhere.length > 0
        ? [`Only through another service, so not this store: ${elsewhere.map(decrypter).join('; ')}`]
        : []),
      ...(services.length > 0
        ? [
            `AWS services for this stack's own resources only, which no person or role can act as: ${services.map(decrypter).join('; ')}`,
          ]
        : []),
      accountLine(statements),
      rolesLine,
    ].join('. '),
  ];
}

/** Who may read each table, and each queue under a customer key (the failed events). */
export function readersSection(views: readonly StackView[]): string {
  const rows = views.flatMap((view) => [
    ...resourcesOfType(view, 'AWS::DynamoDB::Table').map(([id, tableResource]) => {
      const { TableName, SSESpecification } = propertiesOf<{
        TableName: string;
        SSESpecification: { KMSMasterKeyId?: Json };
      }>(tableResource);
      return readersOfStore(
        view,
        { name: `\`${TableName}\``, id, key: SSESpecification?.KMSMasterKeyId },
        'dynamodb',
        'the AWS managed key aws/dynamodb: every principal of the account that may call DynamoDB',
      );
    }),
    ...resourcesOfType(view, 'AWS::SQS::Queue')
      .filter(([, queue]) => propertiesOf<{ KmsMasterKeyId?: Json }>(queue).KmsMasterKeyId !== undefined)
      .map(([id, queue]) =>
        readersOfStore(
          view,
          { name: `the queue \`${id}\``, id, key: propertiesOf<{ KmsMasterKeyId?: Json }>(queue).KmsMasterKeyId },
          'sqs',
          'an AWS managed key: every principal of the account that may receive from it',
        ),
      ),
  ]);
  return ['## Who can read the leads', '', table(['store', 'who can read it'], rows)].join('\n');
}

/** Every customer managed key: each statement that lets a principal decrypt, and through what. */
export function decryptersSection(views: readonly StackView[]): string {
  const rows = views.flatMap((view) =>
    resourcesOfType(view, 'AWS::KMS::Key').flatMap(([keyId]) => {
      const statements = keyStatements(view, keyId);
      return [
        ...statements
          .filter((s) => s.Effect === 'Allow' && grantsDecrypt(asList(s.Action)))
          .map((s) => [`\`${view.name}\` \`${keyId}\``, s.Sid ?? '–', decrypter(s)]),
        [`\`${view.name}\` \`${keyId}\``, 'the account', accountLine(statements)],
      ];
    }),
  );
  return ['## Who can decrypt', '', table(['key', 'statement', 'who may decrypt, through what'], rows)].join('\n');
}

const sendsMail = (action: string) => /^(\*|ses:\*|ses:Send(Raw|Templated|Bulk)?Email\*?|ses:Send\*)$/.test(action);

/** Every role allowed to send mail through SES: what, to whom, and who else may assume it. */
export function sendersSection(views: readonly StackView[]): string {
  const rows = views.flatMap((view) =>
    resourcesOfType(view, 'AWS::IAM::Role').flatMap(([roleId, role]) => {
      const properties = propertiesOf<RoleProperties>(role);
      const grants = roleGrants(view, roleId, properties).filter((g) => g.effect === 'Allow' && sendsMail(g.action));
      if (grants.length === 0) return [];
      const assumers = asList(properties.AssumeRolePolicyDocument?.Statement)
        .filter((s) => s.Effect === 'Allow')
        .map((s) => renderPrincipal(s.Principal));
      return grants.map((grant) => [
        `\`${view.name}\` \`${roleId}\``,
        `${grant.action} on ${grant.resources.join(', ')}`,
        /ses:Recipients/.test(grant.condition)
          ? grant.condition
          : `anyone: no ses:Recipients condition${grant.condition === '–' ? '' : ` (${grant.condition})`}`,
        assumers.join('; '),
      ]);
    }),
  );
  return ['## Who can send', '', table(['role', 'may send', 'to whom', 'who may assume the role'], rows)].join('\n');
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
