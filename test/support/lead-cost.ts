/**
 * What one lead costs at list price, computed from the synthesized templates' resources: the
 * functions a lead runs (their memory, architecture and tracing, from the template), the API
 * requests it makes through CloudFront, the web ACL and API Gateway, the e-mail and its PDF, the
 * tables it writes (their indexes and encryption, from the template), the send queue when there
 * is one, and the logs. test/repository/cost-figures.test.ts prints it per 1,000 leads.
 */
import { productFunctions } from '../../core/api/catalogue/functions';
import { readerRoutes } from '../../core/config/launch-capacity';
import { functionResourcePrefix } from '../infra/support/function-ids';

/** A resource of a synthesized template. */
export interface TemplateResource {
  readonly logicalId: string;
  readonly Type: string;
  readonly Properties: Record<string, unknown>;
}

/** AWS's list prices in us-east-1, USD, read on the date below; each with its page. */
export const leadPrices = {
  readOn: '2026-11-28',
  /** Per e-mail (0.10 USD per 1,000), and per GB of attachments. */
  sesEmail: { usd: 0.1 / 1000, source: 'https://aws.amazon.com/ses/pricing/' },
  sesAttachmentGb: { usd: 0.12, source: 'https://aws.amazon.com/ses/pricing/' },
  /** Per request, and per GB-second on arm64 (x86 costs 0.0000166667). */
  lambdaRequest: { usd: 0.2 / 1e6, source: 'https://aws.amazon.com/lambda/pricing/' },
  lambdaGbSecondArm: { usd: 0.0000133334, source: 'https://aws.amazon.com/lambda/pricing/' },
  lambdaGbSecondX86: { usd: 0.0000166667, source: 'https://aws.amazon.com/lambda/pricing/' },
  /** HTTP APIs: 1.00 USD per million requests (the first 300 million a month). */
  apiRequest: { usd: 1 / 1e6, source: 'https://aws.amazon.com/api-gateway/pricing/' },
  /** HTTPS requests in North America and Europe: 0.0100 USD per 10,000. */
  cloudFrontRequest: { usd: 0.01 / 10_000, source: 'https://aws.amazon.com/cloudfront/pricing/' },
  /** Per request the web ACL inspects: 0.60 USD per million. */
  wafRequest: { usd: 0.6 / 1e6, source: 'https://aws.amazon.com/waf/pricing/' },
  /** On demand: 0.625 USD per million write request units. */
  dynamoDbWrite: { usd: 0.625 / 1e6, source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/' },
  /** Per request to a customer managed key: 0.03 USD per 10,000. */
  kmsRequest: { usd: 0.03 / 10_000, source: 'https://aws.amazon.com/kms/pricing/' },
  /** Standard queue: 0.40 USD per million requests. */
  sqsRequest: { usd: 0.4 / 1e6, source: 'https://aws.amazon.com/sqs/pricing/' },
  /** Logs ingested, Standard class, per GB. */
  logsGb: { usd: 0.5, source: 'https://aws.amazon.com/cloudwatch/pricing/' },
  /** X-Ray: 5.00 USD per million traces recorded (the first 100,000 a month free, not counted here). */
  xrayTrace: { usd: 5 / 1e6, source: 'https://aws.amazon.com/xray/pricing/' },
} as const;

/**
 * What a lead does, where the template cannot say. Each figure is an upper bound, with its reason.
 */
export const leadFootprint = {
  /**
   * Billed seconds per invocation: 1 s, four to eight times a function's measured first reply
   * (119 to 273 ms, cold start included: docs/performance.md), and a queued send's wait for SES's pace.
   */
  invocationSeconds: 1,
  /**
   * DynamoDB calls per lead, each billed as a write of one unit to its table and every index of
   * the table: a save's 9, a queued send's 17 (a direct send makes 15) and the delivery event's 1,
   * as test/lambdas/reader-storage-calls.test.ts counts them on the handlers (docs/performance.md).
   */
  dynamoDbCalls: 27,
  /**
   * KMS requests per lead: one per DynamoDB call, as if the leads' key were asked each time.
   * DynamoDB caches the table's key for minutes, so the real figure is far lower.
   */
  kmsRequestsPerDynamoDbCall: 1,
  /** Log bytes per invocation: Lambda's START, END and REPORT lines and the product's JSON lines. */
  logBytesPerInvocation: 4096,
  /** SQS requests per queued send: SendMessage, the event source's receive, and the delete. */
  sqsRequestsPerQueuedSend: 3,
} as const;

function functionOf(resources: readonly TemplateResource[], prefix: string): TemplateResource | undefined {
  return resources.find(({ Type, logicalId }) => Type === 'AWS::Lambda::Function' && logicalId.startsWith(prefix));
}

/** The functions one lead runs: the reader's three routes, the delivery event's, and the queue's sender when built. */
function leadFunctions(resources: readonly TemplateResource[]): TemplateResource[] {
  const byCatalogue = [...readerRoutes.map((name) => productFunctions[name]), productFunctions.sesEvents].map((fn) =>
    functionOf(resources, functionResourcePrefix(fn, 'Function')),
  );
  const queuedSender = resources.find(
    ({ Type, logicalId }) => Type === 'AWS::Lambda::Function' && /QueuedSend/.test(logicalId),
  );
  const found = [...byCatalogue, queuedSender].filter((fn): fn is TemplateResource => fn !== undefined);
  if (found.length < byCatalogue.length) throw new Error('A function a lead runs is missing from the template');
  return found;
}

export interface LeadCostLine {
  readonly item: string;
  readonly usd: number;
}

/** Each line of one lead's cost, and their total, in USD. */
export function leadCost(resources: readonly TemplateResource[], pdfBytes: number) {
  const p = leadPrices;
  const f = leadFootprint;
  const functions = leadFunctions(resources);
  const gbSeconds = (fn: TemplateResource) => ((fn.Properties.MemorySize as number) / 1024) * f.invocationSeconds;
  const gbSecondPrice = (fn: TemplateResource) =>
    (fn.Properties.Architectures as string[] | undefined)?.includes('arm64')
      ? p.lambdaGbSecondArm.usd
      : p.lambdaGbSecondX86.usd;
  const traced = functions.filter(
    (fn) => (fn.Properties.TracingConfig as { Mode?: string } | undefined)?.Mode === 'Active',
  ).length;

  const tables = resources.filter(({ Type }) => Type === 'AWS::DynamoDB::Table');
  const mostIndexes = Math.max(
    ...tables.map(({ Properties }) => ((Properties.GlobalSecondaryIndexes as unknown[] | undefined) ?? []).length),
  );
  const customerKey = tables.some(
    ({ Properties }) => (Properties.SSESpecification as { KMSMasterKeyId?: unknown } | undefined)?.KMSMasterKeyId,
  );
  const webAcl = resources.some(({ Type }) => Type === 'AWS::WAFv2::WebACL');
  const queued = functions.some(({ logicalId }) => /QueuedSend/.test(logicalId));
  const apiRequests = readerRoutes.length;
  const attachmentBytes = Math.ceil(pdfBytes / 3) * 4; // base64

  const lines: LeadCostLine[] = [
    { item: 'SES: the e-mail', usd: p.sesEmail.usd },
    { item: 'SES: the PDF attached', usd: (attachmentBytes / 1024 ** 3) * p.sesAttachmentGb.usd },
    { item: `Lambda: ${functions.length} invocations`, usd: functions.length * p.lambdaRequest.usd },
    {
      item: `Lambda: ${f.invocationSeconds} s each at its memory`,
      usd: functions.map((fn) => gbSeconds(fn) * gbSecondPrice(fn)).reduce((a, b) => a + b, 0),
    },
    { item: `API Gateway: ${apiRequests} requests`, usd: apiRequests * p.apiRequest.usd },
    { item: `CloudFront: ${apiRequests} requests`, usd: apiRequests * p.cloudFrontRequest.usd },
    { item: `WAF: ${webAcl ? apiRequests : 0} requests inspected`, usd: (webAcl ? apiRequests : 0) * p.wafRequest.usd },
    {
      item: `DynamoDB: ${f.dynamoDbCalls} calls, each with ${mostIndexes} index write${mostIndexes === 1 ? '' : 's'}`,
      usd: f.dynamoDbCalls * (1 + mostIndexes) * p.dynamoDbWrite.usd,
    },
    {
      item: 'KMS: the leads key',
      usd: customerKey ? f.dynamoDbCalls * f.kmsRequestsPerDynamoDbCall * p.kmsRequest.usd : 0,
    },
    { item: 'SQS: the queued send', usd: queued ? f.sqsRequestsPerQueuedSend * p.sqsRequest.usd : 0 },
    {
      item: 'CloudWatch Logs: ingestion',
      usd: ((functions.length * f.logBytesPerInvocation) / 1024 ** 3) * p.logsGb.usd,
    },
    { item: `X-Ray: ${traced} traces`, usd: traced * p.xrayTrace.usd },
  ];
  return { lines, total: lines.reduce((sum, { usd }) => sum + usd, 0) };
}
