/**
 * The per-client hourly limit through the form route, against the emulators, with a limit of 2:
 * the form runs the send route's own handler, so its sends and the page's JSON sends count
 * against the one counter of their client.
 */

import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { formEvent, postEvent, saveRoute, sendRoute } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

jest.setTimeout(30_000);

let emulators: HandlerStack;
let form: Handler;
let save: Handler;
let send: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack({ clientHourlySendCap: 2 });
  form = documented((await import('../../../lambdas/submit-form/handler')).handler);
  ({ handler: save } = await import('../../../lambdas/save-request/handler'));
  ({ handler: send } = await import('../../../lambdas/send-cheat-sheet/handler'));
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.client.${visitorNumber}@example.com` });

test("refuses a client's third send in the hour whichever route it came by: the Error Processing Request page, the request saved unsent", async () => {
  const client = { sourceIp: '198.51.100.21' };
  for (const visitor of [newVisitor(), newVisitor()]) {
    await save(postEvent(saveRoute, visitor, client));
    expect((await send(postEvent(sendRoute, visitor, client))).statusCode).toBe(200);
  }
  const third = newVisitor();

  const reply = await form(formEvent({ ...third, hasBook: 'on' }, client));

  expect(reply).toMatchObject({ statusCode: 303, headers: { Location: '/cheat-sheet/not-sent' } });
  expect(await emulators.items(third.email)).toEqual([expect.objectContaining({ cheat_sheet_sent: false })]);
  expect(await emulators.emails(third.email)).toEqual([]);
});

test("counts the form's sends against its client: a JSON send after two form sends is refused (429)", async () => {
  const client = { sourceIp: '198.51.100.22' };
  for (const visitor of [newVisitor(), newVisitor()]) {
    expect(await form(formEvent({ ...visitor, hasBook: 'on' }, client))).toMatchObject({
      headers: { Location: '/cheat-sheet/sent' },
    });
  }

  expect((await send(postEvent(sendRoute, newVisitor(), client))).statusCode).toBe(429);
  expect(await form(formEvent({ ...newVisitor(), hasBook: 'on' }, { sourceIp: '198.51.100.23' }))).toMatchObject({
    headers: { Location: '/cheat-sheet/sent' },
  });
});
