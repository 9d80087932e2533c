/**
 * The canary's check: what a reader does, through a site's public address, one step after the
 * other: loads the page (its status, the title heading, the form's markup, the security headers),
 * saves a request, and on a sending run solves the challenge when the send asks for one and sends,
 * to the SES mailbox simulator's success address; then, given a way to read it, confirms that an
 * earlier run's e-mail reached `delivered`. Every request to the API carries the canary's mark
 * (core/data/canary-mark.ts), so the request is never a lead.
 *
 * The same code runs in the canary function (lambdas/canary/, on a schedule) and from a terminal,
 * `npm run smoke -- <site URL> --canary` (ops/smoke/). It only speaks HTTP to the site's routes,
 * so it holds whether the send route mails before it replies or after.
 */

import { proofOfWorkChallengePath, proofOfWorkHeader } from '../../core/api/proof-of-work';
import { apiRoutes } from '../../core/api/routes';
import { canaryMailbox, canaryMarkHeader, signCanaryMark, type CanaryMarkKey } from '../../core/data/canary-mark';
import { formMarkupVerdict, hasTitleHeading, securityHeadersVerdict } from './page-markup';
import { solvedProof, type Challenge } from './proof-of-work-solver';

/** One step's outcome, as `npm run smoke` prints it. */
export interface CanaryStep {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export interface CanaryCheckOptions {
  /** The site's public address: the stage's `siteUrl`, else the distribution's; `http://localhost:3000/` locally. */
  readonly siteUrl: string;
  /** The run's name (a-z, 0-9, -): its mailbox is `success+<run>@simulator.amazonses.com`, its key `canary-<run>`. */
  readonly run: string;
  /** The mark's key, from the deployment's secret. */
  readonly markKey: CanaryMarkKey;
  /** Whether this run sends (the full send may run less often than the page and the save). */
  readonly send: boolean;
  /**
   * Reads whether an earlier run's e-mail reached `delivered`.
   *
   * @default - not checked (a terminal without the table's access)
   */
  readonly earlierDelivery?: () => Promise<Omit<CanaryStep, 'name'>>;
  /** @default 10 seconds per request */
  readonly timeoutMs?: number;
  /** @default the clock */
  readonly now?: () => Date;
}

/** The `Idempotency-Key` a run's save and send share: its request's id is derived from it. */
export const canarySubmissionKey = (run: string) => `canary-${run}`;

/** What a reader's browser sends besides the body; the user agent names the canary in the access logs. */
const canaryUserAgent = 'first-100-days-site canary';

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

async function request(url: URL, init: RequestInit, timeoutMs: number): Promise<Reply> {
  const response = await fetch(url, {
    ...init,
    headers: { 'user-agent': canaryUserAgent, ...init.headers },
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

const jsonOf = (reply: Reply): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(reply.body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/** The reply in a few words: status, and the failure's `code` when it has one. */
const described = (what: string, reply: Reply) => {
  const code = jsonOf(reply)?.code;
  return `${what} ${reply.status}${typeof code === 'string' ? ` ${code}` : ''}`;
};

/** Runs one step; a request that fails outright (refused, timed out) fails the step. */
async function step(name: string, run: () => Promise<Omit<CanaryStep, 'name'>>): Promise<CanaryStep> {
  try {
    return { name, ...(await run()) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const message = error instanceof Error ? error.message : String(error);
    return { name, ok: false, detail: `no answer: ${message}${cause ? ` (${cause})` : ''}` };
  }
}

/** Every step of one run, in order; a failed page or save stops the run (what follows would fail for the same reason). */
export async function runCanaryCheck(options: CanaryCheckOptions): Promise<CanaryStep[]> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? (() => new Date());
  const base = new URL(options.siteUrl);
  const email = canaryMailbox(options.run);
  const body = JSON.stringify({ name: 'Site Canary', email, hasBook: true });
  const apiHeaders = () => ({
    'content-type': 'application/json',
    'idempotency-key': canarySubmissionKey(options.run),
    [canaryMarkHeader]: signCanaryMark(options.markKey, email, now()),
  });
  const steps: CanaryStep[] = [];

  const page = await step('page', async () => {
    const reply = await request(new URL('/', base), {}, timeoutMs);
    const heading = hasTitleHeading(reply.body);
    const form = formMarkupVerdict(reply.body);
    const headers = securityHeadersVerdict(reply.headers, base.protocol === 'https:');
    return {
      ok: reply.status === 200 && heading && form.ok && headers.ok,
      detail: `GET / ${reply.status}, ${heading ? 'title heading' : 'no title heading'}, ${form.detail}, ${headers.detail}`,
    };
  });
  steps.push(page);
  if (!page.ok) return steps;

  const save = await step('save', async () => {
    const reply = await request(
      new URL(apiRoutes.saveRequest, base),
      { method: 'POST', headers: apiHeaders(), body },
      timeoutMs,
    );
    return {
      ok: reply.status === 201 && typeof jsonOf(reply)?.id === 'string',
      detail: described(`POST ${apiRoutes.saveRequest}`, reply),
    };
  });
  steps.push(save);
  if (!save.ok) return steps;

  if (options.send) {
    steps.push(
      await step('send', async () => {
        const proof = await proofForSend(base, timeoutMs);
        const reply = await request(
          new URL(apiRoutes.sendCheatSheet, base),
          { method: 'POST', headers: { ...apiHeaders(), ...(proof && { [proofOfWorkHeader]: proof }) }, body },
          timeoutMs,
        );
        const sent = reply.status >= 200 && reply.status < 300 && jsonOf(reply)?.success === true;
        return {
          ok: sent,
          detail: `${described(`POST ${apiRoutes.sendCheatSheet}`, reply)}${proof ? ', challenge solved' : ''}, to ${email}`,
        };
      }),
    );
  }
  if (options.earlierDelivery) steps.push(await step('earlier e-mail delivered', options.earlierDelivery));
  return steps;
}

/** The challenge route's answer: none when the send needs no proof, else the solved challenge's header. */
async function proofForSend(base: URL, timeoutMs: number): Promise<string | undefined> {
  const reply = await request(
    new URL(proofOfWorkChallengePath, base),
    { headers: { accept: 'application/json' } },
    timeoutMs,
  );
  const answer = jsonOf(reply);
  if (reply.status !== 200 || typeof answer?.required !== 'boolean') {
    throw new Error(described(`GET ${proofOfWorkChallengePath}`, reply));
  }
  return answer.required ? solvedProof(answer.challenge as Challenge) : undefined;
}
