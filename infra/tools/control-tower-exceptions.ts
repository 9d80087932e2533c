/**
 * The Control Tower controls this stack does not meet, resource by resource, and why. Everything
 * else the controls ask is fixed in the constructs. cfn-guard's own `disabledRules` would switch a
 * control off for the whole app; these are acknowledged on the named resources only, so the same
 * control still fails the synth on any other resource (infra/tools/compliance-checks.ts applies them).
 *
 * In an account whose Control Tower enforces one of these controls as a proactive (hook) control,
 * CloudFormation refuses the stack: docs/audit.md lists what each would take.
 *
 * A synth fails when an entry names no resource, and the audit report (cdk.out/audit-report.md)
 * fails it when an entry no longer matches a finding: an exception never outlives its reason.
 */

/** What decides whether an exception applies: facts of the stack being synthesized. */
export interface ExceptionFacts {
  /** A custom domain and its certificate were given (`domainName`, `certificateArn`). */
  readonly customDomain: boolean;
  /** The stack has a literal account (an explicit environment, e.g. with the web ACL, on by default). */
  readonly accountKnown: boolean;
  /** The weekly digest exists (`authorEmail`). */
  readonly leadDigest: boolean;
  /** The mail provider's hand-off exists (`mailProvider`). */
  readonly leadHandoff: boolean;
}

export interface ControlTowerException {
  /** Control Tower's identifier, e.g. `CT.LAMBDA.PR.3`. */
  readonly control: string;
  /**
   * Construct path of the resources, relative to the product stack; `*` stands for any characters
   * within one path segment. Only resources of the types the control reports on are meant.
   */
  readonly resources: string;
  /** Why the control is not met there: specific, and checked for length. */
  readonly reason: string;
  /** @default - every configuration */
  readonly appliesWhen?: (facts: ExceptionFacts) => boolean;
}

const withoutCustomDomain = (facts: ExceptionFacts) => !facts.customDomain;

export const controlTowerExceptions: readonly ControlTowerException[] = [
  {
    control: 'CT.DYNAMODB.PR.1',
    resources: 'Data/FunnelVisitorsTable/Resource',
    reason:
      "It holds only the funnel's random salt of the day and the day's salted visitor hashes, which must not outlive the day: point-in-time recovery would keep each deleted salt 35 days, and a restored salt lets anyone with a visitor's network and user agent test whether that visitor came. Losing the table loses at most one day's unique-visitor count.",
  },
  {
    control: 'CT.SQS.PR.1',
    resources: 'FailedEvents/Queue/Resource',
    reason:
      "It is itself the dead-letter queue of the event functions' failed invocations, watched by the DeadLetters-FailedEvents alarm: a dead-letter queue of its own would need watching in turn.",
  },
  {
    control: 'CT.SQS.PR.1',
    resources: 'SendQueue/Queue/Resource',
    reason:
      'The send queue keeps a send that keeps failing (SES down) where the queued sender retries it, every visibility timeout for 14 days, and its age past 15 minutes opens the SendBacklog ticket; a dead-letter queue would take it from the one place it is retried, and need a ticket of its own.',
  },
  {
    control: 'CT.LAMBDA.PR.2',
    resources: 'Api/HttpApi/*/*-Permission',
    reason:
      "Each invoke permission names API Gateway, this API's route (SourceArn) and this account (SourceAccount). In the environment-agnostic template SourceAccount is {Ref: AWS::AccountId}, which this static check cannot read as the string it wants; synthesized with an account (e.g. with the web ACL, on by default), it is a literal and the control passes.",
    appliesWhen: (facts) => !facts.accountKnown,
  },
  {
    control: 'CT.LAMBDA.PR.3',
    resources: 'Api/*/*Function/Resource',
    reason:
      "The API's functions call only AWS public endpoints (DynamoDB, S3, SES, Secrets Manager) over TLS with IAM-signed requests and reach nothing private. In a VPC they would need a NAT gateway (about 32 USD a month per Availability Zone) or interface endpoints for SES and Secrets Manager (about 7 USD a month each per zone), more than the rest of the stack, and slower cold starts, for no isolation gained.",
  },
  {
    control: 'CT.LAMBDA.PR.3',
    resources: 'EventFunctions/*/*Function/Resource',
    reason:
      "The functions no route invokes (the SES events function, the unsent check, the pause function, the weekly digest: every entry of the catalogue of functions with a schedule or an event pattern) call only DynamoDB's and SES's public endpoints over TLS with IAM-signed requests, a few times an hour or less; a VPC would need a DynamoDB gateway endpoint plus a NAT gateway or interface endpoints for SES, X-Ray and CloudWatch Logs delivery (about 7 USD a month each per zone), more than the rest of the stack.",
  },
  {
    control: 'CT.LAMBDA.PR.3',
    resources: 'SendQueue/Function/QueuedSendFunction/Resource',
    reason:
      "The queued sender calls only DynamoDB's, S3's and SES's public endpoints over TLS with IAM-signed requests, as the send function does; a VPC would need a DynamoDB gateway endpoint plus a NAT gateway or interface endpoints for SES and S3 (about 7 USD a month each per zone), more than the rest of the stack.",
  },
  {
    control: 'CT.LAMBDA.PR.3',
    resources: 'LeadHandoff/Function/LeadHandoffFunction/Resource',
    reason:
      "The hand-off calls the author's mail provider on the public internet (Kit, MailerLite, Mailchimp or the webhook's https address) and DynamoDB, SQS and Secrets Manager through their public endpoints over TLS; in a VPC it would need a NAT gateway (about 32 USD a month per zone) to reach the provider at all, for a few calls per lead.",
    appliesWhen: (facts) => facts.leadHandoff,
  },
  {
    control: 'CT.LAMBDA.PR.3',
    resources: 'Custom::CDKBucketDeployment*/Resource',
    reason:
      "CDK's BucketDeployment handler runs only while CloudFormation deploys, copying the build between S3 buckets through S3's public endpoint; CDK offers a VPC for it, but that would need the same NAT or endpoints as the functions, for a few seconds of work per deployment.",
  },
  {
    control: 'CT.LAMBDA.PR.3',
    resources: 'AWS679f53fac002430cb0da5b7982bd2287/Resource',
    reason:
      "CDK's AwsCustomResource handler (the distribution's invalidation) runs only while CloudFormation deploys and makes one call to CloudFront's global public endpoint; a VPC would need a NAT gateway for that single call.",
  },
  {
    control: 'CT.APIGATEWAY.PR.5',
    resources: 'Api/HttpApi/*/Resource',
    reason:
      'The routes are the anonymous cheat-sheet form of a public page: visitors have no accounts, so there is nothing to authorize with IAM, JWT or a Lambda authorizer. Abuse is bounded by the stage throttle, the schema and 10 KB body limit, the honeypot, the per-client hourly limit, the per-address daily cap and the daily send budget (docs/abuse.md).',
  },
  {
    control: 'CT.CLOUDFRONT.PR.4',
    resources: 'Site/Distribution/Resource',
    reason:
      "Origin groups fail over only GET, HEAD and OPTIONS requests, so they cannot cover the API's POST routes, and the API itself is one regional endpoint. For the site's files a second bucket replicated to another region would double storage and add replication, for S3's own 99.99% availability behind CloudFront's cache.",
  },
  {
    control: 'CT.CLOUDFRONT.PR.6',
    resources: 'Site/Distribution/Resource',
    reason:
      "No custom domain was given (-c domainName, -c certificateArn), so the distribution answers on its *.cloudfront.net name with CloudFront's own certificate. With a custom domain it uses that ACM certificate and the control passes.",
    appliesWhen: withoutCustomDomain,
  },
  {
    control: 'CT.CLOUDFRONT.PR.7',
    resources: 'Site/Distribution/Resource',
    reason:
      "SNI is a setting of a custom certificate; CloudFront's default *.cloudfront.net certificate has none. With a custom domain the distribution serves it with SNI (sni-only) and the control passes.",
    appliesWhen: withoutCustomDomain,
  },
  {
    control: 'CT.CLOUDFRONT.PR.9',
    resources: 'Site/Distribution/Resource',
    reason:
      'With the default *.cloudfront.net certificate CloudFront fixes the security policy at TLSv1 and offers no setting; with a custom domain the stack sets TLSv1.2_2021 and the control passes.',
    appliesWhen: withoutCustomDomain,
  },
  {
    control: 'CT.S3.PR.9',
    resources: 'Site/Bucket/Resource',
    reason:
      'Every deployment overwrites the pages and prunes files the new build no longer has; Object Lock retention would refuse those deletions (compliance mode even to the account root) or keep every old version for its retention period. Versioning with a 30-day window already allows a rollback.',
  },
  {
    control: 'CT.S3.PR.9',
    resources: 'Data/CheatSheetBucket/Resource',
    reason:
      'The author replaces the cheat sheet under the same key whenever its content changes, and must be able to remove a version that should not be sent; Object Lock would forbid that for the retention period. Versioning keeps the last 30 days of versions recoverable.',
  },
  {
    control: 'CT.S3.PR.9',
    resources: 'Data/AccessLogsBucket/Resource',
    reason:
      'S3 server access logging refuses a destination bucket with an Object Lock default retention period, and the logs of a marketing page need no write-once retention; the bucket is versioned, private and TLS-only, and its logs expire after a year.',
  },
  {
    control: 'CT.S3.PR.2',
    resources: 'Data/AccessLogsBucket/Resource',
    reason:
      'This is the access-log bucket itself: logging its own access into itself would write a log record for every log delivery, without end, and logging it into a further bucket would only move the same question there.',
  },
  {
    control: 'CT.S3.PR.10',
    resources: 'Site/Bucket/Resource',
    reason:
      "It holds the site's pages and assets, which CloudFront serves to anyone: SSE-S3 (AES-256, S3's own keys) encrypts them at rest, and a customer managed key would guard nothing secret while costing 1 USD a month (3 USD from the third year, with its rotations). Only the distribution reads it (origin access control, the bucket policy naming this distribution); it stays private and TLS-only.",
  },
  {
    control: 'CT.S3.PR.10',
    resources: 'Data/CheatSheetBucket/Resource',
    reason:
      "It holds the one PDF every reader who asks is sent, the same public file for all: SSE-S3 (AES-256, S3's own keys) encrypts it at rest, and a customer managed key would guard nothing secret while costing 1 USD a month (3 USD from the third year). Only the send function reads it (s3:GetObject on that one object); it stays private and TLS-only. The readers' data is under the leads' key.",
  },
  {
    control: 'CT.S3.PR.10',
    resources: 'Data/AccessLogsBucket/Resource',
    reason:
      "S3 server access logs can only be delivered to a bucket whose default encryption is SSE-S3, not SSE-KMS, and this bucket receives the site and PDF buckets' access logs. It stays encrypted with SSE-S3 (AES-256), private and TLS-only.",
  },
];
