/**
 * The form route's function through the real AWS SDK against the emulators: the form as a
 * browser posts it when the page's script does not, saved then sent, answered with a 303 to the
 * outcome's page, or refused with a 4xx page that stores and sends nothing. SES faults come from
 * the fault injector in front of aws-ses-v2-local.
 */

import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { cheatSheetFileName, cheatSheetFormVersion, mailingListChoice } from '../../../core/content/cheat-sheet';
import { withFreshHandler } from '../support/fresh-handler';
import { privacyVersion } from '../../../core/content/privacy';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { base64Event, formEvent, plainBodyEvent, postEvent, withMethod, formRoute } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';
import { formKeyWindowMs } from '../../../lambdas/submit-form/form-key';
import { setTimeout as sleep } from 'node:timers/promises';

let emulators: HandlerStack;
let handler: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack({ senderEmail: 'cheatsheet@example.com', emailFaultInjection: true });
  handler = documented((await import('../../../lambdas/submit-form/handler')).handler);
});
afterAll(() => emulators?.stop());
afterEach(() => emulators.stack.setEmailFault(null));

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.form.${visitorNumber}@example.com` });
const ticked = (visitor: { name: string; email: string }) => ({ ...visitor, hasBook: 'on' });

const resultPages = [
  '/cheat-sheet/sent',
  '/cheat-sheet/not-confirmed',
  '/cheat-sheet/email-configuration-error',
  '/cheat-sheet/not-sent',
];

/** A 303 to `page`, never cached, with no body: the browser shows that page, and its URL holds no field. */
function expectRedirectTo(reply: APIGatewayProxyStructuredResultV2, page: string) {
  expect(reply.statusCode).toBe(303);
  expect(reply.headers).toEqual({ Location: page, 'Cache-Control': 'no-store' });
  expect(resultPages).toContain(page);
  expect(reply.body ?? '').toBe('');
}

/** A refusal page: the status, HTML never cached, the reason and the way back to the form. */
function expectRefusalPage(reply: APIGatewayProxyStructuredResultV2, status: number, reason: string) {
  expect(reply.statusCode).toBe(status);
  expect(reply.headers).toMatchObject({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  expect(reply.body).toMatch(/^<!doctype html>/);
  expect(reply.body).toContain(`<p>${reason.replaceAll("'", '&#39;')}</p>`);
  expect(reply.body).toContain('<a href="/#download-section">Back to the form</a>');
}

describe('the form route, ticked and valid', () => {
  test('saves the request, e-mails the PDF, flags the request as sent and redirects to Cheat Sheet Sent', async () => {
    const visitor = newVisitor();

    const reply = await handler(formEvent(ticked(visitor)));

    expectRedirectTo(reply, '/cheat-sheet/sent');
    const items = await emulators.items(visitor.email);
    expect(items).toEqual([
      expect.objectContaining({ name: visitor.name, email: visitor.email, cheat_sheet_sent: true }),
    ]);
    expect(typeof items[0]!.sent_at).toBe('string');
    const emails = await emulators.emails(visitor.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.attachments[0]).toMatchObject({ filename: cheatSheetFileName, contentType: 'application/pdf' });
    expect(Buffer.from(emails[0]!.attachments[0]!.content, 'base64').equals(Buffer.from(emulators.pdf))).toBe(true);
  });

  test('takes the body as text too, when it is not base64-encoded', async () => {
    const visitor = newVisitor();

    const reply = await handler(plainBodyEvent(formEvent(ticked(visitor))));

    expectRedirectTo(reply, '/cheat-sheet/sent');
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
  });

  test('decodes the fields as a browser encodes them: + for spaces, UTF-8 percent-escapes', async () => {
    const reply = await handler(formEvent('name=Jos%C3%A9+N%C3%BA%C3%B1ez&email=Jose.Form%40Example.com&hasBook=on'));

    expectRedirectTo(reply, '/cheat-sheet/sent');
    expect(await emulators.items('jose.form@example.com')).toEqual([
      expect.objectContaining({ name: 'José Núñez', cheat_sheet_sent: true }),
    ]);
  });

  test('accepts a charset=utf-8 on the content type', async () => {
    const visitor = newVisitor();

    const reply = await handler(
      formEvent(ticked(visitor), { contentType: 'application/x-www-form-urlencoded; charset=UTF-8' }),
    );

    expectRedirectTo(reply, '/cheat-sheet/sent');
  });

  test('sends the address a fourth time in 24 hours to nobody: the Error Processing Request page', async () => {
    const visitor = newVisitor();
    // From four clients: one client's repeats within ten minutes are one post (the next test).
    const fromClient = (client: number) => ({ sourceIp: `198.51.100.${client}` });
    for (let sent = 0; sent < 3; sent += 1)
      expectRedirectTo(await handler(formEvent(ticked(visitor), fromClient(sent + 1))), '/cheat-sheet/sent');

    expectRedirectTo(await handler(formEvent(ticked(visitor), fromClient(4))), '/cheat-sheet/not-sent');
    expect(await emulators.emails(visitor.email)).toHaveLength(3);
  });

  test('a double post (twice in turn, then twice more at once) saves one request and sends one e-mail', async () => {
    const visitor = newVisitor();
    // The four posts must share one key window: a run that starts in a window's last 5 s waits for
    // the next (a post across the edge is a new key by design, form-key.ts).
    const intoWindow = Date.now() % formKeyWindowMs;
    if (intoWindow > formKeyWindowMs - 5_000) await sleep(formKeyWindowMs - intoWindow + 50);

    const replies = [await handler(formEvent(ticked(visitor))), await handler(formEvent(ticked(visitor)))];
    replies.push(...(await Promise.all([handler(formEvent(ticked(visitor))), handler(formEvent(ticked(visitor)))])));

    for (const reply of replies) expectRedirectTo(reply, '/cheat-sheet/sent');
    expect(await emulators.items(visitor.email)).toHaveLength(1);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
  });

  test("a repeat from the same client with the address's other spelling is the same post", async () => {
    const visitor = { name: 'Ada Dots', email: 'ada.dots.form@gmail.com' };

    expectRedirectTo(await handler(formEvent(ticked(visitor))), '/cheat-sheet/sent');
    expectRedirectTo(
      await handler(formEvent(ticked({ ...visitor, email: 'adadots.form+again@gmail.com' }))),
      '/cheat-sheet/sent',
    );

    expect(await emulators.emails('adadots.form+again@gmail.com')).toEqual([]);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
  });

  test("records the reader's consent on the saved request: when, the words ticked, the privacy page's and the form's versions", async () => {
    const visitor = newVisitor();

    expectRedirectTo(await handler(formEvent(ticked(visitor))), '/cheat-sheet/sent');

    const [item] = await emulators.items(visitor.email);
    expect(item?.consent).toEqual({
      at: item?.requested_at,
      statement: 'I confirm that I have purchased the book',
      privacy_version: privacyVersion,
      form_version: cheatSheetFormVersion,
    });
  });
});

describe('the form route, with a mail provider', () => {
  const withMailchimp = <T>(use: (formHandler: Handler) => Promise<T>) =>
    withFreshHandler('../../../lambdas/submit-form/handler', { MAIL_PROVIDER: 'mailchimp' }, use, documented);

  test("a reader who ticks the list box: the request records it, and the e-mail says they joined the author's list", async () => {
    const visitor = newVisitor();

    await withMailchimp(async (formHandler) => {
      expectRedirectTo(await formHandler(formEvent({ ...ticked(visitor), mailingList: 'on' })), '/cheat-sheet/sent');
    });

    const [item] = await emulators.items(visitor.email);
    expect(item?.consent?.mailing_list).toEqual({ joined: true, statement: mailingListChoice });
    const [email] = await emulators.emails(visitor.email);
    expect(email?.body.text).toContain(
      "You also asked to join the author's mailing list: its e-mails come from Mailchimp",
    );
    expect(email?.body.text).not.toContain('It is the only e-mail we send you.');
  });

  test('a reader who leaves it unticked: recorded as not joined, and the e-mail is the only one', async () => {
    const visitor = newVisitor();

    await withMailchimp(async (formHandler) => {
      expectRedirectTo(await formHandler(formEvent(ticked(visitor))), '/cheat-sheet/sent');
    });

    const [item] = await emulators.items(visitor.email);
    expect(item?.consent?.mailing_list).toEqual({ joined: false, statement: mailingListChoice });
    const [email] = await emulators.emails(visitor.email);
    expect(email?.body.text).toContain('It is the only e-mail we send you.');
  });
});

describe('the form route, not sent', () => {
  test('with the box unticked, redirects to Verification Required and stores and sends nothing', async () => {
    const visitor = newVisitor();

    const reply = await handler(formEvent(visitor));

    expectRedirectTo(reply, '/cheat-sheet/not-confirmed');
    expect(await emulators.items(visitor.email)).toEqual([]);
    expect(await emulators.emails(visitor.email)).toEqual([]);
  });

  test('with the box sent as anything but on, counts it unticked', async () => {
    const visitor = newVisitor();

    expectRedirectTo(await handler(formEvent({ ...visitor, hasBook: 'true' })), '/cheat-sheet/not-confirmed');
    expect(await emulators.items(visitor.email)).toEqual([]);
  });

  test('with the honeypot filled, answers as on success and stores and sends nothing', async () => {
    const visitor = newVisitor();

    const reply = await handler(formEvent({ ...ticked(visitor), website: 'https://spam.example/' }));

    expectRedirectTo(reply, '/cheat-sheet/sent');
    expect(await emulators.items(visitor.email)).toEqual([]);
    expect(await emulators.emails(visitor.email)).toEqual([]);
  });

  test.each([
    ['an unverified sender identity', 'unverified-sender'],
    ['an unverified MAIL FROM domain', 'unverified-mail-from-domain'],
  ] as const)(
    'SES refusing %s: the request is saved unsent, nothing is e-mailed, the email configuration page',
    async (_, fault) => {
      const visitor = newVisitor();
      emulators.stack.setEmailFault(fault);

      const reply = await handler(formEvent(ticked(visitor)));

      expectRedirectTo(reply, '/cheat-sheet/email-configuration-error');
      expect(await emulators.items(visitor.email)).toEqual([expect.objectContaining({ cheat_sheet_sent: false })]);
      expect(await emulators.emails(visitor.email)).toEqual([]);
    },
  );

  test('SES failing: the request is saved unsent, the Error Processing Request page', async () => {
    const visitor = newVisitor();
    emulators.stack.setEmailFault('internal-error');

    const reply = await handler(formEvent(ticked(visitor)));

    expectRedirectTo(reply, '/cheat-sheet/not-sent');
    expect(await emulators.items(visitor.email)).toEqual([expect.objectContaining({ cheat_sheet_sent: false })]);
  });

  test('SES throttling: the Cheat Sheet Sent page, and the queued sender sends it once SES takes it again', async () => {
    const visitor = newVisitor();
    emulators.stack.setEmailFault('throttled');

    const reply = await handler(formEvent(ticked(visitor)));
    emulators.stack.setEmailFault(null);

    expectRedirectTo(reply, '/cheat-sheet/sent');
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    expect(await emulators.items(visitor.email)).toEqual([expect.objectContaining({ delivery_status: 'sent' })]);
  });
});

const valid = { name: 'Ada Refused', email: 'ada.refused@example.com', hasBook: 'on' };
const form = (fields: Record<string, string>) => () => formEvent(fields);

describe('the form route refuses a request it cannot take, with a page, storing and sending nothing', () => {
  test.each([
    ['no name', form({ email: valid.email, hasBook: 'on' }), 400, 'Please enter your name.'],
    ['an empty name', form({ ...valid, name: '' }), 400, 'Please enter your name.'],
    ['a name of spaces', form({ ...valid, name: '   ' }), 400, 'Please enter your name.'],
    [
      'a name of 101 characters',
      form({ ...valid, name: 'A'.repeat(101) }),
      400,
      'Name must be at most 100 characters.',
    ],
    [
      'a name that looks like a link',
      form({ ...valid, name: 'Ada visit evil.example' }),
      400,
      'Please enter just your name.',
    ],
    ['no email', form({ name: valid.name, hasBook: 'on' }), 400, 'Please enter your email address.'],
    ['a malformed email', form({ ...valid, email: 'ada.example.com' }), 400, 'Please enter a valid email address.'],
    [
      'an email with a CRLF header injection',
      form({ ...valid, email: 'ada@example.com\r\nBcc: victim@example.com' }),
      400,
      'Please enter a valid email address.',
    ],
    ['an empty body', () => formEvent(''), 400, 'Please enter your name.'],
    [
      'a body that is not UTF-8',
      // Latin-1 'é' (0xE9) where UTF-8 is required: `name=é`.
      () => ({
        ...formEvent(''),
        body: Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3d, 0xe9]).toString('base64'),
        isBase64Encoded: true,
      }),
      400,
      'The request body is not valid UTF-8 text.',
    ],
    [
      'a body over 10 KB',
      form({ ...valid, padding: 'x'.repeat(10 * 1024) }),
      413,
      'The request body is larger than 10 KB.',
    ],
    [
      'a JSON body',
      () => postEvent(formRoute, valid, { headers: { 'sec-fetch-site': 'same-origin' } }),
      415,
      'Please send the form as a browser does (Content-Type: application/x-www-form-urlencoded).',
    ],
    [
      'no content type',
      () => formEvent(valid, { contentType: null }),
      415,
      'Please send the form as a browser does (Content-Type: application/x-www-form-urlencoded).',
    ],
    [
      'a multipart form',
      () => formEvent(valid, { contentType: 'multipart/form-data; boundary=x' }),
      415,
      'Please send the form as a browser does (Content-Type: application/x-www-form-urlencoded).',
    ],
    [
      "another site's page posting it",
      () => formEvent(valid, { headers: { 'sec-fetch-site': 'cross-site' } }),
      403,
      "The form can only be sent from this site's own page.",
    ],
    [
      'a sibling subdomain posting it',
      () => formEvent(valid, { headers: { 'sec-fetch-site': 'same-site' } }),
      403,
      "The form can only be sent from this site's own page.",
    ],
  ] as const)('%s', async (_, event, status, reason) => {
    const itemsBefore = (await emulators.items()).length;
    const emailsBefore = (await emulators.emails()).length;

    const reply = await handler(event());

    expectRefusalPage(reply, status, reason);
    expect((await emulators.items()).length).toBe(itemsBefore);
    expect((await emulators.emails()).length).toBe(emailsBefore);
  });

  test.each(['GET', 'PUT', 'DELETE'])('%s: 405 with Allow: POST, and a page', async (method) => {
    const reply = await handler(withMethod(formEvent(valid), method));

    expectRefusalPage(reply, 405, `${method} is not allowed here: please send the request with POST.`);
    expect(reply.headers).toMatchObject({ Allow: 'POST' });
  });

  test('never writes what the visitor typed into the page', async () => {
    const reply = await handler(formEvent({ ...valid, email: '<script>alert(1)</script>@example.com' }));

    expect(reply.statusCode).toBe(400);
    expect(reply.body).not.toContain('<script>');
    expect(reply.body).not.toContain('alert(1)');
  });

  test('takes a request without Sec-Fetch-Site (older browsers), as a same-origin one', async () => {
    const visitor = newVisitor();
    const event = formEvent(ticked(visitor));
    delete event.headers['sec-fetch-site'];

    expectRedirectTo(await handler(event), '/cheat-sheet/sent');
  });

  test('takes a base64 body of a form as API Gateway passes it, the same as the adapter made it', async () => {
    const visitor = newVisitor();
    const plain = plainBodyEvent(formEvent(ticked(visitor)));

    expectRedirectTo(await handler(base64Event(plain)), '/cheat-sheet/sent');
  });
});
