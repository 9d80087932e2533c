/**
 * The daily send budget through the send handler, against the emulators, with a budget of 3 (set
 * as CHEAT_SHEET_DAILY_SEND_BUDGET, as an operator would). Its own stack: every send counts
 * towards it.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { addressDailyCapItemId } from '../../../core/data/address-hash';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../support/http-api-events';

type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

// A dozen sends a test, on a machine other test files share.
jest.setTimeout(30_000);

let emulators: HandlerStack;
let send: Handler;
let save: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack({ dailySendBudget: 3, clientHourlySendCap: 10 });
  ({ handler: send } = await import('../../../lambdas/send-cheat-sheet/handler'));
  ({ handler: save } = await import('../../../lambdas/save-request/handler'));
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.budget.${visitorNumber}@example.com` });
const fromClient = (visitor: object, client: number) =>
  postEvent(sendRoute, visitor, { sourceIp: `192.0.2.${client}` });

describe('the daily send budget', () => {
  test('lets exactly the budget through when many clients send at once, and refuses the rest with 503', async () => {
    const visitors = Array.from({ length: 6 }, () => newVisitor());

    const replies = await Promise.all(visitors.map((visitor, index) => send(fromClient(visitor, index + 1))));

    expect(replies.map((reply) => reply.statusCode).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([
      200, 200, 200, 503, 503, 503,
    ]);
    expect(await emulators.emails()).toHaveLength(3);
    for (const reply of replies.filter((candidate) => candidate.statusCode === 503)) {
      expect(replyJson(reply)).toEqual({
        success: false,
        error: "We can't send the cheat sheet right now. Please try again later.",
        code: 'daily_send_budget_spent',
      });
    }
  });

  test('once spent, sends nothing, but the save route still records the request for the author', async () => {
    const visitor = newVisitor();

    const saved = await save(postEvent(saveRoute, visitor));
    const sent = await send(fromClient(visitor, 100));

    expect(saved.statusCode).toBe(201);
    expect(sent.statusCode).toBe(503);
    expect(await emulators.emails(visitor.email)).toEqual([]);
    expect(await emulators.items(visitor.email)).toEqual([
      expect.objectContaining({ id: replyJson(saved).id, cheat_sheet_sent: false }),
    ]);
  });

  test("a refusal by the budget uses none of the client's sends nor the address's", async () => {
    const visitor = newVisitor();
    for (let attempt = 0; attempt < 12; attempt += 1) {
      expect((await send(fromClient(visitor, 101))).statusCode).toBe(503);
    }

    // Twelve refusals, yet the client's 10 an hour and the address's 3 a day, both checked before
    // the budget, are untouched: the answer is still the budget's 503, never their 429.
    expect((await send(fromClient(visitor, 101))).statusCode).toBe(503);
    const addressDailyCapItem = (await emulators.addressDailyCapItems()).find(
      (item) => item.id === addressDailyCapItemId(visitor.email, emulators.addressKey),
    );
    expect(addressDailyCapItem?.recent_sends).toEqual([]);
  });
});
