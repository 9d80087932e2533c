/**
 * The weekly digest against the emulators (dynalite, aws-ses-v2-local) through the real AWS SDK:
 * the week's new requests reach the author as the export's CSV, with the counts by delivery status.
 */

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { attachmentBytes } from '../../support/captured-emails';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';

const author = 'author@example.com';
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
  });
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

  test('puts no name a visitor typed in the body', () => {
    expect(email.body.html).not.toContain('HYPERLINK');
    expect(email.body.html).not.toContain("O'Neill");
  });
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
