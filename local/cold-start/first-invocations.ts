/**
 * Each function's first invocation, as its trigger delivers it: the event and the variables the
 * function reads beyond the local twin's. Run `n` of a measurement gets a visitor of its own, so
 * no run meets a cap, a key or an item an earlier run left.
 */

import { functionList } from '../../core/api/catalogue/functions';
import { productRouteList, productRoutes } from '../../core/api/catalogue/routes';
import { hasBookTicked } from '../../core/api/form-replies';
import { challengeVariables } from '../../core/config/function-environment';
import { toHttpApiEvent } from '../api-gateway-adapter';

export interface MeasuredFunction {
  readonly name: string;
  /** The handler's file, as the stack bundles it. */
  readonly entry: string;
  /** The event of run `run`. */
  event(run: number): unknown;
  /**
   * What happens before it, untimed, through the local twin's API at `apiUrl`: the send route's
   * reader has saved the request with the same Idempotency-Key a moment before, as the page does.
   */
  readonly before?: (run: number, apiUrl: string) => Promise<void>;
  /** Variables of its own, on top of the local twin's, given the stand-ins' addresses by service. */
  readonly environment?: (standIns: Readonly<Record<string, string>>) => Readonly<Record<string, string>>;
}

const measurement = Date.now();
const visitor = (run: number) => ({ name: `Ada Cold ${run}`, email: `ada.cold.${run}.${measurement}@example.com` });
/** The page's one key per submission, on both of its calls. */
const submissionKey = (run: number) => `cold-start-${measurement}-${run}`;

function httpEvent(method: string, path: string, body: string, contentType: string, run: number) {
  return toHttpApiEvent(
    {
      method,
      url: path,
      headers: {
        host: 'localhost',
        'content-type': contentType,
        'sec-fetch-site': 'same-origin',
        'user-agent': 'cold-start',
        'idempotency-key': submissionKey(run),
      },
      body: Buffer.from(body, 'utf8'),
      // A client of its own per run: no client or network cap is reached.
      sourceIp: `10.${run % 250}.${Math.floor(run / 250) % 250}.7`,
    },
    `${method} ${path}`,
  );
}

async function saveFirst(run: number, apiUrl: string): Promise<void> {
  const reply = await fetch(new URL(productRoutes.saveRequest.path, apiUrl), {
    method: productRoutes.saveRequest.method,
    headers: { 'content-type': 'application/json', 'idempotency-key': submissionKey(run) },
    body: JSON.stringify(visitor(run)),
  });
  if (!reply.ok) throw new Error(`The save before the send answered ${reply.status}`);
}

const configurationSetName = 'cheat-sheet-cold-start';
const reputationAlarm = 'First100DaysSite-BounceRate';

const eventFunctionEvents: Record<string, Pick<MeasuredFunction, 'event' | 'environment'>> = {
  sesEvents: {
    event: (run) => ({
      version: '0',
      id: `cold-start-${run}`,
      'detail-type': 'Email Delivered',
      source: 'aws.ses',
      account: '123456789012',
      time: new Date().toISOString(),
      region: 'us-east-1',
      resources: [],
      detail: {
        eventType: 'Delivery',
        mail: {
          timestamp: new Date().toISOString(),
          messageId: `cold-start-message-${run}`,
          destination: [visitor(run).email],
          tags: { request_id: [`cold-start-request-${run}`] },
        },
      },
    }),
  },
  unsentCheck: {
    event: () => ({ 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString() }),
  },
  leadDigest: {
    event: () => ({ 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString() }),
    environment: () => ({ AUTHOR_EMAIL: 'author@example.com' }),
  },
  // A new consenting request on the table's stream, put on the hand-off queue (one SQS call).
  leadHandoff: {
    event: (run) => ({
      Records: [
        {
          eventSource: 'aws:dynamodb',
          eventName: 'INSERT',
          dynamodb: { Keys: { id: { S: `cold-start-request-${run}` } } },
        },
      ],
    }),
    environment: (standIns) => ({
      MAIL_PROVIDER: 'webhook',
      WEBHOOK_URL: 'https://hooks.example.com/leads',
      MAIL_PROVIDER_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:cold-start',
      LEAD_HANDOFF_QUEUE_URL: `${standIns.SQS}/123456789012/lead-handoff`,
      LEAD_HANDOFF_DEAD_LETTER_QUEUE_URL: `${standIns.SQS}/123456789012/lead-handoff-dead-letters`,
    }),
  },
  // One message of the send queue, as its event source mapping delivers it: the attempt's conditional
  // write (no request holds this token, so nothing is sent) after the handler's imports.
  queuedSend: {
    event: (run) => ({
      Records: [
        {
          messageId: `cold-start-${run}`,
          receiptHandle: `cold-start-${run}`,
          body: JSON.stringify({ requestId: `cold-start-request-${run}`, token: 'cold-start' }),
          attributes: { ApproximateReceiveCount: '1' },
          messageAttributes: {},
          eventSource: 'aws:sqs',
        },
      ],
    }),
  },
  pauseSending: {
    event: (run) => ({
      Records: [
        {
          EventSource: 'aws:sns',
          Sns: {
            MessageId: `cold-start-${run}`,
            Message: JSON.stringify({ AlarmName: reputationAlarm, NewStateValue: 'ALARM' }),
          },
        },
      ],
    }),
    environment: () => ({ CONFIGURATION_SET_NAME: configurationSetName, PAUSE_ON_ALARMS: reputationAlarm }),
  },
};

/** The deployment's secret behind CloudFront, as the measurement's Secrets Manager stand-in answers it. */
export const coldStartOriginSecret = {
  arn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:cold-start-origin',
  value: 'coldstartoriginsecret0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH',
};

/**
 * The challenge as the stack deploys it: the proof of work on (npm start has it off) and the
 * deployment's secret read from Secrets Manager on the first invocation, to sign the challenge.
 * Off, it answers `{required: false}` without a call, which no reader of the deployed page waits for.
 */
function challengeAsDeployed(route: (typeof productRouteList)[number]): MeasuredFunction {
  return {
    name: route.name,
    entry: route.entry,
    event: (run) => httpEvent(route.method, route.path, '', 'application/json', run),
    environment: () => ({
      [challengeVariables.challenge]: 'on',
      [challengeVariables.clientAddressSource]: 'cloudfront-viewer-address',
      [challengeVariables.originSecretArn]: coldStartOriginSecret.arn,
    }),
  };
}

/**
 * The functions not measured, each with why: none a reader waits on, and none whose work a floor
 * of its SDK calls could repeat.
 */
export const notMeasured: Readonly<Record<string, string>> = {
  canary:
    "A scheduled check no reader waits for. Its run is HTTP to the site (the page, the save, the send), which a floor of its SDK calls cannot repeat: measured against the local twin's site it was 1.52x such a floor (1001 ms against 727 ms, 3 pairs), the routes' time, not its bundle's.",
};

/** Every function the stack deploys, with its first invocation (but those `notMeasured`). */
export function measuredFunctions(): MeasuredFunction[] {
  const routes = productRouteList.map((route): MeasuredFunction => {
    const form = route.reply.kind === 'form';
    if (route.name === productRoutes.cheatSheetChallenge.name) return challengeAsDeployed(route);
    return {
      name: route.name,
      entry: route.entry,
      event: (run) => {
        const fields = visitor(run);
        return form
          ? httpEvent(
              route.method,
              route.path,
              new URLSearchParams({ ...fields, hasBook: hasBookTicked }).toString(),
              'application/x-www-form-urlencoded',
              run,
            )
          : httpEvent(route.method, route.path, JSON.stringify(fields), 'application/json', run);
      },
      // Every JSON route but the save itself comes after the save, as on the page.
      ...(!form && route.path !== productRoutes.saveRequest.path && { before: saveFirst }),
    };
  });
  const events = functionList
    .filter((fn) => fn.trigger.kind !== 'http' && !(fn.name in notMeasured))
    .map((fn): MeasuredFunction => {
      const invocation = eventFunctionEvents[fn.name];
      if (!invocation)
        throw new Error(`No first invocation for the function ${fn.name}: add one to first-invocations.ts`);
      return { name: fn.name, entry: fn.entry, ...invocation };
    });
  return [...routes, ...events];
}
