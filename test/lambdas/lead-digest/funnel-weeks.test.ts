/** The digest's funnel: two whole weeks of UTC days before the digest's day, side by side, with the change. */

import { lastDays, type FunnelDay } from '../../../core/data/funnel';
import {
  conversionChange,
  countChange,
  funnelEndOf,
  funnelHtml,
  funnelText,
  funnelWeeks,
} from '../../../lambdas/lead-digest/funnel-weeks';

const quiet: Omit<FunnelDay, 'day'> = {
  visits: 0,
  uniqueVisitors: 0,
  requests: 0,
  sent: 0,
  delivered: 0,
  bounced: 0,
  complained: 0,
  handedOff: 0,
};

/** Fourteen days to Sunday 2026-03-08, each week's first day carrying the given counts. */
function fortnight(weekBefore: Partial<FunnelDay>, thisWeek: Partial<FunnelDay>): FunnelDay[] {
  return lastDays(new Date('2026-03-08T23:00:00.000Z'), 14).map((day, index) => ({
    day,
    ...quiet,
    ...(index === 0 && weekBefore),
    ...(index === 7 && thisWeek),
  }));
}

/** A row of the text's table, split into its cells. */
const row = (lines: readonly string[], label: string) =>
  lines
    .find((line) => line.trimStart().startsWith(`${label}  `))
    ?.trim()
    .split(/ {2,}/);

test("a digest on Monday counts through Sunday: the funnel's last day is the day before the digest's", () => {
  expect(funnelEndOf(new Date('2026-03-09T07:00:00.000Z')).toISOString().slice(0, 10)).toBe('2026-03-08');
});

test('the fourteen days become the week before (the first seven) and this week (the last seven), each summed', () => {
  const weeks = funnelWeeks(fortnight({ visits: 5, requests: 1 }, { visits: 9, requests: 2 }));
  expect(weeks.weekBefore).toEqual({
    from: '2026-02-23',
    to: '2026-03-01',
    total: { ...quiet, visits: 5, requests: 1 },
  });
  expect(weeks.thisWeek).toEqual({ from: '2026-03-02', to: '2026-03-08', total: { ...quiet, visits: 9, requests: 2 } });
});

test('any other number of days than fourteen is refused, naming it', () => {
  expect(() => funnelWeeks(fortnight({}, {}).slice(1))).toThrow('takes 14 days, not 13');
});

test('a count changes by its difference and, from a week that had some, by a rounded percentage', () => {
  expect(countChange(20, 40)).toBe('+20 (+100%)');
  expect(countChange(30, 20)).toBe('-10 (-33%)');
  expect(countChange(7, 7)).toBe('0');
  // From none there is no percentage to give.
  expect(countChange(0, 4)).toBe('+4');
});

test('the conversion changes in percentage points, and not at all when a week had no visitor', () => {
  expect(
    conversionChange({ ...quiet, requests: 1, uniqueVisitors: 10 }, { ...quiet, requests: 3, uniqueVisitors: 25 }),
  ).toBe('+2 pts');
  expect(conversionChange(quiet, { ...quiet, requests: 3, uniqueVisitors: 25 })).toBe('-');
});

test('the text puts each line of the funnel in this week, the week before and the change, with the conversion last', () => {
  const lines = funnelText(
    funnelWeeks(
      fortnight(
        { visits: 20, uniqueVisitors: 10, requests: 1, sent: 1, delivered: 1 },
        { visits: 40, uniqueVisitors: 25, requests: 3, sent: 3, delivered: 1, bounced: 1, complained: 1 },
      ),
    ),
  );
  expect(lines[0]).toBe(
    'Your page, this week (2026-03-02 to 2026-03-08) against the week before (2026-02-23 to 2026-03-01), in whole UTC days:',
  );
  expect(lines[1].trim().split(/ {2,}/)).toEqual(['this week', 'week before', 'change']);
  expect(row(lines, 'visits')).toEqual(['visits', '40', '20', '+20 (+100%)']);
  expect(row(lines, 'unique visitors')).toEqual(['unique visitors', '25', '10', '+15 (+150%)']);
  expect(row(lines, 'requests')).toEqual(['requests', '3', '1', '+2 (+200%)']);
  expect(row(lines, 'sent')).toEqual(['sent', '3', '1', '+2 (+200%)']);
  expect(row(lines, 'delivered')).toEqual(['delivered', '1', '1', '0']);
  expect(row(lines, 'bounced')).toEqual(['bounced', '1', '0', '+1']);
  expect(row(lines, 'complained')).toEqual(['complained', '1', '0', '+1']);
  expect(row(lines, 'conversion')).toEqual(['conversion', '12%', '10%', '+2 pts']);
  expect(lines.at(-1)).toContain('conversion is requests per unique visitor');
});

test('the hand-offs are left out when neither week had one, and shown when either had', () => {
  expect(row(funnelText(funnelWeeks(fortnight({}, {}))), 'handed off')).toBeUndefined();
  expect(row(funnelText(funnelWeeks(fortnight({ handedOff: 2 }, {}))), 'handed off')).toEqual([
    'handed off',
    '0',
    '2',
    '-2 (-100%)',
  ]);
});

test('weeks without a visitor show the conversion as a dash', () => {
  expect(row(funnelText(funnelWeeks(fortnight({}, {}))), 'conversion')).toEqual(['conversion', '-', '-', '-']);
});

test('the HTML is a table with a heading per column and per line, its figures aligned right', () => {
  const styled = funnelHtml(funnelWeeks(fortnight({ visits: 20 }, { visits: 40 })));
  // The figures aligned right, as in the text; the structure read without the styles.
  expect(styled).toContain('<td style="text-align:right;padding-left:1em">40</td>');
  const html = styled.replaceAll(/ style="[^"]*"/g, '');
  expect(html).toContain(
    '<tr><th scope="col"></th><th scope="col">this week</th><th scope="col">week before</th><th scope="col">change</th></tr>',
  );
  expect(html).toContain('<tr><th scope="row">visits</th><td>40</td><td>20</td><td>+20 (+100%)</td></tr>');
  expect(html).toContain('<p>Unique visitors count each reader once a day');
  // The footnote's apostrophe, escaped as every text of the e-mail's HTML is.
  expect(html).toContain('site&#39;s own canary');
});
