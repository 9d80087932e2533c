import { failureAlarmOf, failureKindList } from '../../../core/api/catalogue/failures';
import type { FailureMetricKind } from '../../../core/observability/product-metrics';

/**
 * Each alarm's runbook, as data: why its threshold is what it is, what the operator does first
 * (every alarm description ends with it), and the heading of docs/operate.md that covers it. The
 * failure kinds' thresholds, reasons and headings are the catalogue's (failureRunbookOf).
 */
export interface RunbookEntry {
  /**
   * `page`: someone acts now, whatever the hour (readers are failing, or the sender's reputation
   * is at stake); `ticket`: someone looks within a working day (a warning, a trend, a limit near).
   */
  readonly severity: AlarmSeverity;
  /** Why the threshold (and period) is what it is. */
  readonly reason: string;
  /** What to look at first: the alarm description ends `First: <firstSteps>`. */
  readonly firstSteps: string;
  /** The heading's anchor in docs/operate.md. */
  readonly anchor: string;
}

export interface FailureRunbookEntry extends RunbookEntry {
  /** Failures of the kind in five minutes that page the operator. */
  readonly threshold: number;
  /** What the reader and the product suffer, before the first steps. */
  readonly impact: string;
}

export type AlarmSeverity = 'page' | 'ticket';

/** An alarm's description before it is written out: what is happening, and its runbook entry. */
export interface AlarmDescription {
  readonly situation: string;
  readonly entry: RunbookEntry;
}

/** What is happening, with its runbook entry (AlarmFamily writes it out with runbookDescription). */
export function describeAlarm(situation: string, entry: RunbookEntry): AlarmDescription {
  return { situation, entry };
}

/** The runbook page in the repository, when no repository is known: a path from its root. */
export const runbookDocPath = 'docs/operate.md';

/**
 * Where the alarms link to: docs/operate.md on GitHub's `main` branch when the repository is known
 * (`githubRepository`; the pipeline deploys main, so that page describes what runs), else the
 * page's path in the repository. Not a commit: the link would change every alarm on every deploy.
 */
export function runbookBaseUrl(repository?: { readonly owner: string; readonly name: string }): string {
  return repository
    ? `https://github.com/${repository.owner}/${repository.name}/blob/main/${runbookDocPath}`
    : runbookDocPath;
}

/**
 * The alarm's description as the e-mail shows it: the severity first (so the reader of a
 * notification knows at once whether to get up), what is happening, what to look at first, and
 * the link to its runbook section.
 */
export function runbookDescription(description: AlarmDescription, baseUrl: string): string {
  const { situation, entry } = description;
  return `Severity: ${entry.severity}. ${situation} First: ${entry.firstSteps} Runbook: ${baseUrl}#${entry.anchor}`;
}

/**
 * What the catalogue does not say of a failure kind's alarm: what the reader and the product
 * suffer, and where the operator looks first. A kind added to the catalogue later gets its alarm
 * without a row here (the catalogue's reason and a generic first step); a row makes it specific.
 */
export const failureGuidance: Readonly<
  Partial<Record<FailureMetricKind, Pick<FailureRunbookEntry, 'impact' | 'firstSteps'>>>
> = {
  SenderNotVerified: {
    impact:
      'SES refuses the sender identity (or, in the sandbox, the recipient): every send fails with the page\'s "Email Configuration Error".',
    firstSteps:
      'SES console, Identities: verify the sender (click the link, or publish the DKIM records); in the sandbox, request production access.',
  },
  PdfUnavailable: {
    impact: 'The cheat-sheet PDF cannot be read from its bucket: every send fails.',
    firstSteps: 'check the object in CheatSheetBucketName; redeploy (npm run build && npx cdk deploy) to put it back.',
  },
  Misconfigured: {
    impact: "A function's environment is missing or malformed: every request fails.",
    firstSteps: "the function's log group, message 'not configured'; redeploy the stack.",
  },
  Unexpected: {
    impact: 'A function failed in a way the code does not expect (a bug).',
    firstSteps: "the function's log group for the error and its stack trace; X-Ray for the request.",
  },
  SesRejected: {
    impact:
      'SES rejects messages for a reason other than verification (content, a suppressed or invalid address, sending paused).',
    firstSteps: 'the function log (causeName, causeMessage); SES console, Account dashboard: is sending paused?',
  },
  SesUnavailable: {
    impact: 'SES throttles or fails: readers are asked to retry.',
    firstSteps: 'SES console, Account dashboard (sending quota and rate) and the AWS Health Dashboard.',
  },
  StorageUnavailable: {
    impact: 'DynamoDB fails or cannot be reached: readers are asked to retry.',
    firstSteps: 'the DynamoDB throttle and system-error alarms, and the AWS Health Dashboard.',
  },
};

/**
 * The runbook of a failure metric kind's alarm: threshold, reason and anchor from the catalogue
 * (core/api/catalogue/failures.ts), the impact and first steps from failureGuidance.
 */
export function failureRunbookOf(kind: FailureMetricKind): FailureRunbookEntry {
  const { threshold, reason, runbook } = failureAlarmOf(kind);
  const guidance = failureGuidance[kind] ?? {
    impact: `Requests fail as ${kind}.`,
    firstSteps: `the function's log group, kind ${kind}.`,
  };
  // A failure kind's alarm means readers are failing now (the catalogue's thresholds say when).
  return { severity: 'page', threshold, reason, anchor: runbook.replace(/^#/, ''), ...guidance };
}

/**
 * The failure metric kinds that page, in the catalogue's order, once each (several failure kinds
 * may count under one): a kind added to the catalogue with an alarm gets it here.
 */
export function pagingFailureKinds(): FailureMetricKind[] {
  const kinds = failureKindList.flatMap(({ metric, alarm }) =>
    alarm !== null && metric !== null && 'failure' in metric ? [metric.failure] : [],
  );
  return [...new Set(kinds)];
}

/** The other alarms, by family (an alarm's id is its family's, with the function, route or table in it). */
export type AlarmFamilyName =
  | 'Api5xx'
  | 'RouteLatency'
  | 'FunctionThrottles'
  | 'FunctionErrors'
  | 'AccountConcurrency'
  | 'SendBudgetNearlySpent'
  | 'SendBudgetSpent'
  | 'SesBounceRate'
  | 'SesComplaintRate'
  | 'ConfigurationSetBounceRate'
  | 'ConfigurationSetComplaintRate'
  | 'TableThrottles'
  | 'TableSystemErrors'
  | 'CloudFront5xxRate'
  | 'UnsentRequests'
  | 'SendNotRecorded'
  | 'SendOutcomeUnknown'
  | 'LeadDigestErrors'
  | 'LeadHandoffDeadLetters';

export const alarmRunbook: Readonly<Record<AlarmFamilyName, RunbookEntry>> = {
  Api5xx: {
    severity: 'page',
    reason: 'one 5xx can be a blip the reader retries; three in five minutes is a pattern',
    firstSteps: 'the failure-kind alarms and the dashboard say which; then the function log groups.',
    anchor: 'api5xx',
  },
  RouteLatency: {
    severity: 'ticket',
    reason:
      'half the timeout: a normal call takes milliseconds and a cold start about 130 ms, so past it an SDK call is retrying or timing out; 2 of 3 periods is no single cold start',
    firstSteps: 'X-Ray traces of the function for the slow call; the DynamoDB and SES alarms.',
    anchor: 'latency-per-route',
  },
  FunctionThrottles: {
    severity: 'page',
    reason: "no function reserves concurrency, so one throttle means the account's pool is used up",
    firstSteps:
      "the dashboard's concurrency graph; Service Quotas, Lambda concurrent executions (new accounts start low).",
    anchor: 'function-throttles',
  },
  FunctionErrors: {
    severity: 'page',
    reason: 'the handlers answer every failure they know, so one Error is a crash, a timeout or memory running out',
    firstSteps: "its log group, 'Task timed out' or the error; X-Ray for the slow call.",
    anchor: 'function-errors',
  },
  AccountConcurrency: {
    severity: 'ticket',
    reason:
      "80% of the account's quota (accountConcurrencyLimit) leaves time to act before every function is throttled",
    firstSteps: 'which functions (CloudWatch, Lambda, by function); raise the quota in Service Quotas.',
    anchor: 'accountconcurrency',
  },
  SendBudgetNearlySpent: {
    severity: 'ticket',
    reason:
      'a warning at 80% of the daily send budget, over the same 24 hours the budget counts, while sends still go out',
    firstSteps:
      "the dashboard's funnel: real readers (a launch) or a spray? Raise -c dailySendBudget for a launch; for a spray, the refusals graph and WAF.",
    anchor: 'sendbudgetnearlyspent',
  },
  SendBudgetSpent: {
    severity: 'page',
    reason: 'one refusal means readers are turned away (503)',
    firstSteps: 'as for SendBudgetNearlySpent; follow up the saved requests once sending resumes.',
    anchor: 'sendbudgetspent',
  },
  SesBounceRate: {
    severity: 'page',
    reason: 'SES reviews an account at about a 5% bounce rate and may pause it at about twice that',
    firstSteps:
      "SES console, Reputation metrics; the dashboard's bounce events: a spray of made-up addresses? Bounced addresses are suppressed already.",
    anchor: 'sesbouncerate',
  },
  SesComplaintRate: {
    severity: 'page',
    reason: 'SES reviews an account at about a 0.1% complaint rate and may pause it at about twice that',
    firstSteps:
      'SES console, Reputation metrics; strangers are being sent the cheat sheet: check the refusals graph, lower the caps or turn on WAF.',
    anchor: 'sescomplaintrate',
  },
  ConfigurationSetBounceRate: {
    severity: 'page',
    reason:
      "four fifths of SES's review rate (5%): the product pauses its own sending before SES reviews the account, and long before SES pauses it",
    firstSteps:
      "sending is paused (npm run sending -- status --stack NAME). Find the cause: the dashboard's bounce events and refusals (a spray of made-up addresses?). Resume (npm run sending -- resume --stack NAME) once the cause is stopped and the rate is below 4%.",
    anchor: 'configurationsetbouncerate',
  },
  ConfigurationSetComplaintRate: {
    severity: 'page',
    reason:
      "four fifths of SES's review rate (0.1%): the product pauses its own sending before SES reviews the account, and long before SES pauses it",
    firstSteps:
      'sending is paused (npm run sending -- status --stack NAME). Strangers are being sent the cheat sheet: lower the caps or turn on WAF; resume (npm run sending -- resume --stack NAME) once the rate is below 0.08%.',
    anchor: 'configurationsetcomplaintrate',
  },
  TableThrottles: {
    severity: 'page',
    reason: "on demand, one throttle means a hot key or the table's account limit: a reader's request failed",
    firstSteps:
      "CloudWatch, the table's consumed capacity by operation; a spray of requests shows on the dashboard's funnel and refusals.",
    anchor: 'table-throttles',
  },
  TableSystemErrors: {
    severity: 'page',
    reason: 'the SDK retries once, so an isolated AWS-side 500 is absorbed; three in five minutes is a service problem',
    firstSteps: 'the AWS Health Dashboard for DynamoDB in this region.',
    anchor: 'table-system-errors',
  },
  UnsentRequests: {
    severity: 'ticket',
    reason:
      'one request unsent 15 minutes after it was saved is one reader without the cheat sheet, and nothing sends it by itself; the page sends within seconds, so 15 minutes is no slow send',
    firstSteps:
      'npm run leads -- unsent (which, and in what state); the send alarms for the cause; once it is fixed, npm run leads -- resend.',
    anchor: 'unsentrequests',
  },
  SendNotRecorded: {
    severity: 'ticket',
    reason: 'one is a reader who got the e-mail while the record says otherwise: the lead export would be wrong',
    firstSteps:
      "the send function's log, 'could not be recorded' (its requestId); the DynamoDB alarms. The SES events put the record right when the delivery event arrives; do not resend it.",
    anchor: 'sendnotrecorded',
  },
  SendOutcomeUnknown: {
    severity: 'ticket',
    reason:
      'one is a reader who may or may not have the e-mail, and nothing resends it: sending again could mail them twice',
    firstSteps:
      "the SES alarms and the AWS Health Dashboard; the request's record turns 'delivered' or 'bounced' if SES sent it. Still 'unknown' after an hour: SES did not send it; ask the reader to request again.",
    anchor: 'sendoutcomeunknown',
  },
  CloudFront5xxRate: {
    severity: 'page',
    reason:
      'the static site rarely fails: 5% of responses in 2 of 3 periods is an origin problem, not one unlucky request',
    firstSteps:
      "the API 5xx alarm; if quiet, the distribution's standard logs (access-log bucket, cloudfront/) for the failing paths.",
    anchor: 'cloudfront5xxrate',
  },
  LeadDigestErrors: {
    severity: 'ticket',
    reason:
      'the digest runs once a week, so one failed invocation (after two retries) is a missed e-mail; the leads stay in the table',
    firstSteps:
      "the LeadDigestLogGroupName log group, 'Weekly digest not sent'; meanwhile the author can run npm run leads -- export.",
    anchor: 'leaddigesterrors',
  },
  LeadHandoffDeadLetters: {
    severity: 'ticket',
    reason:
      "one message is one lead the author's list does not have, and nothing retries it: the provider refused the key (401, 403), the list is gone (410), it refused the address, or it failed every attempt for a day. A working day is soon enough: the lead is safe in the table and in the weekly digest",
    firstSteps:
      "the LeadHandoffLogGroupName log group, 'Hand-off stopped' (its reason); set or correct the key (docs/operate.md), then redrive the dead-letter queue to the hand-off queue in the SQS console.",
    anchor: 'leadhandoffdeadletters',
  },
};
