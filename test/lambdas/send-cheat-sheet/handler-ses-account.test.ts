/**
 * The send function when the SES account itself stops it: the sandbox (SES checks the reader's
 * identity too) and a paused sending (the configuration set, or the whole account). SES is
 * aws-ses-v2-local behind the fault injector, answering exactly SES's errors.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { dailySendBudgetSpentMessage, senderNotVerifiedMessage } from '../../../core/api/messages';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../support/http-api-events';

type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

jest.setTimeout(30_000);

let emulators: HandlerStack;
let send: Handler;
let save: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack({ emailFaultInjection: true, clientHourlySendCap: 10, networkHourlySendCap: 30 });
  ({ handler: send } = await import('../../../lambdas/send-cheat-sheet/handler'));
  ({ handler: save } = await import('../../../lambdas/save-request/handler'));
});
afterAll(() => emulators?.stop());
afterEach(() => emulators.stack.setEmailFault(null));

let visitorNumber = 0;
const newVisitor = () => ({ name: 'Ada Lovelace', email: `ada.account.${++visitorNumber}@example.com` });
// A /24 of its own per test, so one test's slots never show in another's counters.
const clientOf = () => `203.0.${visitorNumber}.7`;

/** Every send claimed in the rolling counters (client, network, budget), whatever the bucket. */
async function claimedSends(): Promise<number> {
  return (await emulators.counterItems()).reduce((total, item) => total + (item.sends ?? 0), 0);
}

describe('the SES sandbox', () => {
  test.each([
    ["AccessDeniedException on the reader's identity", 'sandbox-recipient-not-authorized'],
    ['MessageRejected naming the unverified reader', 'sandbox-recipient-not-verified'],
  ] as const)('%s is answered as an unverified sender: 502, sender_not_verified', async (_, fault) => {
    const visitor = newVisitor();
    emulators.stack.setEmailFault(fault);

    const reply = await send(postEvent(sendRoute, visitor, { sourceIp: clientOf() }));

    expect([reply.statusCode, replyJson(reply)]).toEqual([
      502,
      { success: false, error: senderNotVerifiedMessage, code: 'sender_not_verified' },
    ]);
  });
});

describe('paused sending', () => {
  test.each([
    ['the configuration set', 'configuration-set-sending-paused'],
    ['the whole account', 'account-sending-paused'],
  ] as const)('SES paused for %s: 503 with the plain budget message, code sending_paused', async (_, fault) => {
    const visitor = newVisitor();
    emulators.stack.setEmailFault(fault);

    const reply = await send(postEvent(sendRoute, visitor, { sourceIp: clientOf() }));

    expect([reply.statusCode, replyJson(reply)]).toEqual([
      503,
      { success: false, error: dailySendBudgetSpentMessage, code: 'sending_paused' },
    ]);
  });

  test('gives back every slot it claimed: the counters and the address cap hold nothing', async () => {
    const visitor = newVisitor();
    await save(postEvent(saveRoute, visitor, { sourceIp: clientOf() }));
    const before = await claimedSends();
    emulators.stack.setEmailFault('configuration-set-sending-paused');

    await send(postEvent(sendRoute, visitor, { sourceIp: clientOf() }));

    expect(await claimedSends()).toBe(before);
    expect((await emulators.addressDailyCapItems()).flatMap((item) => item.recent_sends)).toEqual([]);
    expect(await emulators.emails(visitor.email)).toEqual([]);
  });
});
