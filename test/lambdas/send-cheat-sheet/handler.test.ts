import { localDailyCapId } from '../../support/address-key';
import { cheatSheetFileName, cheatSheetTitle } from '../../../core/content/cheat-sheet';
import { badInputs } from '../support/bad-inputs';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute, withMethod } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

let emulators: HandlerStack;
let send: Handler;
let save: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack({ senderEmail: 'cheatsheet@example.com' });
  send = documented((await import('../../../lambdas/send-cheat-sheet/handler')).handler);
  save = documented((await import('../../../lambdas/save-request/handler')).handler);
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.send.${visitorNumber}@example.com` });

describe('send-cheat-sheet handler', () => {
  test('replies 200 with success and a message', async () => {
    const reply = await send(postEvent(sendRoute, newVisitor()));

    expect(reply.statusCode).toBe(200);
    expect(replyJson(reply)).toEqual({ success: true, message: expect.stringMatching(/sent the cheat sheet/) });
    expect(reply.headers).toEqual({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  });

  test('e-mails the PDF from the bucket as an attachment named after the cheat sheet', async () => {
    const visitor = newVisitor();

    await send(postEvent(sendRoute, visitor));

    const [email] = await emulators.emails(visitor.email);
    expect(email!.attachments).toHaveLength(1);
    const [attachment] = email!.attachments;
    expect(attachment!.filename).toBe(cheatSheetFileName);
    expect(attachment!.contentType).toBe('application/pdf');
    const pdf = Buffer.from(attachment!.content, 'base64');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.equals(Buffer.from(emulators.pdf))).toBe(true);
  });

  test('sends from the configured sender to the visitor only, with a fixed subject', async () => {
    const visitor = newVisitor();

    await send(postEvent(sendRoute, visitor));

    const [email] = await emulators.emails(visitor.email);
    expect(email!.from).toBe('cheatsheet@example.com');
    expect(email!.destination).toEqual({ to: [visitor.email], cc: [], bcc: [] });
    expect(email!.subject).toBe(`Your ${cheatSheetTitle}`);
  });

  test('greets the visitor by name in both the HTML and the text body', async () => {
    // A name with no digit: only a name that reads as one is greeted (core/documents/greeting-name.ts).
    const visitor = { ...newVisitor(), name: 'Ada Owner' };

    await send(postEvent(sendRoute, visitor));

    const [email] = await emulators.emails(visitor.email);
    expect(email!.body.html).toContain(`Hello ${visitor.name},`);
    expect(email!.body.text).toContain(`Hello ${visitor.name},`);
  });

  test('puts a name with markup and line breaks in no part of the e-mail, and in no header', async () => {
    const visitor = {
      name: 'Eve <script>alert("x")</script>\r\nBcc: victim',
      email: 'eve@example.com',
    };

    const reply = await send(postEvent(sendRoute, visitor));

    expect(reply.statusCode).toBe(200);
    const emails = await emulators.emails(visitor.email);
    expect(emails).toHaveLength(1);
    const [email] = emails;
    expect(email!.body.html).toContain('Hello,');
    expect(email!.body.html).not.toContain('script');
    expect(email!.body.text).toContain('Hello,');
    expect(email!.body.text).not.toContain('Bcc');
    expect(email!.body.text).not.toContain('\r');
    expect(email!.destination).toEqual({ to: ['eve@example.com'], cc: [], bcc: [] });
    expect(email!.subject).toBe(`Your ${cheatSheetTitle}`);
    expect(email!.headers ?? []).toEqual([]);
  });

  test("flags the address's newest unsent request as sent, with sent_at", async () => {
    const visitor = newVisitor();
    const older = replyJson(await save(postEvent(saveRoute, visitor))).id;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const newer = replyJson(await save(postEvent(saveRoute, visitor))).id;

    await send(postEvent(sendRoute, visitor));

    const items = await emulators.items(visitor.email);
    const flagged = items.find((item) => item.id === newer)!;
    expect(flagged.cheat_sheet_sent).toBe(true);
    expect(Date.parse(flagged.sent_at!)).toBeGreaterThanOrEqual(Date.parse(flagged.requested_at));
    expect(items.find((item) => item.id === older)).toMatchObject({ cheat_sheet_sent: false });
    expect(items.find((item) => item.id === older)).not.toHaveProperty('sent_at');
    expect(items).toHaveLength(2);
  });

  test('keeps the requests table to requests: after a save and a send, one flagged request; the counter is in the limit counters table', async () => {
    const visitor = newVisitor();
    const { id } = replyJson(await save(postEvent(saveRoute, visitor)));

    expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(200);

    const items = await emulators.items(visitor.email);
    expect(items).toEqual([
      {
        id,
        name: visitor.name,
        email: visitor.email,
        cheat_sheet_sent: true,
        requested_at: expect.any(String),
        sent_at: expect.any(String),
        delivery_status: 'sent',
        status_at: items[0]!.sent_at,
        sending_at: expect.any(String),
        ses_message_id: expect.any(String),
        send_token: expect.any(String),
      },
    ]);
    const quotaId = localDailyCapId(visitor.email);
    const counter = (await emulators.addressDailyCapItems()).find((item) => item.id === quotaId);
    expect(counter).toEqual({
      id: quotaId,
      recent_sends: [expect.any(String)],
      // The send's claim token, with the same time: how a retried write knows its own.
      claims: { [Object.keys(counter!.claims ?? {})[0] ?? 'none']: counter!.recent_sends[0] },
      version: 1,
      expires_at: Math.ceil((Date.parse(counter!.recent_sends[0]!) + 24 * 60 * 60 * 1000) / 1000),
    });
    // Whatever the other tests of this file left: the requests table holds requests only.
    for (const item of await emulators.items()) {
      expect(item).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          name: expect.any(String),
          email: expect.any(String),
          cheat_sheet_sent: expect.any(Boolean),
          requested_at: expect.any(String),
        }),
      );
    }
  });

  test('records a send that has no saved request as a sent item of its own', async () => {
    const visitor = newVisitor();

    const reply = await send(postEvent(sendRoute, visitor));

    expect(reply.statusCode).toBe(200);
    const items = await emulators.items(visitor.email);
    expect(items).toEqual([
      expect.objectContaining({
        id: expect.any(String),
        name: visitor.name,
        email: visitor.email,
        cheat_sheet_sent: true,
        requested_at: items[0]!.sending_at,
        sent_at: expect.any(String),
        delivery_status: 'sent',
        ses_message_id: expect.any(String),
      }),
    ]);
  });

  test('sends a fourth cheat sheet within 24 hours to nobody: 429 with an error', async () => {
    const visitor = newVisitor();
    for (let sent = 0; sent < 3; sent += 1) {
      await save(postEvent(saveRoute, visitor));
      expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(200);
    }

    await save(postEvent(saveRoute, visitor));
    const reply = await send(postEvent(sendRoute, visitor));

    expect(reply.statusCode).toBe(429);
    expect(replyJson(reply)).toEqual({
      success: false,
      error: expect.stringMatching(/3 times in the last 24 hours/),
      code: 'address_daily_cap_reached',
    });
    expect(await emulators.emails(visitor.email)).toHaveLength(3);
    const items = await emulators.items(visitor.email);
    expect(items.filter((item) => item.cheat_sheet_sent)).toHaveLength(3);
  });

  test('sends exactly as many e-mails as the cap allows when sends for one address arrive in parallel', async () => {
    const visitor = newVisitor();

    const replies = await Promise.all(Array.from({ length: 8 }, () => send(postEvent(sendRoute, visitor))));

    const statuses = replies.map((reply) => reply.statusCode).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(await emulators.emails(visitor.email)).toHaveLength(3);
    expect((await emulators.items(visitor.email)).filter((item) => item.cheat_sheet_sent)).toHaveLength(3);
    const quotaId = localDailyCapId(visitor.email);
    const counter = (await emulators.addressDailyCapItems()).find((item) => item.id === quotaId);
    expect(counter?.recent_sends).toHaveLength(3);
  });

  test('counts sends against the cap whatever the letter case of the address', async () => {
    const visitor = newVisitor();
    for (const variant of [visitor.email, visitor.email.toUpperCase(), `  ${visitor.email} `]) {
      expect((await send(postEvent(sendRoute, { ...visitor, email: variant }))).statusCode).toBe(200);
    }

    const reply = await send(postEvent(sendRoute, { ...visitor, email: visitor.email.replace('ada', 'ADA') }));

    expect(reply.statusCode).toBe(429);
  });

  test("does not count one address's sends against another's cap", async () => {
    const first = newVisitor();
    const second = newVisitor();
    for (let sent = 0; sent < 3; sent += 1) await send(postEvent(sendRoute, first));

    const reply = await send(postEvent(sendRoute, second));

    expect(reply.statusCode).toBe(200);
  });

  test('does not count saved but unsent requests against the cap', async () => {
    const visitor = newVisitor();
    for (let saved = 0; saved < 5; saved += 1) await save(postEvent(saveRoute, visitor));

    const reply = await send(postEvent(sendRoute, visitor));

    expect(reply.statusCode).toBe(200);
  });

  test('reads the PDF once per container and reuses it', async () => {
    await send(postEvent(sendRoute, newVisitor()));
    await emulators.deletePdf();
    try {
      const visitor = newVisitor();

      const reply = await send(postEvent(sendRoute, visitor));

      expect(reply.statusCode).toBe(200);
      const [email] = await emulators.emails(visitor.email);
      expect(Buffer.from(email!.attachments[0]!.content, 'base64').equals(Buffer.from(emulators.pdf))).toBe(true);
    } finally {
      await emulators.restorePdf();
    }
  });

  test.each(['GET', 'PUT', 'DELETE'])('refuses %s with 405 and Allow: POST, sending nothing', async (method) => {
    const visitor = newVisitor();

    const reply = await send(withMethod(postEvent(sendRoute, visitor), method));

    expect(reply.statusCode).toBe(405);
    expect(reply.headers).toMatchObject({ Allow: 'POST' });
    expect(replyJson(reply)).toEqual({
      success: false,
      error: `${method} is not allowed here: please send the request with POST.`,
      code: 'method_not_allowed',
    });
    expect(await emulators.emails(visitor.email)).toEqual([]);
  });

  test.each(badInputs)(
    'refuses $description with $status and an error, storing and sending nothing',
    async ({ event, status }) => {
      const [itemsBefore, emailsBefore] = [(await emulators.items()).length, (await emulators.emails()).length];

      const reply = await send(event(sendRoute));

      expect(reply.statusCode).toBe(status);
      const body = replyJson(reply);
      expect(Object.keys(body)).toEqual(['success', 'error', 'code']);
      expect(body.success).toBe(false);
      expect(typeof body.error).toBe('string');
      // The page would show its unverified-sender alert for these words.
      expect(body.error).not.toMatch(/domain|verify/i);
      expect((await emulators.items()).length).toBe(itemsBefore);
      expect((await emulators.emails()).length).toBe(emailsBefore);
    },
  );
});
