/**
 * The daily send budget through the form route, against the emulators, with a budget of 2. Its
 * own stack: every send counts towards it, the JSON route's and the form's alike.
 */

import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { formEvent, postEvent, sendRoute } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

jest.setTimeout(30_000);

let emulators: HandlerStack;
let form: Handler;
let send: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack({ dailySendBudget: 2, clientHourlySendCap: 10 });
  form = documented((await import('../../../lambdas/submit-form/handler')).handler);
  ({ handler: send } = await import('../../../lambdas/send-cheat-sheet/handler'));
});
afterAll(() => emulators?.stop());

test('once the JSON route and the form have spent the budget, the form lands on Error Processing Request, the request saved unsent', async () => {
  const visitors = [1, 2, 3].map((n) => ({ name: `Ada Owner ${n}`, email: `ada.form-budget.${n}@example.com` }));
  expect((await send(postEvent(sendRoute, visitors[0], { sourceIp: '192.0.2.31' }))).statusCode).toBe(200);
  expect(await form(formEvent({ ...visitors[1], hasBook: 'on' }, { sourceIp: '192.0.2.32' }))).toMatchObject({
    headers: { Location: '/cheat-sheet/sent' },
  });

  const reply = await form(formEvent({ ...visitors[2], hasBook: 'on' }, { sourceIp: '192.0.2.33' }));

  expect(reply).toMatchObject({ statusCode: 303, headers: { Location: '/cheat-sheet/not-sent' } });
  expect(await emulators.items(visitors[2].email)).toEqual([expect.objectContaining({ cheat_sheet_sent: false })]);
  expect(await emulators.emails()).toHaveLength(2);
});
