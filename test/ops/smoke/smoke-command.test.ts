/**
 * `npm run smoke -- <site URL> --canary` against the local twin serving the real build (`npm run
 * build` first), the proof of work on as in the cloud: the canary's whole request, marked with the
 * twin's deployment secret (`CLIENT_ADDRESS_KEY`), to the SES mailbox simulator's address.
 */

import path from 'node:path';
import { buildOutput } from '../../../core/build-output';
import { cheatSheetPdfForTests, stackStartTimeoutMs } from '../../support/cheat-sheet-pdf';
import { startLocalStack, type LocalStack } from '../../../local/local-stack';
import { runSmokeCommand } from '../../../ops/smoke/smoke-command';
import { capturedEmails } from '../../support/captured-emails';

let stack: LocalStack;

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  stack = await startLocalStack({
    siteDir: path.join(process.cwd(), buildOutput.siteDirectory),
    cheatSheetPdf: await cheatSheetPdfForTests(),
    challenge: 'on',
  });
}, stackStartTimeoutMs);
afterAll(() => stack?.stop());

/** Never a GitHub job's summary: CI's own run sets GITHUB_STEP_SUMMARY. */
async function smoke(args: string[], env: NodeJS.ProcessEnv = { ...process.env, GITHUB_STEP_SUMMARY: undefined }) {
  const printed: string[] = [];
  const code = await runSmokeCommand(args, { print: (text) => printed.push(text), env });
  return { code, output: printed.join('\n') };
}

test('--canary saves, solves the challenge and sends to the simulator, marked as the canary, and passes', async () => {
  const { code, output } = await smoke([stack.urls.site, '--canary']);

  expect(output).toMatch(/PASS {2}page: GET \/ 200, title heading, form posts to \/api\/cheat-sheet-form/);
  expect(output).toMatch(
    /PASS {2}send: POST \/api\/send-cheat-sheet 200, challenge solved, to success\+smoke-[a-z0-9]+@simulator\.amazonses\.com/,
  );
  expect(output.split('\n').at(-1)).toBe('All 3 checks passed.');
  expect(code).toBe(0);
  const [email] = await capturedEmails(stack.urls.mail);
  expect(email?.destination.to[0]).toMatch(/^success\+smoke-[a-z0-9]+@simulator\.amazonses\.com$/);
});

test('--canary without the deployment secret is a usage error and sends nothing', async () => {
  const before = (await capturedEmails(stack.urls.mail)).length;

  const { code, output } = await smoke([stack.urls.site, '--canary'], {});

  expect(code).toBe(2);
  expect(output).toMatch(/no deployment secret is named/);
  expect(await capturedEmails(stack.urls.mail)).toHaveLength(before);
});
