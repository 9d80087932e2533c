/**
 * What a stranger must send to pause the author's sending, replayed through the sender-reputation
 * alarm's own definition from the template: the fewest requests in 24 hours that put it in ALARM,
 * on an ordinary day of the product (20 cheat sheets sent to readers), before and now. Each
 * address counts once: a bounce or complaint suppresses it, and a suppressed address is refused
 * before SES is called (test/lambdas/requests/send-cheat-sheet.test.ts), so a stranger needs a new address for
 * every bounce or complaint.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { reputationMinimumSends, sendingPauseThresholds } from '../../../../infra/constructs/monitoring/cause-alarms';
import {
  alarmsOfTemplates,
  inAlarmAt,
  metricKey,
  type AlarmDefinition,
  type Recording,
} from '../../support/alarm-replay';
import { createTestApp } from '../../support/synth';

const { stack } = createTestApp({
  env: { account: '111111111111', region: 'us-east-1' },
  context: { senderDomain: 'example.com' },
});
const { metricAlarms } = alarmsOfTemplates([Template.fromStack(stack).toJSON() as never]);
const reputation = metricAlarms.get(
  stack.getLogicalId(stack.monitoring.causeAlarms.senderReputationAlarm.node.defaultChild as never),
)!;

/** The pause as it was: the configuration set's bounce or complaint rate alone, whatever the volume. */
const rateAlone: AlarmDefinition = {
  ...reputation,
  Metrics: reputation.Metrics!.map((query) =>
    query.Expression
      ? {
          ...query,
          Expression: `MAX([FILL(bounces, 0) / FILL(sent, 0) / ${sendingPauseThresholds.bounceRate}, FILL(complaints, 0) / FILL(sent, 0) / ${sendingPauseThresholds.complaintRate}])`,
        }
      : query,
  ),
};

const day = 24 * 60;
const ordinaryDay = 20;

/** A day with the readers' sends and a stranger's requests spread over it; `bad` of them bounce or complain. */
function dayWith(strangerRequests: number, bad: number, event: 'Bounce' | 'Complaint'): Recording {
  const spread = (count: number) => (minute: number) =>
    Math.floor(((minute + 1) * count) / day) - Math.floor((minute * count) / day);
  const readers = spread(ordinaryDay);
  const stranger = spread(strangerRequests);
  const bads = spread(bad);
  const minutes = Array.from({ length: day }, (_, m) => m);
  return {
    [metricKey('First100DaysSite', 'CheatSheetSent')]: minutes.map((m) => readers(m) + stranger(m) || undefined),
    [metricKey('AWS/SES', event)]: minutes.map((m) => bads(m) || undefined),
  };
}

/** The fewest requests a stranger needs in 24 hours to put `alarm` in ALARM, every one of them bad or just enough. */
function fewestRequests(alarm: AlarmDefinition, event: 'Bounce' | 'Complaint'): number {
  const rate = event === 'Bounce' ? sendingPauseThresholds.bounceRate : sendingPauseThresholds.complaintRate;
  for (let requests = 1; requests <= 1000; requests += 1) {
    // As few bad ones as the rate needs (a stranger's own mailbox, or a made-up one, per bad event).
    const bad = Math.min(requests, Math.max(1, Math.ceil(rate * (ordinaryDay + requests))));
    if (inAlarmAt(alarm, dayWith(requests, bad, event), day)) return requests;
  }
  return Infinity;
}

describe('a stranger and the automatic pause, on an ordinary day of 20 sends', () => {
  const before = { bounce: fewestRequests(rateAlone, 'Bounce'), complaint: fewestRequests(rateAlone, 'Complaint') };
  const now = { bounce: fewestRequests(reputation, 'Bounce'), complaint: fewestRequests(reputation, 'Complaint') };

  test('the rates are judged only from 200 sends in the 24 hours', () => {
    expect(reputationMinimumSends).toBe(200);
    expect(now.bounce + ordinaryDay).toBe(reputationMinimumSends);
  });

  test('a stranger needs 180 requests in a day where one made-up address was enough: 180 times as many', () => {
    console.log(
      `To pause sending on an ordinary day: before, ${before.bounce} bounced request or ${before.complaint} complaint; now, ${now.bounce} requests (${now.complaint} with one complaint).`,
    );
    expect(before).toEqual({ bounce: 1, complaint: 1 });
    expect(now).toEqual({ bounce: 180, complaint: 180 });
    expect(now.bounce / before.bounce).toBeGreaterThanOrEqual(100);
  });

  test("a day of 200 readers' sends with 8 bounces still pauses: the pause keeps SES's own arithmetic", () => {
    const recording: Recording = {
      [metricKey('First100DaysSite', 'CheatSheetSent')]: Array.from({ length: day }, (_, m) =>
        m < 200 ? 1 : undefined,
      ),
      [metricKey('AWS/SES', 'Bounce')]: Array.from({ length: day }, (_, m) => (m < 8 ? 1 : undefined)),
    };
    expect(inAlarmAt(reputation, recording, day)).toBe(true);
  });
});
