/**
 * The integration test for a real AWS account (`npm run integ`; integ-runner runs this file as a CDK
 * app). It deploys the whole product as a throwaway stack, asserts through the real API, then
 * destroys it:
 * - a save (through CloudFront) answers 201 and stores an unsent item;
 * - a send to SES's mailbox simulator answers 200 and flags that item sent;
 * - a send to the simulator's bounce address comes back through SES's events: within minutes the
 *   request's record says `bounced` (the configuration set, EventBridge, the SES events function);
 * - an unknown path is the not-found page, status 404;
 * - a direct call to the API's execute-api address, without CloudFront's origin secret, is refused (403).
 *
 * The tables keep their fixed names, so the account must not hold the product's tables: see
 * docs/testing.md. Without credentials, `npm test` only compares this app with its committed
 * snapshot (test/integ/product-snapshot.test.ts; `npm run integ:snapshot` rewrites it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ExpectedResult, IntegTest } from '@aws-cdk/integ-tests-alpha';
import { App, Aspects, AspectPriority, CfnResource, Duration, RemovalPolicy, type IAspect } from 'aws-cdk-lib';
import { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { parseDeploymentConfig } from '../../infra/config';
import { createProductStacks } from '../../infra/stacks';

// integ-runner runs the app from this folder; the stack reads the build and the handlers from the
// repository root, as `cdk` does. The assembly's folder is made absolute before the move.
const repoRoot = path.resolve(import.meta.dirname, '../..');
if (process.env.CDK_OUTDIR) process.env.CDK_OUTDIR = path.resolve(process.env.CDK_OUTDIR);
process.chdir(repoRoot);

/**
 * An address whose SES identity is verified in the test account (a GitHub environment variable in
 * the deploy workflow). The stack then uses that identity instead of creating one, as a send needs
 * a verified sender. Without it (the offline snapshot check) an example address.
 */
// Unset or empty (an unset GitHub variable is empty): the example address.
const verifiedSender = process.env.INTEG_SENDER_EMAIL || undefined;
/** SES's mailbox simulator: accepts the message, delivers nothing, and costs no reputation. */
const recipient = 'success@simulator.amazonses.com';
/** The simulator's address that answers with a permanent bounce (no reputation cost either). */
const bouncingRecipient = 'bounce@simulator.amazonses.com';

/**
 * Throwaway means nothing stays behind: tables, key and log groups are destroyed with the stack
 * (the product keeps them). The buckets are the exception: CloudFormation cannot delete a bucket
 * that still holds objects, so they stay, with generated names that never collide.
 */
class DestroyWithStack implements IAspect {
  public visit(node: IConstruct): void {
    if (!(node instanceof CfnResource) || node instanceof CfnBucket) return;
    node.applyRemovalPolicy(RemovalPolicy.DESTROY);
    if (node instanceof CfnTable) node.deletionProtectionEnabled = false;
  }
}

const cdkJson = JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};
/**
 * Synthesized for the committed snapshot (`INTEG_SNAPSHOT=1`, offline): the site and the PDF from
 * fixed fixtures, so neither their asset hashes nor the PDF's digest (`CHEAT_SHEET_VERSION`) follow
 * an edit of content/ (test/integ/content-free-assets.ts does the same for the functions' bundles).
 * Nor are the functions bundled: every asset hash is replaced by one of its name, so the templates
 * are the same without esbuild, which was most of the snapshot check's minute. A real run deploys
 * the real build, bundled.
 */
const forSnapshot = process.env.INTEG_SNAPSHOT === '1';
const app = new App({
  context: {
    ...cdkJson.context,
    senderEmail: verifiedSender ?? 'cheatsheet@example.com',
    // The web ACL (on by default) would put a us-east-1 stack beside this throwaway one; its
    // rules are the template tests' (test/infra/stack-with-waf.test.ts). Here: the API through CloudFront.
    waf: 'false',
    ...(verifiedSender ? { senderIdentityExists: 'true' } : {}),
  },
});
// Set on the app, not in its props: the CLI and integ-runner pass `aws:cdk:bundling-stacks` (every
// stack) in CDK_CONTEXT_JSON, which overrides the props' context.
if (forSnapshot) app.node.setContext('aws:cdk:bundling-stacks', []);
const config = parseDeploymentConfig((key) => app.node.tryGetContext(key));
const { site: stack } = createProductStacks(app, {
  stackName: 'First100DaysSiteInteg',
  config,
  deploymentTarget: {},
  ...(forSnapshot && {
    buildOutput: {
      siteDirectory: path.join(repoRoot, 'test/infra/fixtures/site-build'),
      cheatSheetDirectory: path.join(repoRoot, 'test/infra/fixtures/cheat-sheet'),
    },
  }),
  description: 'First 100 Days: the integration test (throwaway; destroyed after the test).',
});
Aspects.of(stack).add(new DestroyWithStack(), { priority: AspectPriority.MUTATING });

const integ = new IntegTest(app, 'ProductIntegTest', {
  testCases: [stack],
  // The tables' fixed names make a replacement impossible: each run creates and destroys the stack.
  stackUpdateWorkflow: false,
});

const jsonPost = (body: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});
const requestsOf = (email: string) =>
  integ.assertions.awsApiCall('DynamoDB', 'query', {
    TableName: stack.data.table.tableName,
    IndexName: stack.data.emailIndexName,
    KeyConditionExpression: 'email = :email',
    ExpressionAttributeValues: { ':email': { S: email } },
  });
const requestsOfRecipient = () => requestsOf(recipient);

const save = integ.assertions.httpApiCall(
  `${stack.site.url}/api/cheat-sheet-requests`,
  jsonPost({ name: 'Integration Test', email: recipient }),
);
save.expect(ExpectedResult.objectLike({ status: 201 }));

const storedUnsent = requestsOfRecipient();
storedUnsent.expect(
  ExpectedResult.objectLike({
    Count: 1,
    // objectLike is partial at every depth: the one item, whatever its other attributes.
    Items: [{ cheat_sheet_sent: { BOOL: false } }],
  }),
);

const send = integ.assertions.httpApiCall(
  `${stack.site.url}/api/send-cheat-sheet`,
  jsonPost({ name: 'Integration Test', email: recipient }),
);
send.expect(ExpectedResult.objectLike({ status: 200, body: { success: true } }));

const flaggedSent = requestsOfRecipient();
flaggedSent.expect(
  ExpectedResult.objectLike({
    Count: 1,
    Items: [{ cheat_sheet_sent: { BOOL: true } }],
  }),
);

save.next(storedUnsent).next(send).next(flaggedSent);

// A permanent bounce: SES accepts the send (200), then its bounce event reaches the record.
const bouncingSend = integ.assertions.httpApiCall(
  `${stack.site.url}/api/send-cheat-sheet`,
  jsonPost({ name: 'Integration Test', email: bouncingRecipient }),
);
bouncingSend.expect(ExpectedResult.objectLike({ status: 200, body: { success: true } }));
const recordedBounced = requestsOf(bouncingRecipient);
recordedBounced
  .expect(ExpectedResult.objectLike({ Count: 1, Items: [{ delivery_status: { S: 'bounced' } }] }))
  // The simulator bounces within seconds; SES's event and EventBridge add a few more.
  .waitForAssertions({ totalTimeout: Duration.minutes(10), interval: Duration.seconds(20) });
flaggedSent.next(bouncingSend).next(recordedBounced);

// The handler decodes nested `$StringLike` (and `$ObjectLike`, `$ArrayWith`) objects into matchers.
integ.assertions
  .httpApiCall(`${stack.site.url}/integration-test-no-such-page`)
  .expect(ExpectedResult.objectLike({ status: 404, body: { $StringLike: 'Oops! Page not found' } }));

integ.assertions
  .httpApiCall(`${stack.api.url}api/cheat-sheet-requests`, jsonPost({ name: 'Integration Test', email: recipient }))
  .expect(ExpectedResult.objectLike({ status: 403 }));
