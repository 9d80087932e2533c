/**
 * `npm run load`: distinct readers played against a site as the page plays one (the challenge
 * when the send asks for the proof of work, the save, the send; one `Idempotency-Key` per reader
 * on both calls; a fresh address each), `rate` a second for `durationSeconds`, each reader
 * starting on time whatever the others wait for (arrivals, not a closed loop). Then, when the
 * site's mail store is given (the local twin's `GET <Mail>/store`), the e-mails its SES accepted
 * for these readers: how many, whether any address got two, the most in one second, and when the
 * last was accepted.
 */

import { randomUUID } from 'node:crypto';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { proofOfWorkChallengePath, proofOfWorkHeader } from '../../core/api/proof-of-work';
import { apiRoutes } from '../../core/api/routes';

export interface LoadOptions {
  /** Readers a second. */
  readonly rate: number;
  readonly durationSeconds: number;
  /** The site, ending in `/`. */
  readonly siteUrl: string;
  /** The local SES's page (`GET <mail>/store`); without it, e-mails are not counted. */
  readonly mailUrl?: string;
  /** How long to wait for the last e-mails once the readers are done. @default 600 s */
  readonly drainTimeoutMs?: number;
}

/** One call's outcome. */
interface Reply {
  readonly call: 'challenge' | 'save' | 'send';
  readonly status: number;
  readonly code?: string;
  readonly ms: number;
}

export interface LoadReport {
  readonly readers: number;
  /** `save 201`, `send 503 email_service_unavailable`…, with how many. */
  readonly replies: Readonly<Record<string, number>>;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Sends answered 2xx. */
  readonly sendsAccepted: number;
  /** Undefined without a mail store. */
  readonly emails?: {
    readonly accepted: number;
    readonly addressesMailedTwice: number;
    readonly mostInOneSecond: number;
    /** From the first reader's start to the last e-mail's acceptance (the store counts whole seconds). */
    readonly lastAcceptedAfterSeconds: number;
  };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function call(
  url: URL,
  init: RequestInit,
  name: Reply['call'],
): Promise<{ reply: Reply; body: Record<string, unknown> }> {
  const started = performance.now();
  try {
    const response = await fetch(url, init);
    const body = ((await response.json().catch(() => ({}))) ?? {}) as Record<string, unknown>;
    const code = typeof body.code === 'string' ? body.code : undefined;
    return {
      reply: { call: name, status: response.status, ...(code && { code }), ms: performance.now() - started },
      body,
    };
  } catch {
    // No reply at all (a refused connection, a reset): counted as status 0.
    return { reply: { call: name, status: 0, code: 'no_reply', ms: performance.now() - started }, body: {} };
  }
}

/** One reader, as the page: challenge (when asked for), save, then send with the same key. */
async function playReader(index: number, run: string, options: LoadOptions): Promise<Reply[]> {
  const site = options.siteUrl;
  const key = randomUUID();
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    'idempotency-key': key,
  };
  const body = JSON.stringify({
    name: `Load Reader ${index}`,
    email: `load.${run}.${index}@example.com`,
    website: '',
    hasBook: true,
  });
  const replies: Reply[] = [];
  const [challenge, save] = await Promise.all([
    call(new URL(proofOfWorkChallengePath, site), { headers: { accept: 'application/json' } }, 'challenge'),
    call(new URL(apiRoutes.saveRequest, site), { method: 'POST', headers, body }, 'save'),
  ]);
  replies.push(challenge.reply, save.reply);
  let proof: string | undefined;
  if (challenge.body.required === true && challenge.body.challenge) {
    const solution = await solveChallenge({ challenge: challenge.body.challenge as Challenge, deriveKey });
    if (solution)
      proof = Buffer.from(JSON.stringify({ challenge: challenge.body.challenge, solution })).toString('base64');
  }
  const send = await call(
    new URL(apiRoutes.sendCheatSheet, site),
    { method: 'POST', headers: { ...headers, ...(proof && { [proofOfWorkHeader]: proof }) }, body },
    'send',
  );
  replies.push(send.reply);
  return replies;
}

interface StoredEmail {
  readonly destination: { readonly to: string[] };
  /** Epoch seconds of acceptance (aws-ses-v2-local). */
  readonly at: number;
}

async function storedEmails(mailUrl: string, run: string): Promise<StoredEmail[]> {
  const response = await fetch(new URL('store', mailUrl));
  const { emails = [] } = (await response.json()) as { emails?: StoredEmail[] };
  return emails.filter((email) => email.destination.to.some((to) => to.startsWith(`load.${run}.`)));
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const run = randomUUID().slice(0, 8);
  const readers = Math.round(options.rate * options.durationSeconds);
  const startedAt = Date.now();
  const playing: Promise<Reply[]>[] = [];
  for (let index = 0; index < readers; index += 1) {
    const due = startedAt + (index * 1000) / options.rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    playing.push(playReader(index, run, options));
  }
  const replies = (await Promise.all(playing)).flat();

  const counted: Record<string, number> = {};
  for (const reply of replies.filter((r) => r.call !== 'challenge' || r.status !== 200)) {
    const name = `${reply.call} ${reply.status}${reply.code ? ` ${reply.code}` : ''}`;
    counted[name] = (counted[name] ?? 0) + 1;
  }
  const latencies = replies.map((reply) => reply.ms).sort((a, b) => a - b);
  const sendsAccepted = replies.filter((r) => r.call === 'send' && r.status >= 200 && r.status < 300).length;
  const report = {
    readers,
    replies: counted,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    sendsAccepted,
  };
  if (!options.mailUrl) return report;

  // Wait for the queued sends: until every accepted send has its e-mail, or nothing new comes for a minute.
  const deadline = Date.now() + (options.drainTimeoutMs ?? 600_000);
  let emails = await storedEmails(options.mailUrl, run);
  let lastProgress = Date.now();
  while (emails.length < sendsAccepted && Date.now() < deadline && Date.now() - lastProgress < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const next = await storedEmails(options.mailUrl, run);
    if (next.length > emails.length) lastProgress = Date.now();
    emails = next;
  }
  const perAddress = new Map<string, number>();
  const perSecond = new Map<number, number>();
  for (const email of emails) {
    for (const to of email.destination.to) perAddress.set(to, (perAddress.get(to) ?? 0) + 1);
    perSecond.set(email.at, (perSecond.get(email.at) ?? 0) + 1);
  }
  const lastAt = Math.max(0, ...emails.map((email) => email.at));
  return {
    ...report,
    emails: {
      accepted: emails.length,
      addressesMailedTwice: [...perAddress.values()].filter((count) => count > 1).length,
      mostInOneSecond: Math.max(0, ...perSecond.values()),
      lastAcceptedAfterSeconds: emails.length === 0 ? 0 : lastAt + 1 - startedAt / 1000,
    },
  };
}

/** The report as `npm run load` prints it. */
export function formatLoadReport(report: LoadReport, options: Pick<LoadOptions, 'rate' | 'durationSeconds'>): string {
  const lines = [
    `readers: ${report.readers} (${options.rate} a second for ${options.durationSeconds} s)`,
    'replies:',
    ...Object.entries(report.replies)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, count]) => `  ${name}: ${count}`),
    `sends answered 2xx: ${report.sendsAccepted}`,
    `reply latency (every call): p50 ${report.p50Ms.toFixed(0)} ms, p99 ${report.p99Ms.toFixed(0)} ms`,
  ];
  if (report.emails) {
    const { accepted, addressesMailedTwice, mostInOneSecond, lastAcceptedAfterSeconds } = report.emails;
    lines.push(
      `e-mails accepted: ${accepted} (addresses mailed twice: ${addressesMailedTwice}; most accepted in one second: ${mostInOneSecond})`,
      `last e-mail accepted: ${lastAcceptedAfterSeconds.toFixed(0)} s after the first reader (to the second)`,
    );
  } else {
    lines.push('e-mails accepted: not counted (no mail store: give --mail <the local SES page>)');
  }
  return lines.join('\n');
}
