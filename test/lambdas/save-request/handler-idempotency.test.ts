/**
 * The save route's `Idempotency-Key` and the consent it records, through the real handler and
 * the SDK against the emulators.
 */

import { randomUUID } from 'node:crypto';
import { cheatSheetFormVersion, mailingListChoice } from '../../../core/content/cheat-sheet';
import { withFreshHandler } from '../support/fresh-handler';
import { privacyVersion } from '../../../core/content/privacy';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

let emulators: HandlerStack;
let save: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack();
  save = documented(((await import('../../../lambdas/save-request/handler')) as { handler: Handler }).handler);
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Saved ${++visitorNumber}`, email: `ada.saved.${visitorNumber}@example.com` });
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

async function savesCounted(): Promise<number> {
  return (await emulators.counterItems())
    .filter((item) => item.id.startsWith('save-client#'))
    .reduce((total, item) => total + (item.sends ?? 0), 0);
}

describe('save-request handler with an Idempotency-Key', () => {
  test('two posts with one key and one body store one request, count one save, and answer the same 201', async () => {
    const visitor = newVisitor();
    const key = randomUUID();
    const counted = await savesCounted();

    const first = await save(postEvent(saveRoute, visitor, withKey(key)));
    const second = await save(postEvent(saveRoute, visitor, withKey(key)));

    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(replyJson(second)).toEqual(replyJson(first));
    expect(await emulators.items(visitor.email)).toEqual([expect.objectContaining({ id: replyJson(first).id })]);
    expect(await savesCounted()).toBe(counted + 1);
  });

  test('the same key with another body gets 422 and stores nothing', async () => {
    const visitor = newVisitor();
    const key = randomUUID();
    await save(postEvent(saveRoute, visitor, withKey(key)));

    const reply = await save(postEvent(saveRoute, { ...visitor, name: 'Someone Else' }, withKey(key)));

    expect(reply.statusCode).toBe(422);
    expect(replyJson(reply)).toEqual(expect.objectContaining({ code: 'idempotency_key_reused' }));
    expect(await emulators.items(visitor.email)).toHaveLength(1);
  });
});

describe('save-request handler, consent', () => {
  test("with the page's ticked confirmation, the request holds the consent: when, the words, the privacy page's and the form's versions", async () => {
    const visitor = newVisitor();

    const reply = await save(postEvent(saveRoute, { ...visitor, website: '', hasBook: true }));

    const [item] = await emulators.items(visitor.email);
    expect(item).toEqual(
      expect.objectContaining({
        id: replyJson(reply).id,
        consent: {
          at: item?.requested_at,
          statement: 'I confirm that I have purchased the book',
          privacy_version: privacyVersion,
          form_version: cheatSheetFormVersion,
        },
      }),
    );
  });

  test('without the confirmation (a direct call, as before), the request is stored with no consent', async () => {
    const visitor = newVisitor();

    expect((await save(postEvent(saveRoute, visitor))).statusCode).toBe(201);

    const [item] = await emulators.items(visitor.email);
    expect(item).toBeDefined();
    expect(item).not.toHaveProperty('consent');
  });

  test.each([
    [true, { mailingList: true }],
    [false, {}],
  ])(
    "with a mail provider, the request keeps the reader's answer to the list box with its words (joined: %s)",
    async (joined, answer) => {
      const visitor = newVisitor();
      await withFreshHandler(
        '../../../lambdas/save-request/handler',
        { MAIL_PROVIDER: 'kit' },
        async (kitSave) => {
          expect((await kitSave(postEvent(saveRoute, { ...visitor, hasBook: true, ...answer }))).statusCode).toBe(201);
        },
        documented,
      );

      const [item] = await emulators.items(visitor.email);
      expect(item?.consent).toMatchObject({
        statement: 'I confirm that I have purchased the book',
        mail_provider: 'Kit',
        mailing_list: { joined, statement: mailingListChoice },
      });
    },
  );

  test('a confirmation that is not true or false is refused with 400 and stores nothing', async () => {
    const visitor = newVisitor();

    const reply = await save(postEvent(saveRoute, { ...visitor, hasBook: 'yes' }));

    expect(reply.statusCode).toBe(400);
    expect(replyJson(reply)).toEqual({ error: 'hasBook must be true or false.', code: 'invalid_request' });
    expect(await emulators.items(visitor.email)).toEqual([]);
  });
});
