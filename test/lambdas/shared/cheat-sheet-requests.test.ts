/** The request items of the table, against the local DynamoDB (dynalite). */

import { cheatSheetRequestsTable, type CheatSheetRequests } from '../../../lambdas/shared/cheat-sheet-requests';
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

/** Saves one request per minute from `start`; those listed in `sent` are then flagged as sent. */
async function saveRequests(visitor: { name: string; email: string }, count: number, sent: (index: number) => boolean) {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const item = await requests.create(visitor, minutesLater(index));
    if (sent(index)) await requests.markSent(item.id, minutesLater(index));
    ids.push(item.id);
  }
  return ids;
}

describe('the request items', () => {
  test('finds the newest unsent request, skipping newer ones already sent', async () => {
    const visitor = newVisitor();
    const ids = await saveRequests(visitor, 4, (index) => index >= 2);

    expect((await requests.findNewestUnsent(visitor.email))?.id).toBe(ids[1]);
  });

  test('finds an unsent request behind more than a page of sent ones', async () => {
    const visitor = newVisitor();
    const ids = await saveRequests(visitor, 40, (index) => index > 0);

    expect((await requests.findNewestUnsent(visitor.email))?.id).toBe(ids[0]);
  });

  test('stops looking after the newest hundred requests', async () => {
    const visitor = newVisitor();
    await saveRequests(visitor, 101, (index) => index > 0);

    expect(await requests.findNewestUnsent(visitor.email)).toBeUndefined();
  });

  test("finds nothing when all the address's requests are sent, or it has none", async () => {
    const visitor = newVisitor();
    await saveRequests(visitor, 2, () => true);

    expect(await requests.findNewestUnsent(visitor.email)).toBeUndefined();
    expect(await requests.findNewestUnsent(newVisitor().email)).toBeUndefined();
  });

  test('flags a request once: a second flag reports it is no longer unsent', async () => {
    const item = await requests.create(newVisitor(), start);

    expect(await requests.markSent(item.id, start)).toBe(true);
    expect(await requests.markSent(item.id, start)).toBe(false);
  });

  test('records a send with no request as one sent item with every contract field', async () => {
    const visitor = newVisitor();

    const item = await requests.createSent(visitor, start);

    expect(await emulators.items(visitor.email)).toEqual([
      {
        id: item.id,
        ...visitor,
        cheat_sheet_sent: true,
        requested_at: start.toISOString(),
        sent_at: start.toISOString(),
      },
    ]);
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

  test('so does the item recording a send that had no request to flag', async () => {
    const visitor = newVisitor();
    await retained().createSent(visitor, start);

    expect((await emulators.items(visitor.email))[0]).toMatchObject({
      cheat_sheet_sent: true,
      expires_at: thirtyDaysOn,
    });
  });

  test('without one, items carry no expiry', async () => {
    const visitor = newVisitor();
    await requests.create(visitor, start);
    await requests.createSent(visitor, minutesLater(1));

    for (const item of await emulators.items(visitor.email)) expect(item).not.toHaveProperty('expires_at');
  });
});
