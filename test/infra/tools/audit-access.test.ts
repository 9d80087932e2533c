/**
 * The audit report's access sections, computed from a synthesized stage's statements: who can read
 * each store, who can decrypt with each key, who can send, which workflow assumes which role. Each
 * changed policy (on a copy of the synthesized templates) changes what the report says.
 */
import { readFileSync, rmSync } from 'node:fs';
import { parseDeploymentConfig } from '../../../infra/config';
import { createAppStacks } from '../../../infra/stacks';
import {
  decryptersSection,
  deployRoleSection,
  readersSection,
  sendersSection,
} from '../../../infra/tools/audit-access';
import { roleGrants, type RoleProperties } from '../../../infra/tools/audit-iam-section';
import { propertiesOf, resourcesOfType, stackView, type StackView } from '../../../infra/tools/cloudformation-template';
import { fixtures, testApp } from '../support/synth';

const readerRoleArn = 'arn:aws:iam::111111111111:role/leads-reader';
const repository = 'some-org/first-100-days-site';
let views: StackView[];
let outdir: string;

beforeAll(() => {
  const app = testApp({
    context: {
      'aws:cdk:bundling-stacks': [],
      stage: 'staging',
      githubRepository: repository,
      leadsReaderRoleArn: readerRoleArn,
      authorEmail: 'author@example.com',
    },
  });
  const config = parseDeploymentConfig((key) => app.node.tryGetContext(key));
  createAppStacks(app, { config, deploymentTarget: {}, buildOutput: fixtures });
  const assembly = app.synth();
  outdir = assembly.directory;
  views = assembly.stacks.map(stackView);
});

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

/** The views after `change` edited a copy of the stage's resources. */
function changed(change: (resources: Resources) => void): StackView[] {
  return views.map((view) => {
    if (view.name !== 'First100DaysSite-staging') return view;
    const resources = structuredClone(view.resources) as Resources;
    change(resources);
    return { ...view, resources };
  });
}

const leadsKeyStatements = (resources: Resources) =>
  Object.entries(resources).find(([id, r]) => r.Type === 'AWS::KMS::Key' && id.startsWith('LeadsKey'))![1].Properties
    .KeyPolicy.Statement as { Sid?: string; Action: string[]; Condition?: Record<string, Record<string, unknown>> }[];

const row = (section: string, start: string) => section.split('\n').find((line) => line.startsWith(start))!;

test("says who can read each table: the leads reader and the functions through DynamoDB, the roles' own grants, and not the account", () => {
  const requests = row(readersSection(views), '| `cheat_sheet_requests`');
  expect(requests).toContain(readerRoleArn);
  expect(requests).toContain('kms:ViaService StringEquals dynamodb.');
  expect(requests).toContain(
    'the account administers the key (its statement grants no kms:Decrypt), and cannot decrypt with it',
  );
  expect(requests).toMatch(
    /roles of the stack whose own policies allow reading it: .*`EventFunctionsLeadDigestLeadDigestRole\w+` \(dynamodb:Scan\)/,
  );
  expect(requests).toMatch(/`LeadsAccessReaderRole\w+` \(dynamodb:Scan\)/);
  expect(row(readersSection(views), '| the queue `FailedEventsQueue')).toContain('sqs.');
});

test("with kms:Decrypt added to the account's key statement, the report says the account can decrypt", () => {
  const widened = changed((resources) => {
    leadsKeyStatements(resources)
      .find((s) => s.Sid === 'AccountAdministersTheKeyButCannotUseIt')!
      .Action.push('kms:Decrypt');
  });
  const requests = row(readersSection(widened), '| `cheat_sheet_requests`');
  expect(requests).toContain('the account can decrypt with it (its statement grants kms:Decrypt)');
  expect(requests).not.toContain('cannot decrypt with it');
  expect(decryptersSection(widened)).toMatch(
    /AccountAdministersTheKeyButCannotUseIt \| the account \(AWS: arn:\S+:iam::\d+:root\): every principal of it whose own policy allows kms:Decrypt, through any path/,
  );
  expect(decryptersSection(views)).not.toContain('AccountAdministersTheKeyButCannotUseIt');
});

test("a reader's key statement without kms:ViaService shows as decrypting everything, through any path", () => {
  const widened = changed((resources) => {
    delete leadsKeyStatements(resources).find((s) => s.Sid === 'LeadsReader')!.Condition;
  });
  const expected = `${readerRoleArn}, through any path (no kms:ViaService: it decrypts everything under the key)`;
  expect(row(readersSection(widened), '| `cheat_sheet_requests`')).toContain(expected);
  expect(row(readersSection(widened), '| the queue `FailedEventsQueue')).toContain(expected);
  expect(readersSection(views)).not.toContain('through any path');
});

test('says who can send: the send and form functions, the digest and the reader (to the author only), and who may assume the send role', () => {
  const section = sendersSection(views);
  expect(section).toMatch(
    /ApiSendCheatSheetSendCheatSheetRole\w+` \| ses:SendEmail on .* \| anyone: no ses:Recipients condition \| AWS: <LeadsAccessBreakGlassRole\w+\.Arn>, <LeadsAccessOperatorRole\w+\.Arn>; Service: lambda\.amazonaws\.com \|/,
  );
  expect(section).toMatch(/ApiSubmitFormSubmitFormRole\w+` \| ses:SendEmail/);
  expect(section).toMatch(
    /LeadsAccessReaderRole\w+` \| ses:SendEmail on .* \| ses:Recipients ForAllValues:StringEquals author@example\.com \|/,
  );
  expect(section).not.toMatch(/ApiSaveRequest/);
});

test('a send grant given to another role appears in who can send', () => {
  const widened = changed((resources) => {
    const [, policy] = Object.entries(resources).find(
      ([id, r]) => r.Type === 'AWS::IAM::Policy' && id.startsWith('ApiSaveRequestSaveRequestRole'),
    )!;
    policy.Properties.PolicyDocument.Statement.push({ Effect: 'Allow', Action: 'ses:SendEmail', Resource: '*' });
  });
  expect(sendersSection(widened)).toMatch(
    /ApiSaveRequestSaveRequestRole\w+` \| ses:SendEmail on \* \| anyone: no ses:Recipients condition \| Service: lambda\.amazonaws\.com \|/,
  );
});

test("prints each GitHub role's trust: the provider, the repository's environment and the audience", () => {
  const section = deployRoleSection(views);
  expect(section).toContain('token.actions.githubusercontent.com:sub');
  expect(section).toContain('repo:some-org/first-100-days-site:environment:staging');
  expect(section).toContain('sts.amazonaws.com');
  expect(section).toContain('refs/heads/main');
});

test("says, from each trust's conditions, which workflow and branch may assume each role", () => {
  const section = deployRoleSection(views);
  const assumedBy = (role: string, workflow: string, branch: string) =>
    new RegExp(
      `${role}\\S*\` \\| ${workflow.replace('.', '\\.')}'s jobs of ${repository} on ${branch} in environment staging \\|`,
    );
  expect(section).toMatch(assumedBy('DeployRole', 'deploy.yml', 'branch main only'));
  expect(section).toMatch(assumedBy('DiffRole', 'ci.yml', 'pull requests only'));
  expect(section).toMatch(assumedBy('LeadsAccessReaderRole', 'leads.yml', 'branch main only'));
  expect(section).toMatch(assumedBy('LeadsAccessOperatorRole', 'leads.yml', 'branch main only'));
});

test('a trust without its ref and workflow shows as open to any workflow, branch or pull request', () => {
  const widened = views.map((view) => ({
    ...view,
    resources: JSON.parse(
      JSON.stringify(view.resources).replace(
        /,"token\.actions\.githubusercontent\.com:(ref|job_workflow_ref)":"[^"]*"/g,
        '',
      ),
    ),
  }));
  expect(deployRoleSection(widened)).toMatch(
    /DeployRole\S*` \| any workflow of some-org\/first-100-days-site on any branch or pull request in environment staging \|/,
  );
});

test("docs/audit.md's list of roles is the stage's: a line for each role, and each line exactly its role's actions", () => {
  const page = readFileSync('docs/audit.md', 'utf8');
  const start = page.indexOf('- **The roles and their grants**');
  const list = page.slice(start, page.indexOf('\n- **', start + 1));
  const lines = list.split(/\n {2}- /).slice(1);
  const stage = views.find((view) => view.name === 'First100DaysSite-staging')!;
  const roles = resourcesOfType(stage, 'AWS::IAM::Role');
  const documented = lines.flatMap((line) => [...line.matchAll(/\(`(\w+Role)`/g)].map(([, prefix]) => prefix));
  // Every role of the stack is on the page, by its logical id without CDK's hash.
  expect(roles.map(([id]) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual([...documented].sort());
  for (const line of lines) {
    const prefixes = [...line.matchAll(/\(`(\w+Role)`/g)].map(([, prefix]) => prefix);
    const listed = new Set([...line.matchAll(/`([a-z0-9]+:[A-Za-z*]+)`/g)].map(([, action]) => action));
    if (listed.size === 0) continue; // CDK's handlers: described below the list
    for (const prefix of prefixes) {
      const [roleId, role] = roles.find(([id]) => id.startsWith(prefix))!;
      const actions = new Set(
        roleGrants(stage, roleId, propertiesOf<RoleProperties>(role))
          .filter((grant) => grant.effect === 'Allow' && !/^(logs|xray):/.test(grant.action))
          .map((grant) => grant.action),
      );
      expect({ role: prefix, actions: [...listed].sort() }).toEqual({ role: prefix, actions: [...actions].sort() });
    }
  }
});
