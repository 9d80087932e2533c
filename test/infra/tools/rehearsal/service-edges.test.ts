/**
 * Every service-to-service edge of a stage outside us-east-1 with every optional context value,
 * judged against the templates' own policies: CloudWatch alarms to their topics and keys (the edge
 * stack's too), EventBridge to functions, API Gateway to functions, CloudFront to its bucket (SSE-S3,
 * so no key), Lambda to the functions' roles, CloudWatch Logs to the key of each log group. A policy
 * narrowed to another name is found.
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
