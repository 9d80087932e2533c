/**
 * The integration test's app (test/integ/integ.product.ts), synthesized offline: no account, no
 * credentials. What it would deploy and assert in a real account is checked here; the real run is
 * `npm run integ`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface TemplateResource {
  readonly Type: string;
  readonly DeletionPolicy?: string;
  readonly Properties?: Record<string, unknown>;
}
type Template = { readonly Resources: Record<string, TemplateResource> };

let outdir: string;
let product: Template;
let assertions: Template;

beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'integ-product-'));
  const env = {
    ...process.env,
    CDK_OUTDIR: outdir,
    INTEG_SENDER_EMAIL: '',
    // aws-cdk-lib's own template validator is off, as in the other synth tests (test/infra/support/synth.ts).
    CDK_VALIDATION: 'false',
    // No esbuild: the tests read the templates, not the bundles (the CLI's way of passing context).
    CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [] }),
  };
  execFileSync(path.join(process.cwd(), 'node_modules/.bin/tsx'), ['test/integ/integ.product.ts'], {
    env,
    stdio: 'pipe',
  });
  const manifest = JSON.parse(readFileSync(path.join(outdir, 'integ.json'), 'utf8')) as {
    testCases: Record<string, { stacks: string[]; assertionStack: string; assertionStackName: string }>;
  };
  const [testCase] = Object.values(manifest.testCases);
  const read = (name: string) =>
    JSON.parse(readFileSync(path.join(outdir, `${name}.template.json`), 'utf8')) as Template;
  product = read(testCase.stacks[0]);
  assertions = read(testCase.assertionStackName);
}, 300_000);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const ofType = (template: Template, type: string) =>
  Object.values(template.Resources).filter((resource) => resource.Type === type);
/** The URLs the HTTP assertions call, as CloudFormation would join them (outputs named, not resolved). */
const httpCalls = () =>
  ofType(assertions, 'Custom::DeployAssert@HttpCall').map((resource) => {
    const { url, fetchOptions } = resource.Properties!.parameters as {
      url: unknown;
      fetchOptions?: { method?: string; body?: string };
    };
    return {
      url: JSON.stringify(url),
      method: fetchOptions?.method ?? 'GET',
      body: String(fetchOptions?.body ?? ''),
      expected: String(resource.Properties!.expected),
    };
  });

test('the throwaway stack is the whole product: tables, functions, distribution', () => {
  expect(ofType(product, 'AWS::DynamoDB::Table').map((table) => table.Properties?.TableName)).toEqual([
    'cheat_sheet_requests',
    'cheat_sheet_send_quotas',
    'cheat_sheet_idempotency',
    'cheat_sheet_funnel_visitors',
  ]);
  expect(ofType(product, 'AWS::Lambda::Function').length).toBeGreaterThanOrEqual(3);
  expect(ofType(product, 'AWS::CloudFront::Distribution')).toHaveLength(1);
});

test('its tables are deleted with it, deletion protection off', () => {
  for (const table of ofType(product, 'AWS::DynamoDB::Table')) {
    expect(table.DeletionPolicy).toBe('Delete');
    expect(table.Properties?.DeletionProtectionEnabled).toBe(false);
  }
});

test('everything but the buckets is deleted with it', () => {
  const kept = Object.values(product.Resources).filter(
    (resource) => resource.DeletionPolicy !== undefined && resource.DeletionPolicy !== 'Delete',
  );
  expect([...new Set(kept.map((resource) => resource.Type))]).toEqual(['AWS::S3::Bucket']);
});

test('a save through the site must answer 201', () => {
  const save = httpCalls().find(
    (call) => call.url.includes('/api/cheat-sheet-requests') && call.url.includes('SiteDistribution'),
  );
  expect(save).toMatchObject({ method: 'POST', expected: expect.stringContaining('"status":201') });
});

test('a send to the mailbox simulator through the site must answer 200 with success', () => {
  const send = httpCalls().find((call) => call.url.includes('/api/send-cheat-sheet'));
  expect(send).toMatchObject({ method: 'POST', expected: expect.stringContaining('"success":true') });
  expect(send?.expected).toContain('"status":200');
});

/** The DynamoDB queries the assertions make, each with its parameters and what it expects. */
const dynamoDbQueries = () =>
  ofType(assertions, 'Custom::DeployAssert@SdkCallDynamoDBquery').map((resource) => ({
    recipient: JSON.stringify(resource.Properties!.parameters),
    expected: String(resource.Properties!.expected).replaceAll('\\', ''),
  }));

test("the recipient's request must be stored unsent, then flagged sent", () => {
  const queries = dynamoDbQueries().filter((query) => query.recipient.includes('success@simulator.amazonses.com'));
  expect(queries.map((query) => /"BOOL":(true|false)/.exec(query.expected)?.[1])).toEqual(['false', 'true']);
});

test("a send to the bounce simulator must be waited for until its record says 'bounced'", () => {
  const bounced = dynamoDbQueries().filter((query) => query.recipient.includes('bounce@simulator.amazonses.com'));
  expect(bounced).toHaveLength(1);
  expect(bounced[0]!.expected).toContain('"delivery_status":{"S":"bounced"}');
  const bouncingSend = httpCalls().filter(
    (call) => call.url.includes('/api/send-cheat-sheet') && call.body.includes('bounce@simulator.amazonses.com'),
  );
  expect(bouncingSend).toHaveLength(1);
  // waitForAssertions polls through a Step Functions state machine until the expectation holds.
  expect(ofType(assertions, 'AWS::StepFunctions::StateMachine').length).toBeGreaterThan(0);
});

test('an unknown path must be the not-found page, status 404', () => {
  const unknown = httpCalls().find((call) => call.url.includes('integration-test-no-such-page'));
  expect(JSON.parse(unknown!.expected)).toEqual({
    $ObjectLike: { status: 404, body: { $StringLike: 'Oops! Page not found' } },
  });
});

test("a direct call to the API's execute-api address must be refused with 403", () => {
  const direct = httpCalls().find((call) => call.url.includes('HttpApi') && !call.url.includes('SiteDistribution'));
  expect(direct).toMatchObject({ method: 'POST', expected: expect.stringContaining('"status":403') });
});
