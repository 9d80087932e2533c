/**
 * The weekly digest against the emulators (dynalite, aws-ses-v2-local) through the real AWS SDK:
 * the week's new requests reach the author as the export's CSV, with the counts by delivery status,
 * and the page's funnel, this week against the week before, read from both tables.
 */

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { funnelDayId } from '../../../core/data/funnel';
import { attachmentBytes } from '../../support/captured-emails';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';

const author = 'author@example.com';
/** The e-mail's HTML without its inline styles: the table's cells as they read. */
const withoutStyles = (html = '') => html.replaceAll(/ style="[^"]*"/g, '');
let handlerStack: HandlerStack;
let handler: typeof import('../../../lambdas/lead-digest/handler').handler;

beforeAll(async () => {
  handlerStack = await startHandlerStack();
  process.env.AUTHOR_EMAIL = author;
  ({ handler } = await import('../../../lambdas/lead-digest/handler'));
  const put = (item: Record<string, unknown>) =>
    handlerStack.dynamoDb.send(new PutCommand({ TableName: handlerStack.stack.tableName, Item: item }));
  // Three this week (one written before delivery_status existed), one the week before.
  await put({
    id: 'digest-1',
    name: '=HYPERLINK("http://evil.example")',
    email: 'ada@example.com',
    requested_at: '2026-03-08T09:00:00.000Z',
    cheat_sheet_sent: true,
    sent_at: '2026-03-08T09:00:01.000Z',
    delivery_status: 'delivered',
  });
  await put({
    id: 'digest-2',
    name: "Sam O'Neill",
    email: 'sam@example.com',
    requested_at: '2026-03-06T09:00:00.000Z',
    cheat_sheet_sent: false,
    delivery_status: 'bounced',
  });
  await put({
    id: 'digest-3',
    name: 'Old Item',
    email: 'old@example.com',
    requested_at: '2026-03-05T09:00:00.000Z',
    cheat_sheet_sent: true,
  });
  // The canary's request of the same week: no lead (core/data/canary-mark.ts).
  await put({
    id: 'digest-canary',
    name: 'Site Canary',
    email: 'success+digest-week@simulator.amazonses.com',
    requested_at: '2026-03-07T09:00:00.000Z',
    cheat_sheet_sent: true,
    delivery_status: 'delivered',
    canary: true,
  });
  await put({
    id: 'digest-4',
    name: 'Last Week',
    email: 'last@example.com',
    requested_at: '2026-03-01T06:59:59.000Z',
    cheat_sheet_sent: true,
    delivery_status: 'delivered',
  }); // The funnel's day counts, as the visit function stores them: the first day of each week, this
  // week's last, and one day on each side of the fortnight, which the digest leaves out.
  const dayCounts = [
    { day: '2026-02-22', visits: 77, unique_visitors: 70 },
    { day: '2026-02-23', visits: 20, unique_visitors: 10 },
    { day: '2026-03-02', visits: 30, unique_visitors: 20 },
    { day: '2026-03-08', visits: 10, unique_visitors: 5 },
    { day: '2026-03-09', visits: 99, unique_visitors: 90 },
  ];
  for (const { day, ...counts } of dayCounts) {
    await handlerStack.dynamoDb.send(
      new PutCommand({
        TableName: handlerStack.stack.limitCountersTableName,
        Item: { id: funnelDayId(day), ...counts },
      }),
    );
  }
});

afterAll(async () => {
  delete process.env.AUTHOR_EMAIL;
  await handlerStack?.stop();
});

describe('the digest of the week to Monday 2026-03-09, 07:00 UTC', () => {
  let email: Awaited<ReturnType<HandlerStack['emails']>>[number];
  beforeAll(async () => {
    await handler({ time: '2026-03-09T07:00:00Z' });
    [email] = await handlerStack.emails(author);
  });

  test('is one e-mail to the author, from the sender, naming the count in its subject', () => {
    expect(email.from).toBe(process.env.SENDER_EMAIL);
    expect(email.subject).toBe('Cheat-sheet requests, week to 2026-03-09: 3 new');
  });

  test('counts the requests by delivery status, an item without one as unknown', () => {
    expect(email.body.text).toContain('By delivery status:\n  delivered: 1\n  bounced: 1\n  unknown: 1\n');
  });

  test("attaches the week's requests as the export's CSV, newest first, formulas neutralised", () => {
    const [attachment] = email.attachments;
    expect(attachment.contentType).toContain('text/csv');
    const lines = attachmentBytes(attachment).toString('utf8').split('\r\n');
    // The export's header, whatever columns it has after the first five.
    expect(lines[0]).toMatch(/^name,email,requested_at,cheat_sheet_sent,sent_at(,|$)/);
    expect(lines.slice(1, 4).map((line) => line.split(',')[1])).toEqual([
      'ada@example.com',
      'sam@example.com',
      'old@example.com',
    ]);
    expect(lines[1]).toMatch(/^"'=HYPERLINK\(""http:\/\/evil\.example""\)"/);
    expect(lines[2]).toContain("Sam O'Neill");
    expect(lines.join('\n')).not.toContain('last@example.com');
  });

  test("leaves the canary's request of the week out of the count and the CSV", () => {
    expect(email.subject).toMatch(/: 3 new$/);
    expect(attachmentBytes(email.attachments[0]).toString('utf8')).not.toContain('simulator.amazonses.com');
  });

  test('shows the funnel of the two whole weeks before Monday, this week against the week before, with the change', () => {
    const text = email.body.text ?? '';
    expect(text).toContain(
      'Your page, this week (2026-03-02 to 2026-03-08) against the week before (2026-02-23 to 2026-03-01), in whole UTC days:',
    );
    const row = (label: string) =>
      text
        .split('\n')
        .find((line) => line.trimStart().startsWith(`${label}  `))
        ?.trim()
        .split(/ {2,}/);
    // Visits of 2026-03-02 and 03-08 against 02-23's; Monday's own morning and the day before the fortnight left out.
    expect(row('visits')).toEqual(['visits', '40', '20', '+20 (+100%)']);
    expect(row('unique visitors')).toEqual(['unique visitors', '25', '10', '+15 (+150%)']);
    // digest-1, 2 and 3 this week; digest-4 (Sunday 2026-03-01) the week before.
    expect(row('requests')).toEqual(['requests', '3', '1', '+2 (+200%)']);
    expect(row('sent')).toEqual(['sent', '3', '1', '+2 (+200%)']);
    expect(row('delivered')).toEqual(['delivered', '1', '1', '0']);
    expect(row('bounced')).toEqual(['bounced', '1', '0', '+1']);
    expect(row('conversion')).toEqual(['conversion', '12%', '10%', '+2 pts']);
    expect(withoutStyles(email.body.html)).toContain(
      '<tr><th scope="row">visits</th><td>40</td><td>20</td><td>+20 (+100%)</td></tr>',
    );
  });

  test("counts no canary request in the funnel: its delivered request of 2026-03-07 is not among this week's", () => {
    const requests = (email.body.text ?? '').split('\n').find((line) => line.trimStart().startsWith('requests  '));
    expect(requests?.trim().split(/ {2,}/)[1]).toBe('3');
    expect(withoutStyles(email.body.html)).toContain('<tr><th scope="row">delivered</th><td>1</td>');
  });

  test('puts no name a visitor typed in the body', () => {
    expect(email.body.html).not.toContain('HYPERLINK');
    expect(email.body.html).not.toContain("O'Neill");
  });
});

test("without the counters table's name the digest refuses to run, naming the variable", async () => {
  const saved = process.env.SEND_QUOTA_TABLE_NAME;
  delete process.env.SEND_QUOTA_TABLE_NAME;
  try {
    await expect(handler({ time: '2026-03-09T07:00:00Z' })).rejects.toThrow('SEND_QUOTA_TABLE_NAME missing');
  } finally {
    process.env.SEND_QUOTA_TABLE_NAME = saved;
  }
});

test('without AUTHOR_EMAIL the digest refuses to run, naming what is missing', async () => {
  const saved = process.env.AUTHOR_EMAIL;
  delete process.env.AUTHOR_EMAIL;
  try {
    await expect(handler({ time: '2026-03-09T07:00:00Z' })).rejects.toThrow('AUTHOR_EMAIL missing');
  } finally {
    process.env.AUTHOR_EMAIL = saved;
  }
});
