/**
 * Each alarm's runbook, as data: why its threshold is what it is, what the operator does first
 * (every alarm description ends with it), and the heading of docs/operate.md that covers it.
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
  /**
   * What the alarm says is hurt (an objective, a route, a queue, a budget): its description's first
   * words, so the notification says what broke before anything else.
   */
  readonly hurt: string;
}

export type AlarmSeverity = 'page' | 'ticket';

/** An alarm's description before it is written out: what is happening, and its runbook entry. */
export interface AlarmDescription {
  readonly situation: string;
  readonly entry: RunbookEntry;
}

/**
 * What is happening, with its runbook entry (AlarmFamily writes it out with runbookDescription).
 * An alarm on one of several things (one objective of three, one queue of two) passes `hurt` and
 * `anchor`, which then replace the entry's.
 */
export function describeAlarm(
  situation: string,
  entry: RunbookEntry,
  about: Partial<Pick<RunbookEntry, 'hurt' | 'anchor'>> = {},
): AlarmDescription {
  return { situation, entry: { ...entry, ...about } };
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
 * The alarm's description as the e-mail shows it: what is hurt first (the objective, the route or
 * the queue: the alarm's name says it too, in the notification's subject), then the severity (so
 * the reader knows at once whether to get up), what is happening, what to look at first, and the
 * link to its runbook section, whose heading is the alarm's name.
 */
export function runbookDescription(description: AlarmDescription, baseUrl: string): string {
  const { situation, entry } = description;
  return `Hurt: ${entry.hurt}. Severity: ${entry.severity}. ${situation} First: ${entry.firstSteps} Runbook: ${baseUrl}#${entry.anchor}`;
}

/** The alarms, by what they watch (an alarm's id is its entry's, with the window in it). */
export type AlarmFamilyName =
  | 'SloFastBurn'
  | 'SloSlowBurn'
  | 'EdgeFastBurn'
  | 'SenderReputation'
  | 'SendBudgetRunningOut'
  | 'DeadLetters'
  | 'SendBacklog'
  | 'KeyOrConfigurationSetDisabled';

export const alarmRunbook: Readonly<Record<AlarmFamilyName, RunbookEntry>> = {
  SloFastBurn: {
    severity: 'page',
    reason:
      "an objective's error budget burns at 14.4 times its rate over an hour (2% of the 30 days' budget in an hour), counted only with enough events that one failure cannot breach it; for availability, also two failed canary runs within the hour, so an outage pages with no reader on the site",
    firstSteps:
      "the alarm's name says which objective burns, and the dashboard's objectives row how fast; then its runbook section's graph and the Logs Insights queries of docs/operate.md (failures by kind, slow calls, unsent requests).",
    anchor: 'slofastburn-availability',
    hurt: "an objective (the alarm's name says which)",
  },
  SloSlowBurn: {
    severity: 'ticket',
    reason:
      "an objective's error budget burns at its own rate or faster over 3 days: at that pace it is spent by the end of the 30 days; nobody needs to get up, someone must look within a working day",
    firstSteps:
      "the alarm's name says which objective; the dashboard's objectives row over 7 days, then the failures-by-kind and slow-calls queries for the days it burnt.",
    anchor: 'sloslowburn-availability',
    hurt: "an objective (the alarm's name says which)",
  },
  EdgeFastBurn: {
    severity: 'page',
    reason:
      "CloudFront's metrics live in us-east-1 only: for a product stack elsewhere, the availability objective's fast burn over an hour, on CloudFront's own requests, alarms there",
    firstSteps:
      "the distribution's standard logs (access-log bucket, cloudfront/) for the failing paths; the product stack's SloFastBurn.",
    anchor: 'edgefastburn',
    hurt: 'the availability objective, at CloudFront',
  },
  SenderReputation: {
    severity: 'page',
    reason:
      "four fifths of SES's review rates (5% bounces, 0.1% complaints) over the last 24 hours, judged only once 200 cheat sheets were sent in them: below that a handful of made-up addresses would move the rate; the product pauses its own sending before SES reviews the account",
    firstSteps:
      "sending is paused (npm run sending -- status --stack NAME). Find the cause: the dashboard's SES row and refusals (a spray of made-up addresses? complaints from strangers?). Resume (npm run sending -- resume --stack NAME) once the cause is stopped.",
    anchor: 'senderreputation',
    hurt: "the sender's reputation with SES, and every send (sending is paused)",
  },
  SendBudgetRunningOut: {
    severity: 'ticket',
    reason:
      'a warning at 80% of the daily send budget, over the same 24 hours the budget counts, while sends still go out; once it is spent, the refused readers burn the availability objective',
    firstSteps:
      "the dashboard's funnel: real readers (a launch) or a spray? Raise -c dailySendBudget for a launch; for a spray, the refusals graph and the web ACL.",
    anchor: 'sendbudgetrunningout',
    hurt: 'the daily send budget',
  },
  DeadLetters: {
    severity: 'ticket',
    reason:
      'a message in a dead-letter queue is work that failed after its retries (an SES event not recorded, a pause not made, a digest not sent, a lead not handed on): one is enough, and nothing retries it by itself',
    firstSteps:
      "the queue's messages (the console's Send and receive messages, or aws sqs receive-message) name the function and the event; its log group says why. Redo the work, then purge the message.",
    anchor: 'deadletters-failedevents',
    hurt: "a dead-letter queue's work (the alarm's name says which queue)",
  },
  SendBacklog: {
    severity: 'ticket',
    reason:
      "the oldest request in the send queue has waited 15 minutes, the delivery objective's bound: its reader was told the cheat sheet is on its way and SES's rate (or SES) is behind; nothing is lost, each is sent once when SES takes it, so a working day is soon enough unless it grows",
    firstSteps:
      "the queued-send function's log (throttled at the account's rate, SES unavailable, the PDF unreadable?) and npm run sending -- status --stack NAME; above SES's rate for long (a launch), ask AWS for a higher sending quota: the senders read it again within 5 minutes.",
    anchor: 'sendbacklog',
    hurt: 'the delivery of cheat sheets already promised to readers',
  },
  KeyOrConfigurationSetDisabled: {
    severity: 'page',
    reason:
      'a disabled (or deleted) key makes every table unreadable and a disabled configuration set refuses every send: every reader fails from then on, and at rest no objective has events to see it',
    firstSteps:
      'the CloudTrail event in the notification says who and when; re-enable the key (aws kms enable-key, cancel-key-deletion) or resume sending (npm run sending -- resume) unless it was the pause.',
    anchor: 'keyorconfigurationsetdisabled',
    hurt: "every request (the leads' key or the SES configuration set)",
  },
};
