/**
 * Every service-to-service edge of a stage outside us-east-1 with every optional context value,
 * judged against the templates' own policies: CloudWatch alarms to their topics and keys (the edge
 * stack's too), EventBridge to functions, API Gateway to functions, CloudFront to its bucket (SSE-S3,
 * so no key), Lambda to the functions' roles, CloudWatch Logs to the key of each log group. A policy
 * narrowed to another name is found. And the widenings the rehearsal refuses on the same synth
 * (rehearsal.ts), each made on a copy of the template: a topic's publish statement without its
 * source conditions, an outside reader's decrypt without kms:ViaService, a public function granted
 * dynamodb:Scan on the requests table.
 */
import { judge } from '../../../../infra/tools/rehearsal/judge';
import { rehearse } from '../../../../infra/tools/rehearsal/rehearsal';
import { serviceEdges, type Edge } from '../../../../infra/tools/rehearsal/service-edges';
import type { DeployedStack } from '../../../../infra/tools/rehearsal/deployed-stacks';
import { deployedStacks, resourcesOf, synthAssembly } from '../../support/deployed-app';

const everyOption = {
  stage: 'staging',
  authorEmail: 'author@example.com',
  leadsReaderRoleArn: 'arn:aws:iam::111111111111:role/LeadsReader',
  githubRepository: 'some-org/first-100-days-site',
  waf: 'true',
};

async function denied(stacks: DeployedStack[]): Promise<{ edge: Edge; missing: readonly string[] }[]> {
  const results: { edge: Edge; missing: readonly string[] }[] = [];
  for (const edge of serviceEdges(stacks)) {
    const judgement = await judge(edge.request, edge.policies);
    if (!judgement.allowed) results.push({ edge, missing: judgement.missing });
  }
  return results;
}

let assembly: string;
beforeAll(() => {
  assembly = synthAssembly(everyOption);
});

test('every edge of the staging stacks (eu-west-1, edge stack in us-east-1) is allowed by its resource policy', async () => {
  const stacks = deployedStacks(assembly);
  const edges = serviceEdges(stacks);
  const descriptions = edges.map((edge) => edge.description).join('\n');
  expect(descriptions).toMatch(
    /alarm First100DaysSite-staging-EdgeFastBurn → topic .* \(First100DaysSiteEdgeMonitoring-staging\)/,
  );
  expect(descriptions).toMatch(/rule .* → function/);
  expect(descriptions).toMatch(/API route POST \/api\/cheat-sheet-requests → function/);
  // The site bucket is SSE-S3: CloudFront reaches the bucket and no key; the alarms reach the leads' key of their topic.
  expect(descriptions).toMatch(/distribution .* → bucket /);
  expect(descriptions).not.toMatch(/distribution .* → key/);
  expect(descriptions).toMatch(/alarm \S+ → key LeadsKey\S+ of topic /);
  // Every log group under a key is an edge of CloudWatch Logs, judged in the group's encryption context.
  const logGroups = stacks.flatMap((stack) =>
    [...stack.resources.values()].filter(
      (resource) => resource.type === 'AWS::Logs::LogGroup' && (resource.properties as { KmsKeyId?: unknown }).KmsKeyId,
    ),
  );
  expect(logGroups.length).toBeGreaterThan(5);
  for (const group of logGroups) {
    expect(descriptions).toContain(`CloudWatch Logs → key LeadsKey`);
    expect(descriptions).toContain(`of log group ${group.logicalId} (kms:GenerateDataKey)`);
  }
  expect((await denied(stacks)).map(({ edge, missing }) => `${edge.description}: ${missing.join('; ')}`)).toEqual([]);
});

test("the edge stack's alarm cannot reach its topic or the topic's key when their policies name another alarm prefix", async () => {
  const narrowed = deployedStacks(assembly, {
    stack: 'First100DaysSiteEdgeMonitoring-staging',
    change: (template) => {
      const text = JSON.stringify(template).replaceAll(
        ':alarm:First100DaysSite-staging-*',
        ':alarm:First100DaysSiteEdgeMonitoring-staging-*',
      );
      Object.assign(template, JSON.parse(text));
    },
  });
  const refused = (await denied(narrowed)).map(({ edge }) => edge.description);
  expect(refused).toEqual([
    expect.stringMatching(/EdgeFastBurn → topic/),
    expect.stringMatching(/EdgeFastBurn → key .*kms:GenerateDataKey/),
    expect.stringMatching(/EdgeFastBurn → key .*kms:Decrypt/),
  ]);
});

test("CloudWatch Logs cannot use the key for a log group outside the stack's own", async () => {
  const stacks = deployedStacks(assembly);
  const edge = serviceEdges(stacks).find((each) => each.description.startsWith('CloudWatch Logs → key'))!;
  const elsewhere = (edge.request.context!['kms:EncryptionContext:aws:logs:arn'] as string).replace(
    /log-group:.*/,
    'log-group:SomeoneElsesGroup',
  );
  const judgement = await judge(
    { ...edge.request, context: { ...edge.request.context, 'kms:EncryptionContext:aws:logs:arn': elsewhere } },
    edge.policies,
  );
  expect(judgement.allowed).toBe(false);
});

test('a function no rule may invoke is found: the schedule of the unsent check without its permission', async () => {
  const stacks = deployedStacks(assembly, {
    stack: 'First100DaysSite-staging',
    change: (template) => {
      for (const [logicalId] of resourcesOf(template, 'AWS::Lambda::Permission')) {
        if (logicalId.includes('UnsentCheckSchedule')) delete template.Resources[logicalId];
      }
    },
  });
  const refused = (await denied(stacks)).map(({ edge }) => edge.description);
  expect(refused).toEqual([
    expect.stringMatching(
      /^rule EventFunctionsUnsentCheckSchedule.* → function EventFunctionsUnsentCheckUnsentCheckFunction/,
    ),
  ]);
});

test("the rehearsal of staging with every optional value judges every edge and every role's trust, and refuses nothing", async () => {
  const report = await rehearse(deployedStacks(assembly), everyOption.githubRepository, 'staging');
  expect(report.refusals).toEqual([]);
  expect(report.edgesJudged).toBeGreaterThan(30);
  // Eleven runs against each of the deploy, diff, leads reader and leads operator roles; three
  // administrators (with MFA, without, another account's) against the break-glass role.
  expect(report.identityRunsJudged).toBe(4 * 11 + 3);
});

test("the alarm topic's publish statement without its conditions fails the rehearsal: another stack's alarm and another account's may publish", async () => {
  const stacks = deployedStacks(assembly, {
    stack: 'First100DaysSite-staging',
    change: (template) => {
      for (const [, policy] of resourcesOf(template, 'AWS::SNS::TopicPolicy')) {
        for (const statement of policy.Properties.PolicyDocument.Statement as {
          Principal?: { Service?: string };
          Condition?: unknown;
        }[])
          if (statement.Principal?.Service === 'cloudwatch.amazonaws.com') delete statement.Condition;
      }
    },
  });
  const { refusals } = await rehearse(stacks, everyOption.githubRepository, 'staging');
  expect(refusals.length).toBeGreaterThan(0);
  expect(refusals).toContainEqual(
    expect.stringMatching(
      /^alarm First100DaysSite-staging-\S+ → topic Monitoring\w*Topic\S* \(First100DaysSite-staging\), asked by arn:aws:cloudwatch:eu-west-1:111111111111:alarm:OtherStack-\S+ \(another stack's\): allowed by the resource policy's statement \d+ \(it must name its source\)$/,
    ),
  );
  expect(refusals).toContainEqual(
    expect.stringMatching(/, asked from account 999999999999: allowed by the resource policy's statement \d+/),
  );
});

test("an outside reader's decrypt without kms:ViaService fails the rehearsal, naming the key and its statement", async () => {
  const stacks = deployedStacks(assembly, {
    stack: 'First100DaysSite-staging',
    change: (template) => {
      for (const [, key] of resourcesOf(template, 'AWS::KMS::Key')) {
        for (const statement of key.Properties.KeyPolicy.Statement as {
          Sid?: string;
          Condition?: Record<string, Record<string, unknown>>;
        }[])
          if (statement.Sid === 'LeadsReader' && statement.Condition)
            delete statement.Condition.StringEquals['kms:ViaService'];
      }
    },
  });
  const { refusals } = await rehearse(stacks, everyOption.githubRepository, 'staging');
  expect(refusals).toEqual([
    expect.stringMatching(
      /^key LeadsKey\S+ \(First100DaysSite-staging\) statement \d+: arn:aws:iam::111111111111:role\/LeadsReader may kms:Decrypt with no kms:ViaService, so through any path$/,
    ),
  ]);
});

test('a public function granted dynamodb:Scan on the requests table fails the rehearsal, naming the function and its statement', async () => {
  const stacks = deployedStacks(assembly, {
    stack: 'First100DaysSite-staging',
    change: (template) => {
      const [tableId] = resourcesOf(template, 'AWS::DynamoDB::Table').find(
        ([, table]) => table.Properties.TableName === 'cheat_sheet_requests',
      )!;
      for (const [logicalId, policy] of resourcesOf(template, 'AWS::IAM::Policy'))
        if (logicalId.startsWith('ApiCheatSheetChallenge'))
          policy.Properties.PolicyDocument.Statement.push({
            Effect: 'Allow',
            Action: 'dynamodb:Scan',
            Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
          });
    },
  });
  const { refusals } = await rehearse(stacks, everyOption.githubRepository, 'staging');
  expect(refusals).toEqual([
    expect.stringMatching(
      /^cheatSheetChallenge \(public: GET \/api\/cheat-sheet-challenge\) may dynamodb:Scan on arn:aws:dynamodb:eu-west-1:111111111111:table\/cheat_sheet_requests \(ApiCheatSheetChallenge\S+ statement \d+\): no function a visitor reaches may read or delete the requests in bulk$/,
    ),
  ]);
});
