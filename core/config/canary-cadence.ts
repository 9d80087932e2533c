/**
 * How often the canary (lambdas/canary/) runs, and how often a run sends. Read by its catalogue
 * entry (the schedule), the function (which runs send), the objectives' alarms and the cost test.
 */

export const canaryCadence = {
  /**
   * Every run loads the page and saves a request: every 5 minutes, so two failed runs in a row
   * (a page within 15 minutes of an outage, with no reader on the site) take at most 10 minutes,
   * and one failed run alone never pages. A run costs a few Lambda, API Gateway, CloudFront and
   * DynamoDB requests: fractions of a cent a day.
   */
  checkEveryMinutes: 5,
  /**
   * One run in six also sends, to the SES mailbox simulator: every 30 minutes, 1,440 e-mails a
   * month at 0.10 USD per thousand, 0.14 USD. Sending every 5 minutes would cost 0.86 USD a month,
   * past what the canary may add; every 30 minutes finds a sending outage within about 40 minutes
   * at night (the next send, then the check of its delivery 5 minutes later), and readers' own
   * sends find it sooner by day.
   */
  sendEveryMinutes: 30,
  /**
   * A send's e-mail must reach `delivered` (the SES events function's record) this long after it
   * was sent: the simulator answers within seconds, so the run 5 minutes on may still see `sent`,
   * the one after must see `delivered`.
   */
  deliveredWithinMinutes: 10,
} as const;
