/**
 * A visitor's own mistakes are the visitor's: bad addresses, bad names, domains that take no mail
 * and addresses SES refuses are answered 4xx through all three routes (stand-in DNS, the SES
 * fault injector), and none of what the handlers report for them moves a metric any alarm of the
 * synthesized stack watches. The alarms' metrics are read from the template itself, so a new
 * alarm is covered without touching this test.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { EmailFault } from '../../local/email-fault-injector';
import { startDnsServer, type LoopbackDnsServer } from '../support/dns-server';
import { synthTemplate } from '../infra/support/synth';
import { emfOf, lambdaEnvironment, metricsIn, withEnvironment } from './support/emf-lines';
import { startHandlerStack, type HandlerStack } from './support/handler-stack';
import { formEvent, postEvent, replyJson, saveRoute, sendRoute } from './support/http-api-events';

type Handler = (event: APIGatewayProxyEventV2, context?: Context) => Promise<APIGatewayProxyStructuredResultV2>;

jest.setTimeout(120_000);

/** One metric an alarm watches: its namespace, name and the literal dimension values it is filtered on. */
interface WatchedMetric {
  readonly namespace: string;
  readonly name: string;
  readonly dimensions: Readonly<Record<string, string>>;
  /** API Gateway reports a reply under the API, its stage and its route alike: any filter matches. */
  readonly underEveryDimension?: boolean;
}

interface CfnMetric {
  Namespace?: string;
  MetricName?: string;
  Dimensions?: { Name: string; Value: unknown }[];
}

function watched(metric: CfnMetric): WatchedMetric {
  // Only literal values filter; a reference (the API's id, a function's name) names this stack's own.
  const dimensions = Object.fromEntries(
    (metric.Dimensions ?? [])
      .filter(({ Value }) => typeof Value === 'string')
      .map(({ Name, Value }) => [Name, Value as string]),
  );
  return { namespace: metric.Namespace ?? '', name: metric.MetricName ?? '', dimensions };
}

/** Every metric an alarm of the product stack watches, alone or inside metric math. */
function alarmedMetrics(): WatchedMetric[] {
  // The default deployment (the web ACL on) with a sender domain: a synth with no warning to print.
  const template = synthTemplate({
    context: { senderDomain: 'example.com', waf: 'true' },
    deploymentTarget: { account: '123456789012', region: 'us-east-1' },
  });
  const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')) as {
    Properties: CfnMetric & { Metrics?: { MetricStat?: { Metric: CfnMetric } }[] };
  }[];
  return alarms.flatMap(({ Properties }) =>
    Properties.MetricName !== undefined
      ? [watched(Properties)]
      : (Properties.Metrics ?? []).flatMap(({ MetricStat }) => (MetricStat ? [watched(MetricStat.Metric)] : [])),
  );
}

/** What one reply moves in API Gateway's own metrics (every request's Count and Latency aside). */
function apiGatewayMetricsOf(reply: APIGatewayProxyStructuredResultV2): WatchedMetric[] {
  const status = reply.statusCode ?? 200;
  const name = status >= 500 ? '5xx' : status >= 400 ? '4xx' : undefined;
  return name === undefined ? [] : [{ namespace: 'AWS/ApiGateway', name, dimensions: {}, underEveryDimension: true }];
}

const moves = (emitted: WatchedMetric, alarmed: WatchedMetric) =>
  emitted.namespace === alarmed.namespace &&
  emitted.name === alarmed.name &&
  (emitted.underEveryDimension === true ||
    Object.entries(alarmed.dimensions).every(([dimension, value]) => emitted.dimensions[dimension] === value));

let emulators: HandlerStack;
let dns: LoopbackDnsServer;
let alarmed: WatchedMetric[];

beforeAll(async () => {
  alarmed = alarmedMetrics();
  dns = await startDnsServer({
    'takes-mail.example': { mx: [{ exchange: 'mx.takes-mail.example', priority: 10 }] },
    'null-mx.example': { mx: [{ exchange: '', priority: 0 }] },
  });
  emulators = await startHandlerStack({
    emailFaultInjection: true,
    recipientDomainCheck: 'on',
    dnsServers: dns.address,
  });
});
afterAll(async () => {
  await emulators?.stop();
  await dns?.close();
});
afterEach(() => emulators.stack.setEmailFault(null));

const lambdaContext = { functionName: 'First100DaysSite-Function' } as Context;

/** Fresh containers of the three handlers with metrics on: what they print while `run` calls them. */
function handlersEmf(run: (handlers: Readonly<Record<'save' | 'send' | 'form', Handler>>) => Promise<void>) {
  return withEnvironment(lambdaEnvironment, () =>
    emfOf(() =>
      jest.isolateModulesAsync(async () => {
        const { handler: save } = (await import('../../lambdas/save-request/handler')) as { handler: Handler };
        const { handler: send } = (await import('../../lambdas/send-cheat-sheet/handler')) as { handler: Handler };
        const { handler: form } = (await import('../../lambdas/submit-form/handler')) as { handler: Handler };
        await run({ save, send, form });
      }),
    ),
  );
}

let visitorNumber = 0;
const at = (domain: string, local = 'ada') => `${local}.${++visitorNumber}@${domain}`;

/** What visitors get wrong, each with the status and code the JSON routes answer it with. */
const visitorMistakes: readonly {
  readonly what: string;
  readonly body: () => { name: string; email: string };
  readonly sesFault?: EmailFault;
  readonly status: number;
  readonly code: string;
  /** Refused by the schema, so the save route refuses it too. */
  readonly refusedOnSave: boolean;
  /** Refused by SES once the send was under way: the request is recorded as failed, with the code. */
  readonly recordedAsFailed?: boolean;
}[] = [
  {
    what: 'a local part of 65 characters',
    body: () => ({ name: 'Ada', email: at('takes-mail.example', 'a'.repeat(64)) }),
    status: 400,
    code: 'invalid_request',
    refusedOnSave: true,
  },
  {
    what: 'a domain label of 64 characters',
    body: () => ({ name: 'Ada', email: at(`${'b'.repeat(64)}.example`) }),
    status: 400,
    code: 'invalid_request',
    refusedOnSave: true,
  },
  {
    what: 'a name holding a lone surrogate',
    body: () => ({ name: 'Ada \ud800', email: at('takes-mail.example') }),
    status: 400,
    code: 'invalid_request',
    refusedOnSave: true,
  },
  {
    what: 'a name that reads as a link',
    body: () => ({ name: 'visit evil.example', email: at('takes-mail.example') }),
    status: 400,
    code: 'invalid_request',
    refusedOnSave: true,
  },
  {
    what: 'a domain that does not exist',
    body: () => ({ name: 'Ada', email: at('no-such-domain.example') }),
    status: 400,
    code: 'undeliverable_address',
    refusedOnSave: false,
  },
  {
    what: 'a domain that takes no mail (null MX)',
    body: () => ({ name: 'Ada', email: at('null-mx.example') }),
    status: 400,
    code: 'undeliverable_address',
    refusedOnSave: false,
  },
  {
    what: 'an address SES calls illegal',
    body: () => ({ name: 'Ada', email: at('takes-mail.example') }),
    sesFault: 'illegal-recipient-address',
    status: 400,
    code: 'recipient_rejected',
    refusedOnSave: false,
    recordedAsFailed: true,
  },
  {
    what: 'an address SES refuses by name (suppressed)',
    body: () => ({ name: 'Ada', email: at('takes-mail.example') }),
    sesFault: 'suppressed-recipient',
    status: 400,
    code: 'recipient_rejected',
    refusedOnSave: false,
    recordedAsFailed: true,
  },
  {
    what: 'an address SES rejects by naming it',
    body: () => ({ name: 'Ada', email: at('takes-mail.example') }),
    sesFault: 'recipient-refused',
    status: 400,
    code: 'recipient_rejected',
    refusedOnSave: false,
    recordedAsFailed: true,
  },
];

test('the synthesized stack has alarms on the product metrics, the API and the site, so the check below means something', () => {
  expect(alarmed.some(({ namespace }) => namespace === 'First100DaysSite')).toBe(true);
  expect(alarmed).toContainEqual(expect.objectContaining({ namespace: 'AWS/ApiGateway', name: 'Latency' }));
  expect(alarmed).toContainEqual(expect.objectContaining({ namespace: 'AWS/CloudFront', name: '5xxErrorRate' }));
});

/**
 * What the objectives divide by (requests answered, requests saved): more of it only lowers a burn
 * rate, so a visitor moving it can fire no alarm.
 */
const volumeMetrics = new Set(['AWS/ApiGateway/Count', 'First100DaysSite/RequestSaved']);

test.each(visitorMistakes.map((mistake) => [mistake.what, mistake]))(
  'the send route answers %s with its own 4xx and code, and sends nothing',
  async (_, mistake) => {
    const body = mistake.body();
    if (mistake.sesFault) emulators.stack.setEmailFault(mistake.sesFault);
    let reply: APIGatewayProxyStructuredResultV2 | undefined;

    await handlersEmf(async ({ send }) => {
      reply = await send(postEvent(sendRoute, body), lambdaContext);
    });

    expect([reply?.statusCode, replyJson(reply!).code]).toEqual([mistake.status, mistake.code]);
    // Refused before the send: nothing written. Refused by SES: the attempt recorded as failed, with its code.
    expect(await emulators.items(body.email)).toEqual(
      mistake.recordedAsFailed
        ? [expect.objectContaining({ delivery_status: 'failed', failure_code: mistake.code, cheat_sheet_sent: false })]
        : [],
    );
    expect(await emulators.emails(body.email)).toEqual([]);
  },
);

test('SES refusing the recipient counts a RecipientRejected refusal, not an SesRejected failure', async () => {
  emulators.stack.setEmailFault('illegal-recipient-address');

  const { lines } = await handlersEmf(async ({ send }) => {
    await send(postEvent(sendRoute, { name: 'Ada', email: at('takes-mail.example') }), lambdaContext);
  });

  const counted = metricsIn(lines).filter(({ name }) => name !== 'ColdStart');
  expect(counted).toEqual([{ name: 'RecipientRejected', dimensions: { service: 'send-cheat-sheet' }, value: 1 }]);
});

test('no sequence of visitor mistakes, repeated through every route, gives a 5xx or moves a metric an alarm watches', async () => {
  const replies: APIGatewayProxyStructuredResultV2[] = [];
  const { lines } = await handlersEmf(async ({ save, send, form }) => {
    // Five rounds: more than any alarm's threshold of three in five minutes.
    for (let round = 0; round < 5; round += 1) {
      for (const mistake of visitorMistakes) {
        emulators.stack.setEmailFault(mistake.sesFault ?? null);
        const body = mistake.body();
        const saved = await save(postEvent(saveRoute, body), lambdaContext);
        expect(saved.statusCode).toBe(mistake.refusedOnSave ? 400 : 201);
        replies.push(saved, await send(postEvent(sendRoute, body), lambdaContext));
        replies.push(await form(formEvent(mistake.body()), lambdaContext));
      }
    }
  });

  expect(replies.filter((reply) => (reply.statusCode ?? 200) >= 500)).toEqual([]);
  const emitted: WatchedMetric[] = [
    ...metricsIn(lines).map(({ name, dimensions }) => ({
      namespace: 'First100DaysSite',
      name,
      dimensions: Object.fromEntries(Object.entries(dimensions).map(([key, value]) => [key, String(value)])),
    })),
    ...replies.flatMap(apiGatewayMetricsOf),
  ];
  expect(emitted.length).toBeGreaterThan(0);
  const moved = emitted.filter(
    (metric) =>
      !volumeMetrics.has(`${metric.namespace}/${metric.name}`) && alarmed.some((alarm) => moves(metric, alarm)),
  );
  expect(moved).toEqual([]);
});
