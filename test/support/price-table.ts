/**
 * AWS's list prices the cost tests compute with (test/repository/cost-figures.test.ts, the edge
 * stack's figures in operations-facts.test.ts): one table, dated, each price with its source.
 */

/** AWS's list prices in us-east-1, USD a month, as read on the date below. */
export const priceTable = {
  readOn: '2026-11-27',
  /** A standard-resolution alarm's metric; a metric-math alarm pays for every metric it reads. */
  alarmMetric: { usd: 0.1, source: 'https://aws.amazon.com/cloudwatch/pricing/' },
  /** A composite alarm. */
  compositeAlarm: { usd: 0.5, source: 'https://aws.amazon.com/cloudwatch/pricing/' },
  /** CloudWatch's always-free tier: alarm metrics each account gets free every month. */
  freeAlarmMetrics: { count: 10, source: 'https://aws.amazon.com/cloudwatch/pricing/ (Free tier)' },
  /** A dashboard beyond the free three of up to 50 metrics each. */
  dashboard: { usd: 3, freeMetrics: 50, freeDashboards: 3, source: 'https://aws.amazon.com/cloudwatch/pricing/' },
  /** A customer managed key; each of its first two rotations adds the same again (later ones are free). */
  key: { usd: 1, rotationUsd: 1, paidRotations: 2, source: 'https://aws.amazon.com/kms/pricing/' },
  secret: { usd: 0.4, per10000CallsUsd: 0.05, source: 'https://aws.amazon.com/secrets-manager/pricing/' },
  /** AWS WAF: a web ACL, and each of its rules (a managed rule group counts as one). */
  webAcl: { usd: 5, ruleUsd: 1, perMillionRequestsUsd: 0.6, source: 'https://aws.amazon.com/waf/pricing/' },
  /**
   * A custom metric (the first 10,000), a month, prorated by the hour: a metric published in an
   * hour pays that hour's share. API Gateway's route-level (detailed) metrics are billed the same.
   */
  customMetric: { usd: 0.3, source: 'https://aws.amazon.com/cloudwatch/pricing/' },
  /** A GB of log lines ingested (standard class). */
  logsIngestedGb: { usd: 0.5, source: 'https://aws.amazon.com/cloudwatch/pricing/' },
  /** CloudFront's flat-rate Free plan: the distribution and its web ACL together. */
  flatRateFree: { usd: 0, source: 'https://aws.amazon.com/cloudfront/pricing/' },
  /** SES: an e-mail sent (a send to the mailbox simulator is billed as any). */
  sesEmail: { usd: 0.0001, source: 'https://aws.amazon.com/ses/pricing/' },
  /** Lambda on arm64: a GB-second, and a request. */
  lambda: { gbSecondUsd: 0.0000133334, requestUsd: 0.0000002, source: 'https://aws.amazon.com/lambda/pricing/' },
  /** An HTTP API request. */
  httpApiRequest: { usd: 0.000001, source: 'https://aws.amazon.com/api-gateway/pricing/' },
  /** A CloudFront HTTPS request (North America and Europe). */
  cloudFrontRequest: { usd: 0.000001, source: 'https://aws.amazon.com/cloudfront/pricing/' },
  /** DynamoDB on demand: a write request unit, and a read request unit. */
  dynamoDb: {
    writeUsd: 0.000000625,
    readUsd: 0.000000125,
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
  },
} as const;
