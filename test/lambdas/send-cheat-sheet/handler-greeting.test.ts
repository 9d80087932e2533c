/**
 * What a visitor types as a name, through the send handler to the e-mail aws-ses-v2-local
 * captured: a lure (a link, a host, a phone number, a bidi trick) appears nowhere in it and the
 * e-mail says `Hello,`; a real name of any script is greeted.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { lureNames, realNames } from '../../support/name-lures';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, sendRoute } from '../support/http-api-events';

type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

jest.setTimeout(30_000);

let emulators: HandlerStack;
let send: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack();
  ({ handler: send } = await import('../../../lambdas/send-cheat-sheet/handler'));
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;

/** Sends the cheat sheet to a fresh address under `name`; the e-mail as captured. */
async function emailTo(name: string) {
  const email = `reader.${++visitorNumber}@example.com`;
  const reply = await send(postEvent(sendRoute, { name, email }));
  expect(reply.statusCode).toBe(200);
  const [captured] = await emulators.emails(email);
  return captured!;
}

test.each(lureNames.map((name) => [JSON.stringify(name), name] as const))(
  'the lure %s appears nowhere in the e-mail, which says Hello,',
  async (_, name) => {
    const email = await emailTo(name);

    const everything = `${email.subject}\n${email.body.text ?? ''}\n${email.body.html ?? ''}`;
    expect(everything).not.toContain(name);
    // Nor any part of it: no host, no number, no reversed text.
    expect(everything).not.toMatch(/evil|secure-login|paypal|lapyap|555 0100|locked account/);
    expect(email.body.text).toContain('Hello,');
  },
);

test.each(realNames.map((name) => [name] as const))('the real name %s is greeted by name', async (name) => {
  const email = await emailTo(name);

  expect(email.body.text).toContain(`Hello ${name},`);
});
