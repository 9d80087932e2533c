/** The request items of the table, against the local DynamoDB (dynalite). */

import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  cheatSheetRequestsTable,
  submissionItemId,
  type CheatSheetRequests,
} from '../../../lambdas/requests/cheat-sheet-requests';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';

let emulators: HandlerStack;
let requests: CheatSheetRequests;

beforeAll(async () => {
  emulators = await startHandlerStack();
  requests = cheatSheetRequestsTable(emulators.dynamoDb, emulators.stack.tableName);
});
afterAll(() => emulators?.stop());

const start = new Date('2025-06-01T12:00:00.000Z');
const minutesLater = (minutes: number) => new Date(start.getTime() + minutes * 60_000);

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada ${++visitorNumber}`, email: `ada.requests.${visitorNumber}@example.com` });

/**
 * Saves one request per minute from `start`, in parallel (their times, not the order of writes,
 * order them); those listed in `sent` are stored as the send function leaves them once SES accepted.
 */
async function saveRequests(visitor: { name: string; email: string }, count: number, sent: (index: number) => boolean) {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      if (!sent(index)) return (await requests.create(visitor, minutesLater(index))).id;
      const id = `sent-${visitor.email}-${index}`;
      const at = minutesLater(index).toISOString();
      await emulators.dynamoDb.send(
        new PutCommand({
          TableName: emulators.stack.tableName,
          Item: { id, ...visitor, cheat_sheet_sent: true, requested_at: at, sent_at: at, delivery_status: 'sent' },
        }),
      );
      return id;
    }),
  );
}

describe('the request items', () => {
  test('finds the newest claimable request, skipping newer ones already sent', async () => {
    const visitor = newVisitor();
    const ids = await saveRequests(visitor, 4, (index) => index >= 2);

    expect((await requests.findNewestClaimable(visitor.email))?.id).toBe(ids[1]);
  });

  test('finds a claimable request behind more than a page of sent ones', async () => {
    const visitor = newVisitor();
    const ids = await saveRequests(visitor, 40, (index) => index > 0);

    expect((await requests.findNewestClaimable(visitor.email))?.id).toBe(ids[0]);
  });

  test('stops looking after the newest hundred requests', async () => {
    const visitor = newVisitor();
    await saveRequests(visitor, 101, (index) => index > 0);

    expect(await requests.findNewestClaimable(visitor.email)).toBeUndefined();
  }, 15_000);

  test("finds nothing when all the address's requests are sent, or it has none", async () => {
    const visitor = newVisitor();
    await saveRequests(visitor, 2, () => true);

    expect(await requests.findNewestClaimable(visitor.email)).toBeUndefined();
    expect(await requests.findNewestClaimable(newVisitor().email)).toBeUndefined();
  });

  test('a saved request is requested, with the time of that status', async () => {
    const visitor = newVisitor();
    const item = await requests.create(visitor, start);

    expect(await emulators.items(visitor.email)).toEqual([
      {
        id: item.id,
        ...visitor,
        cheat_sheet_sent: false,
        requested_at: start.toISOString(),
        delivery_status: 'requested',
        status_at: start.toISOString(),
        unsent_queue: 'unsent',
      },
    ]);
  });

  test('a request is claimed once: a second claim with another token is refused, a retry with the same token is not', async () => {
    const item = await requests.create(newVisitor(), start);

    expect(await requests.claim(item.id, 'first', minutesLater(1))).toBe(true);
    expect(await requests.claim(item.id, 'second', minutesLater(1))).toBe(false);
    expect(await requests.claim(item.id, 'first', minutesLater(1))).toBe(true);
  });

  test('records sent with the message id and a time per change, only under the token that holds it', async () => {
    const visitor = newVisitor();
    const item = await requests.create(visitor, start);
    await requests.claim(item.id, 'token', minutesLater(1));

    expect(await requests.markSent(item.id, 'another', 'message-x', minutesLater(2))).toBe('not-held');
    expect(await requests.markSent(item.id, 'token', 'message-1', minutesLater(2))).toBe('recorded');
    expect((await emulators.items(visitor.email))[0]).toMatchObject({
      cheat_sheet_sent: true,
      delivery_status: 'sent',
      ses_message_id: 'message-1',
      requested_at: start.toISOString(),
      sending_at: minutesLater(1).toISOString(),
      sent_at: minutesLater(2).toISOString(),
      status_at: minutesLater(2).toISOString(),
    });
  });

  test('a late sent never overwrites the bounce SES reported first, and says so', async () => {
    const visitor = newVisitor();
    const item = await requests.create(visitor, start);
    await requests.claim(item.id, 'token', minutesLater(1));
    await emulators.dynamoDb.send(
      new UpdateCommand({
        TableName: emulators.stack.tableName,
        Key: { id: item.id },
        UpdateExpression: 'SET delivery_status = :bounced, ses_message_id = :message, cheat_sheet_sent = :sent',
        ExpressionAttributeValues: { ':bounced': 'bounced', ':message': 'message-1', ':sent': true },
      }),
    );

    expect(await requests.markSent(item.id, 'token', 'message-1', minutesLater(2))).toBe('verdict-first');
    expect(await requests.markFailed(item.id, 'token', 'email_service_unavailable', minutesLater(2))).toBe(false);
    expect(await requests.markUnknown(item.id, 'token', minutesLater(2))).toBe(false);
    expect((await emulators.items(visitor.email))[0]).toMatchObject({ delivery_status: 'bounced' });
  });

  test("the send's writes apply only from sending: a request already failed is not moved to sent", async () => {
    const visitor = newVisitor();
    const item = await requests.create(visitor, start);
    await requests.claim(item.id, 'token', minutesLater(1));
    await requests.markFailed(item.id, 'token', 'email_service_unavailable', minutesLater(2));

    expect(await requests.markSent(item.id, 'token', 'message-1', minutesLater(3))).toBe('not-held');
    expect((await emulators.items(visitor.email))[0]).toMatchObject({
      delivery_status: 'failed',
      cheat_sheet_sent: false,
    });
  });

  test("a submission's key names one request: a second save of it stores nothing and finds the first", async () => {
    const visitor = newVisitor();
    const key = `key-${visitor.email}`;

    const first = await requests.create(visitor, start, key);
    const again = await requests.create(visitor, minutesLater(1), key);

    expect(first).toMatchObject({ id: submissionItemId(key), submission_key: key, created: true });
    expect(again).toMatchObject({ id: first.id, requested_at: start.toISOString(), created: false });
    expect(await requests.findBySubmissionKey(key)).toMatchObject({ id: first.id });
    expect(await requests.createSending(visitor, 'token', minutesLater(2), key)).toBeUndefined();
    expect(await emulators.items(visitor.email)).toHaveLength(1);
  });

  test("a submission's request is claimed with one write that answers the item, only for the address it was saved for", async () => {
    const visitor = newVisitor();
    const key = `key-claim-${visitor.email}`;
    await requests.create(visitor, start, key);

    expect(await requests.claimSubmission(key, 'someone.else@example.com', 'token-a', minutesLater(1))).toBeUndefined();
    const claimed = await requests.claimSubmission(key, visitor.email, 'token-b', minutesLater(1));
    expect(claimed).toMatchObject({ id: submissionItemId(key), delivery_status: 'sending', send_token: 'token-b' });
    expect(await requests.claimSubmission(key, visitor.email, 'token-c', minutesLater(2))).toBeUndefined();
    expect(
      await requests.claimSubmission(`key-never-saved-${visitor.email}`, visitor.email, 'token-d', start),
    ).toBeUndefined();
  });

  test("a sent request supersedes the mailbox's older claimable ones, not the newer one nor one being sent", async () => {
    const visitor = newVisitor();
    const older = await requests.create(visitor, start);
    const held = await requests.create(visitor, minutesLater(1));
    await requests.claim(held.id, 'other-send', minutesLater(1));
    const sent = await requests.create(visitor, minutesLater(2));
    const newer = await requests.create(visitor, minutesLater(3));

    const marked = await requests.supersedeOlder(sent, minutesLater(4));

    expect(marked).toEqual([older.id]);
    expect(await requests.claim(older.id, 'resend', minutesLater(5))).toBe(false);
    expect(await requests.claim(newer.id, 'resend', minutesLater(5))).toBe(true);
    expect(await requests.findById(older.id)).toMatchObject({ superseded_by: sent.id, delivery_status: 'requested' });
  });

  test('submission ids are UUIDs, one per key', () => {
    expect(submissionItemId('a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(submissionItemId('a')).not.toBe(submissionItemId('b'));
  });

  test('a failed request may be claimed again; an unknown one may not', async () => {
    const failed = await requests.create(newVisitor(), start);
    await requests.claim(failed.id, 'token', start);
    await requests.markFailed(failed.id, 'token', 'email_service_unavailable', minutesLater(1));
    const unknown = await requests.create(newVisitor(), start);
    await requests.claim(unknown.id, 'token', start);
    await requests.markUnknown(unknown.id, 'token', minutesLater(1));

    expect(await requests.claim(failed.id, 'resend', minutesLater(2))).toBe(true);
    expect(await requests.claim(unknown.id, 'resend', minutesLater(2))).toBe(false);
  });

  test('an item written before delivery_status existed, never sent, may be claimed', async () => {
    const visitor = newVisitor();
    await emulators.dynamoDb.send(
      new PutCommand({
        TableName: emulators.stack.tableName,
        Item: { id: `old-${visitor.email}`, ...visitor, cheat_sheet_sent: false, requested_at: start.toISOString() },
      }),
    );

    expect((await requests.findNewestClaimable(visitor.email))?.id).toBe(`old-${visitor.email}`);
    expect(await requests.claim(`old-${visitor.email}`, 'token', start)).toBe(true);
    // Claimed, it joins the unsent index it predates.
    expect((await emulators.items(visitor.email))[0]).toMatchObject({ unsent_queue: 'unsent' });
  });

  test('records a send with no request as one item, sending, with every contract field', async () => {
    const visitor = newVisitor();

    const item = await requests.createSending(visitor, 'token', start);

    expect(await emulators.items(visitor.email)).toEqual([
      {
        id: item?.id,
        ...visitor,
        cheat_sheet_sent: false,
        requested_at: start.toISOString(),
        delivery_status: 'sending',
        status_at: start.toISOString(),
        sending_at: start.toISOString(),
        send_token: 'token',
        unsent_queue: 'unsent',
      },
    ]);
  });

  test('a request is in the unsent index while requested, sending or failed, and leaves it once sent or unknown', async () => {
    const inIndex = async (email: string) => 'unsent_queue' in ((await emulators.items(email))[0] ?? {});
    const sent = newVisitor();
    const sentItem = await requests.create(sent, start);
    await requests.claim(sentItem.id, 'token', minutesLater(1));
    expect(await inIndex(sent.email)).toBe(true);
    await requests.markSent(sentItem.id, 'token', 'message-1', minutesLater(2));
    expect(await inIndex(sent.email)).toBe(false);

    const failed = newVisitor();
    const failedItem = await requests.create(failed, start);
    await requests.claim(failedItem.id, 'token', minutesLater(1));
    await requests.markFailed(failedItem.id, 'token', 'email_service_unavailable', minutesLater(2));
    expect(await inIndex(failed.email)).toBe(true);

    const unknown = newVisitor();
    const unknownItem = (await requests.createSending(unknown, 'token', start))!;
    await requests.markUnknown(unknownItem.id, 'token', minutesLater(1));
    expect(await inIndex(unknown.email)).toBe(false);
  });
});

describe('with a retention period', () => {
  const retained = () => cheatSheetRequestsTable(emulators.dynamoDb, emulators.stack.tableName, { retentionDays: 30 });
  const thirtyDaysOn = Math.ceil(start.getTime() / 1000) + 30 * 24 * 60 * 60;

  test('a saved request carries its expiry in epoch seconds, that many days after it was made', async () => {
    const visitor = newVisitor();
    await retained().create(visitor, start);

    expect((await emulators.items(visitor.email))[0]).toMatchObject({ expires_at: thirtyDaysOn });
  });

  test('so does the item recording a send that had no request to claim', async () => {
    const visitor = newVisitor();
    await retained().createSending(visitor, 'token', start);

    expect((await emulators.items(visitor.email))[0]).toMatchObject({
      delivery_status: 'sending',
      expires_at: thirtyDaysOn,
    });
  });

  test('without one, items carry no expiry', async () => {
    const visitor = newVisitor();
    await requests.create(visitor, start);
    await requests.createSending(visitor, 'token', minutesLater(1));

    for (const item of await emulators.items(visitor.email)) expect(item).not.toHaveProperty('expires_at');
  });
});
