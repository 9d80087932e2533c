import { CfnOutput, type Stack } from 'aws-cdk-lib';
import type { Api } from './constructs/api';
import type { Data } from './constructs/data';
import type { LeadsKey } from './constructs/leads-key';
import type { Mail } from './constructs/mail';
import type { Monitoring } from './constructs/monitoring/monitoring';
import type { OriginSecret } from './constructs/origin-secret';
import type { Site } from './constructs/site';

/** What the outputs point at: the stack's constructs (CheatSheetSiteStack). */
export interface OutputSources {
  readonly site: Site;
  readonly data: Data;
  readonly originSecret: OriginSecret;
  readonly mail: Mail;
  readonly api: Api;
  readonly monitoring: Monitoring;
  readonly leadsKey: LeadsKey;
}

/**
 * The stack's outputs every stage has: where the site, the tables, the secret, the PDF, the
 * sender, the logs, the dashboard, the topics and the key are. Made with the stack as their
 * scope, so their names (what the scripts and the docs read) are the output ids below. The leads
 * roles' outputs are made with the roles (infra/stack.ts), the DNS records' with the Mail
 * construct, each function's log group with the function (bundled-function.ts).
 */
export function addStackOutputs(stack: Stack & OutputSources): void {
  new CfnOutput(stack, 'SiteUrl', {
    description: 'The site: the custom domain when one is given, else the CloudFront address.',
    value: stack.site.url,
  });
  new CfnOutput(stack, 'DistributionDomainName', {
    description: "The CloudFront host name: the target of a custom domain's CNAME or alias.",
    value: stack.site.distribution.distributionDomainName,
  });
  // No output gives the API's own (execute-api) address: `cdk deploy` prints every output into
  // the deploy log, and whoever knows the address can spend the readers' route throttles past
  // the web ACL (docs/abuse.md). The site's /api/ reaches the same routes.
  new CfnOutput(stack, 'TableName', {
    description: 'The DynamoDB table of cheat-sheet requests (kept when the stack is deleted).',
    value: stack.data.table.tableName,
  });
  new CfnOutput(stack, 'SendQuotaTableName', {
    description:
      "The DynamoDB table of the send limits' counters (per address, per client, the daily budget), each deleted by TTL once idle (kept when the stack is deleted).",
    value: stack.data.limitCountersTable.tableName,
  });
  // An ARN only: reading the value takes secretsmanager:GetSecretValue, which the functions that
  // need it and the leads reader role (erase, rekey) have.
  new CfnOutput(stack, 'OriginSecretArn', {
    description:
      'The secret CloudFront sends to the API, from which every stored hash of an address is keyed: `npm run leads -- erase` and `rekey` read it.',
    value: stack.originSecret.secret.secretArn,
  });
  new CfnOutput(stack, 'IdempotencyTableName', {
    description:
      "The DynamoDB table of the JSON routes' Idempotency-Key records, each deleted by TTL a day after it was written: `npm run leads -- erase` removes an address's records from it.",
    value: stack.data.idempotencyTable.tableName,
  });
  new CfnOutput(stack, 'CheatSheetBucketName', {
    description: `The private bucket holding the PDF at key ${stack.data.cheatSheetKey} (kept when the stack is deleted).`,
    value: stack.data.cheatSheetBucket.bucketName,
  });
  new CfnOutput(stack, 'SenderIdentityName', {
    description: 'The SES identity the cheat sheet is sent from: the sender address, or its domain.',
    value: stack.mail.identityName,
  });
  new CfnOutput(stack, 'ConfigurationSetName', {
    description:
      'The SES configuration set the cheat sheet is sent through: `aws sesv2 put-configuration-set-sending-options` pauses or resumes it (docs/operate.md).',
    value: stack.mail.configurationSetName,
  });
  new CfnOutput(stack, 'ApiAccessLogGroupName', {
    description: "The HTTP API's access log (status, route, source IP of every request).",
    value: stack.api.accessLogGroup.logGroupName,
  });
  // Each function's log group is an output of its own (<Function>LogGroupName, infra/constructs/bundled-function.ts).
  new CfnOutput(stack, 'DashboardUrl', {
    description: 'The CloudWatch dashboard: alarms, funnel, refusals, failures, latency, SES, throttles.',
    value: stack.monitoring.dashboardUrl,
  });
  new CfnOutput(stack, 'AlarmTopicArn', {
    description: 'The pages topic (on alarm and when OK again; alarmEmail, pageEndpoint): subscribe to it here.',
    value: stack.monitoring.pagesTopic.topicArn,
  });
  new CfnOutput(stack, 'TicketTopicArn', {
    description: 'The tickets topic (on alarm only; ticketEmail): subscribe to it here.',
    value: stack.monitoring.ticketsTopic.topicArn,
  });
  new CfnOutput(stack, 'LeadsKeyArn', {
    description:
      "The stack's one KMS key, the leads' (the tables, log groups, failed events' queue and alarm topics): its policy lists who can read a lead (kept when the stack is deleted).",
    value: stack.leadsKey.key.keyArn,
  });
}
