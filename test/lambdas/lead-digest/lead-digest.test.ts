/** The digest tells the author what became of the week's hand-offs to their mail provider. */

import type { CheatSheetRequestItem } from '../../../core/data/tables';
import type { HandoffRecord } from '../../../core/data/mail-provider';
import { lastDays, type FunnelDay } from '../../../core/data/funnel';
import { funnelWeeks } from '../../../lambdas/lead-digest/funnel-weeks';
import { digestEmail, handoffSummary } from '../../../lambdas/lead-digest/lead-digest';

const week = { since: '2026-03-02T07:00:00.000Z', until: '2026-03-09T07:00:00.000Z' };
const config = {
  tableName: 't',
  limitCountersTableName: 'c',
  senderEmail: 'sender@example.com',
  authorEmail: 'author@example.com',
};
/** Two quiet weeks: the funnel is not what these tests are about. */
const funnel = funnelWeeks(
  lastDays(new Date('2026-03-08T12:00:00.000Z'), 14).map((day): FunnelDay => ({
    day,
    visits: 0,
    uniqueVisitors: 0,
    requests: 0,
    sent: 0,
    delivered: 0,
    bounced: 0,
    complained: 0,
    handedOff: 0,
  })),
);

function item(id: string, handoff?: Partial<HandoffRecord>): CheatSheetRequestItem {
  return {
    id,
    name: `Reader ${id}`,
    email: `${id}@example.com`,
    requested_at: '2026-03-05T09:00:00.000Z',
    cheat_sheet_sent: true,
    delivery_status: 'delivered',
    ...(handoff && {
      mail_provider_handoff: { provider: 'kit', at: '2026-03-05T09:00:01.000Z', attempts: 1, ...handoff },
    }),
  } as CheatSheetRequestItem;
}

test('without a mail provider, the digest says nothing of one', () => {
  const email = digestEmail([item('a'), item('b')], week, config, funnel);
  expect(handoffSummary([item('a')])).toEqual([]);
  expect(email.text).not.toContain('mailing list');
});

test('counts the readers added, still retried and stopped, with why the stopped ones stopped', () => {
  const items = [
    item('a', { result: 'accepted' }),
    item('b', { result: 'accepted' }),
    item('c', { result: 'retrying' }),
    item('d', { result: 'stopped', reason: 'authentication' }),
    item('e', { result: 'stopped', reason: 'authentication' }),
    item('f', { result: 'stopped', reason: 'exhausted' }),
  ];
  const email = digestEmail(items, week, config, funnel);

  expect(email.text).toContain('Your mailing list (Kit): 2 added, 1 still being retried, 3 could not be added.');
  expect(email.text).toContain('  2: the provider refused the API key (401 or 403): set the right key');
  expect(email.text).toContain('  1: the provider failed every attempt for about a day');
  expect(email.text).toContain('The operator has a ticket for them.');
  expect(email.html).toContain('<p>Your mailing list (Kit): 2 added, 1 still being retried, 3 could not be added.</p>');
});

test('all added: no ticket is mentioned', () => {
  const lines = handoffSummary([item('a', { result: 'accepted' })]);
  expect(lines).toEqual(['Your mailing list (Kit): 1 added, 0 still being retried, 0 could not be added.']);
});
