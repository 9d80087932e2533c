/**
 * `npm run digest` against the twin (the local stack, as npm start runs it): what a reader did on
 * the twin today, a visit and a request, is in the digest's funnel, and the e-mail is in the twin's
 * mail view.
 */

import { startLocalStack, type LocalStack } from '../../local/local-stack';
import { runTwinDigestCommand, twinAuthorEmail, twinDigestTime } from '../../local/twin-digest';
import { capturedEmails } from '../support/captured-emails';
import { postJson } from '../support/post-json';
import { freePort } from './support/ports';

let stack: LocalStack;
const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  stack = await startLocalStack({ siteDir: null, cheatSheetPdf: null });
  // One reader: three views of / (the page's beacon) and one request.
  for (let view = 0; view < 3; view += 1) {
    const beacon = await fetch(new URL('/api/visit', stack.urls.site), { headers: { 'user-agent': browser } });
    expect(beacon.status).toBe(200);
  }
  const saved = await postJson(
    new URL('/api/cheat-sheet-requests', stack.urls.site),
    { name: 'Ada Twin', email: 'ada.twin@example.com' },
    { 'idempotency-key': 'twin-digest-ada' },
  );
  expect(saved.status).toBe(201);
});

afterAll(async () => {
  await stack.stop();
});

async function run(args: string[]) {
  const printed: string[] = [];
  const errors: string[] = [];
  const code = await runTwinDigestCommand(args, {
    print: (line) => printed.push(line),
    printError: (line) => errors.push(line),
    ports: stack.ports,
  });
  return { code, printed, errors };
}

test("runs as tomorrow's 07:00 UTC digest, so this week ends today", () => {
  expect(twinDigestTime(new Date('2026-11-29T23:59:00.000Z')).toISOString()).toBe('2026-11-30T07:00:00.000Z');
  expect(twinDigestTime(new Date('2026-11-29T00:00:00.000Z')).toISOString()).toBe('2026-11-30T07:00:00.000Z');
});

test("mails the author the twin's digest, today's visit and request in this week's funnel", async () => {
  const { code, printed } = await run([]);
  expect(code).toBe(0);
  expect(printed).toEqual([expect.stringContaining(`sent to ${twinAuthorEmail}: open ${stack.urls.mail}`)]);
  const [email] = await capturedEmails(stack.urls.mail, twinAuthorEmail);
  expect(email.subject).toMatch(/: 1 new$/);
  const row = (label: string) =>
    (email.body.text ?? '')
      .split('\n')
      .find((line) => line.trimStart().startsWith(`${label}  `))
      ?.trim()
      .split(/ {2,}/);
  expect(row('visits')).toEqual(['visits', '3', '0', '+3']);
  expect(row('unique visitors')).toEqual(['unique visitors', '1', '0', '+1']);
  expect(row('requests')).toEqual(['requests', '1', '0', '+1']);
  expect(row('conversion')).toEqual(['conversion', '100%', '-', '-']);
});

test('--to sends it to another address; a malformed one is refused before anything runs', async () => {
  expect((await run(['--to', 'me@example.org'])).code).toBe(0);
  expect(await capturedEmails(stack.urls.mail, 'me@example.org')).toHaveLength(1);
  const refused = await run(['--to', 'not an address']);
  expect(refused.code).toBe(2);
  expect(refused.errors.join('\n')).toContain('"not an address" is not an e-mail address');
});

test('without a twin to reach it fails with 1, asking whether npm start runs on those ports', async () => {
  // A fresh handler module: its SDK clients take the closed ports' endpoints.
  jest.resetModules();
  const closed = { dynamodb: await freePort(), mail: await freePort() };
  const errors: string[] = [];
  const code = await runTwinDigestCommand([], {
    print: () => undefined,
    printError: (line) => errors.push(line),
    ports: closed,
  });
  expect(code).toBe(1);
  expect(errors.join('\n')).toContain(
    `Is npm start running (DynamoDB on port ${closed.dynamodb}, mail on ${closed.mail})?`,
  );
});
