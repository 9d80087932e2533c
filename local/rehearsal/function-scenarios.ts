/**
 * The rehearsal's scenarios for the functions, each invoking the cloud assembly's functions as
 * their triggers would (API Gateway through CloudFront, EventBridge, the schedules, the alarm
 * topic, the table's stream), in the order a reader's request lives: a request saved and sent
 * (after the proof of work's challenge, solved, when the stage asks for it),
 * the no-script form, a bounce and a complaint, a request left unsent and the unsent check, the
 * weekly digest, the canary's run through a stand-in distribution (edge-stand-in.ts), a reputation
 * alarm that pauses sending, a lead handed off, visits to `/` counted in the funnel (two readers and
 * a known bot). A scenario whose
 * function the stage does not deploy (the digest without `authorEmail`) is skipped, and said so.
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { originSecretHeader, viewerAddressHeader } from '../../core/config/edge-headers';
import { proofOfWorkHeader } from '../../core/api/proof-of-work';
import { productRoutes } from '../../core/api/catalogue/routes';
import { hasBookTicked } from '../../core/api/form-replies';
import { requestIdMessageTag } from '../../core/data/delivery-status';
import { toHttpApiEvent } from '../api-gateway-adapter';
import type { RehearsalTwin } from './rehearsal-twin';

export interface ScenarioResult {
  readonly name: string;
  /** The functions it invoked. */
  readonly functions: readonly string[];
  /** Undefined when it ran as expected; else what went wrong. */
  readonly failure?: string;
  readonly skipped?: string;
}

interface HttpReply {
  readonly statusCode: number;
  readonly body?: string;
}

const run = Date.now();
const address = (who: string) => `${who}.${run}@example.com`;

export interface FunctionScenarios {
  readonly results: readonly ScenarioResult[];
  /** The address of the request saved and sent: what the ops commands' erase removes. */
  readonly eraseAddress: string;
}

export async function runFunctionScenarios(twin: RehearsalTwin): Promise<FunctionScenarios> {
  const deployed = new Set(twin.functions.map((fn) => fn.name));
  const env = (name: string) => twin.functions.find((fn) => fn.name === name)?.environment ?? {};
  const originSecret = twin.secrets.get(env('saveRequest').ORIGIN_SECRET_ARN ?? '') ?? '';
  let client = 0;
  const http = async (
    name: 'saveRequest' | 'sendCheatSheet' | 'submitForm' | 'cheatSheetChallenge' | 'countVisit',
    body: string,
    key: string,
    proof?: string,
    userAgent = 'rehearsal',
  ) => {
    const route = productRoutes[name];
    client += 1;
    const form = name === 'submitForm';
    const event = toHttpApiEvent(
      {
        method: route.method,
        url: route.path,
        headers: {
          host: 'rehearsal.example.com',
          'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
          'sec-fetch-site': 'same-origin',
          'user-agent': userAgent,
          'idempotency-key': key,
          // As CloudFront adds them behind the distribution (the origin request policy).
          [originSecretHeader]: originSecret,
          [viewerAddressHeader]: `198.51.100.${client}:443`,
          ...(proof && { [proofOfWorkHeader.toLowerCase()]: proof }),
        },
        body: Buffer.from(body, 'utf8'),
        sourceIp: '130.176.0.1',
      },
      `${route.method} ${route.path}`,
    );
    return (await twin.invoke(name, event)) as HttpReply;
  };
  const expectStatus = (reply: HttpReply, ok: (status: number) => boolean, what: string) => {
    if (!ok(reply.statusCode)) throw new Error(`${what} answered ${reply.statusCode}: ${reply.body ?? ''}`);
  };
  /** As the page does before a send, when the stage asks for the proof of work: a challenge, solved. */
  const solvedProof = async (): Promise<string | undefined> => {
    if (!deployed.has('cheatSheetChallenge')) return undefined;
    const issued = await http('cheatSheetChallenge', '', `rehearsal-${run}-challenge-${client}`);
    expectStatus(issued, (status) => status === 200, 'the challenge');
    const reply = JSON.parse(issued.body ?? '{}') as { required: boolean; challenge?: Challenge };
    if (!reply.required || !reply.challenge) return undefined;
    const solution = await solveChallenge({ challenge: reply.challenge, deriveKey });
    if (!solution) throw new Error('The challenge could not be solved');
    return Buffer.from(JSON.stringify({ challenge: reply.challenge, solution })).toString('base64');
  };
  const saveAndSend = async (who: string): Promise<string> => {
    const body = JSON.stringify({ name: `Ada ${who}`, email: address(who) });
    const key = `rehearsal-${run}-${who}`;
    const saved = await http('saveRequest', body, key);
    expectStatus(saved, (status) => status === 201, 'the save');
    expectStatus(await http('sendCheatSheet', body, key, await solvedProof()), (status) => status === 200, 'the send');
    return (JSON.parse(saved.body ?? '{}') as { id: string }).id;
  };
  const sesEvent = (eventType: string, id: string, who: string, detail: Record<string, unknown>) => ({
    version: '0',
    id: `rehearsal-${eventType}`,
    'detail-type': `Email ${eventType}`,
    source: 'aws.ses',
    time: new Date().toISOString(),
    detail: {
      eventType,
      mail: {
        timestamp: new Date().toISOString(),
        messageId: `rehearsal-${id}`,
        destination: [address(who)],
        tags: { [requestIdMessageTag]: [id] },
      },
      ...detail,
    },
  });
  const scheduled = { 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString() };
  const scenarios: { name: string; functions: string[]; run: () => Promise<void> }[] = [
    {
      name: 'a request saved and sent',
      functions: [
        'saveRequest',
        'sendCheatSheet',
        ...(deployed.has('cheatSheetChallenge') ? ['cheatSheetChallenge'] : []),
      ],
      run: () => saveAndSend('sent').then(),
    },
    {
      name: "a crowd above SES's rate: sends queued, then sent by the queued sender",
      functions: ['saveRequest', 'sendCheatSheet', 'queuedSend'],
      run: async () => {
        const readers = ['crowd-1', 'crowd-2', 'crowd-3'];
        const bodies = readers.map((who) => JSON.stringify({ name: `Ada ${who}`, email: address(who) }));
        const proofs: (string | undefined)[] = [];
        for (const [index, who] of readers.entries()) {
          expectStatus(
            await http('saveRequest', bodies[index], `rehearsal-${run}-${who}`),
            (s) => s === 201,
            'the save',
          );
          proofs.push(await solvedProof());
        }
        // At once: SES's rate (GetAccount) has a slot for one, the others go to the send queue.
        const replies = await Promise.all(
          readers.map((who, index) => http('sendCheatSheet', bodies[index], `rehearsal-${run}-${who}`, proofs[index])),
        );
        for (const reply of replies) expectStatus(reply, (status) => status === 200, 'the send');
        const queued = twin.recorder.calls
          .filter((call) => call.scenario === twin.recorder.currentScenario() && call.target?.endsWith('.SendMessage'))
          .map((call) => (JSON.parse(call.body) as { MessageBody: string }).MessageBody);
        if (queued.length === 0) throw new Error('No send was handed to the send queue');
        // As the queue's event source mapping delivers them.
        const reply = (await twin.invoke('queuedSend', {
          Records: queued.map((body, index) => ({
            messageId: `rehearsal-${index}`,
            receiptHandle: `rehearsal-${index}`,
            body,
            attributes: { ApproximateReceiveCount: '1' },
            messageAttributes: {},
            eventSource: 'aws:sqs',
          })),
        })) as { batchItemFailures?: unknown[] };
        if ((reply.batchItemFailures ?? []).length > 0) throw new Error('The queued sender left sends to retry');
      },
    },
    {
      name: 'the no-script form',
      functions: ['submitForm'],
      run: async () => {
        const body = new URLSearchParams({ name: 'Ada Form', email: address('form'), hasBook: hasBookTicked });
        expectStatus(
          await http('submitForm', body.toString(), `rehearsal-${run}-form`),
          (status) => status < 400,
          'the form',
        );
      },
    },
    {
      name: 'a bounce',
      functions: ['saveRequest', 'sendCheatSheet', 'sesEvents'],
      run: async () => {
        const id = await saveAndSend('bounced');
        await twin.invoke(
          'sesEvents',
          sesEvent('Bounce', id, 'bounced', {
            bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: address('bounced') }] },
          }),
        );
      },
    },
    {
      name: 'a complaint',
      functions: ['saveRequest', 'sendCheatSheet', 'sesEvents'],
      run: async () => {
        const id = await saveAndSend('complained');
        await twin.invoke(
          'sesEvents',
          sesEvent('Complaint', id, 'complained', {
            complaint: { complainedRecipients: [{ emailAddress: address('complained') }] },
          }),
        );
      },
    },
    {
      name: 'a request left unsent, found by the unsent check',
      functions: ['saveRequest', 'unsentCheck'],
      run: async () => {
        const body = JSON.stringify({ name: 'Ada Unsent', email: address('unsent') });
        expectStatus(await http('saveRequest', body, `rehearsal-${run}-unsent`), (s) => s === 201, 'the save');
        await twin.invoke('unsentCheck', scheduled);
      },
    },
    { name: 'the weekly digest', functions: ['leadDigest'], run: () => twin.invoke('leadDigest', scheduled).then() },
    {
      name: "the canary's sending run, through the site's address",
      functions: ['canary'],
      // On a half hour, so the run sends: the page, the save, the challenge and the send, to the simulator.
      run: () =>
        twin
          .invoke('canary', {
            ...scheduled,
            time: new Date(Math.floor(Date.now() / 1_800_000) * 1_800_000).toISOString(),
          })
          .then(),
    },
    {
      name: 'a reputation alarm pauses sending',
      functions: ['pauseSending'],
      run: async () => {
        const [alarm] = (env('pauseSending').PAUSE_ON_ALARMS ?? '').split(',');
        await twin.invoke('pauseSending', {
          Records: [
            {
              EventSource: 'aws:sns',
              Sns: { MessageId: 'rehearsal', Message: JSON.stringify({ AlarmName: alarm, NewStateValue: 'ALARM' }) },
            },
          ],
        });
      },
    },
    {
      name: 'visits to / counted in the funnel',
      functions: ['countVisit'],
      run: async () => {
        const browser = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
        const bot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
        for (const userAgent of [browser, browser, bot]) {
          const reply = await http('countVisit', '', `rehearsal-${run}-visit-${client}`, undefined, userAgent);
          expectStatus(reply, (status) => status === 200, 'the visit beacon');
        }
      },
    },
    {
      name: 'a consenting lead handed off',
      functions: ['saveRequest', 'leadHandoff'],
      run: async () => {
        // A reader who joins the list: the stream's INSERT puts its id on the hand-off queue, then the queue's
        // message is one attempt (the lead read, the provider's key, the outcome recorded), as the two mappings deliver them.
        const body = JSON.stringify({ name: 'Ada Lead', email: address('lead'), hasBook: true, mailingList: true });
        const saved = await http('saveRequest', body, `rehearsal-${run}-lead`);
        expectStatus(saved, (status) => status === 201, 'the save');
        const id = (JSON.parse(saved.body ?? '{}') as { id: string }).id;
        await twin.invoke('leadHandoff', {
          Records: [{ eventSource: 'aws:dynamodb', eventName: 'INSERT', dynamodb: { Keys: { id: { S: id } } } }],
        });
        const queued = twin.recorder.calls
          .filter(
            (call) => call.scenario === twin.recorder.currentScenario() && call.target?.endsWith('.SendMessageBatch'),
          )
          .flatMap((call) => (JSON.parse(call.body) as { Entries: { MessageBody: string }[] }).Entries)
          .map((entry) => entry.MessageBody);
        if (queued.length === 0) throw new Error('No lead was put on the hand-off queue');
        await twin.invoke('leadHandoff', {
          Records: queued.map((messageBody, index) => ({
            messageId: `rehearsal-lead-${index}`,
            receiptHandle: `rehearsal-lead-${index}`,
            body: messageBody,
            attributes: { ApproximateReceiveCount: '1' },
            messageAttributes: {},
            eventSource: 'aws:sqs',
          })),
        });
      },
    },
  ];
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const missing = scenario.functions.filter((name) => !deployed.has(name));
    if (missing.length > 0) {
      results.push({ name: scenario.name, functions: [], skipped: `the stage deploys no ${missing.join(', ')}` });
      continue;
    }
    twin.recorder.scenario(scenario.name);
    try {
      await scenario.run();
      results.push({ name: scenario.name, functions: scenario.functions });
    } catch (error) {
      results.push({ name: scenario.name, functions: scenario.functions, failure: String(error) });
    }
  }
  return { results, eraseAddress: address('sent') };
}
