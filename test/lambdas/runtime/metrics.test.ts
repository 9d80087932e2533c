/**
 * The functions' metrics as CloudWatch reads them: the embedded-metric-format lines on stdout.
 * First each typed error and each refusal on its own, then through the real handlers against
 * the emulators.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { limitReached, ProductError } from '../../../lambdas/runtime/errors';
import { ProductMetrics } from '../../../lambdas/runtime/metrics';
import {
  failureMetricKinds,
  refusalMetrics,
  type FailureMetricKind,
} from '../../../core/observability/product-metrics';
import { emfOf, lambdaEnvironment, metricsIn, withEnvironment } from '../support/emf-lines';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { formRoute, postEvent, saveRoute, sendRoute } from '../support/http-api-events';

/** Metrics constructed as in Lambda (the handler tests' environment disables them). */
function enabledMetrics(service: 'save-request' | 'send-cheat-sheet'): ProductMetrics {
  return withEnvironment(lambdaEnvironment, () => new ProductMetrics(service));
}

const lambdaContext = { functionName: 'First100DaysSite-SendFunction' } as Context;

/** Every failure kind and an error that stands for it. */
const errorOfKind: Record<FailureMetricKind, Error> = {
  SesRejected: new ProductError('emailRejected', 'SES rejected the message'),
  SesUnavailable: new ProductError('emailServiceUnavailable', 'SES is unavailable'),
  SenderNotVerified: new ProductError('senderNotVerified', 'SES refused an unverified identity'),
  StorageUnavailable: new ProductError('storageUnavailable', 'DynamoDB PutItem failed'),
  PdfUnavailable: new ProductError('cheatSheetUnavailable', 'Could not read the PDF'),
  Misconfigured: new ProductError('misconfigured', 'Environment variable TABLE_NAME is not set'),
  Unexpected: new TypeError("Cannot read properties of undefined (reading 'id')"),
};

describe('one failure or refusal', () => {
  test.each(failureMetricKinds.map((kind) => [kind]))(
    'a send failing with %s counts one SendFailed of that kind',
    async (kind) => {
      const metrics = enabledMetrics('send-cheat-sheet');
      const { lines } = await emfOf(() =>
        metrics.instrument(async () => metrics.countFailure(errorOfKind[kind]))(undefined, lambdaContext),
      );
      expect(metricsIn(lines).filter(({ name }) => name !== 'ColdStart')).toEqual([
        { name: 'SendFailed', dimensions: { service: 'send-cheat-sheet', kind }, value: 1 },
      ]);
    },
  );

  test('a save failing counts SaveFailed, not SendFailed', async () => {
    const metrics = enabledMetrics('save-request');
    const { lines } = await emfOf(() =>
      metrics.instrument(async () => metrics.countFailure(errorOfKind.StorageUnavailable))(undefined, lambdaContext),
    );
    expect(metricsIn(lines).filter(({ name }) => name !== 'ColdStart')).toEqual([
      { name: 'SaveFailed', dimensions: { service: 'save-request', kind: 'StorageUnavailable' }, value: 1 },
    ]);
  });

  test.each(refusalMetrics.map((refusal) => [refusal]))(
    'a %s refusal counts that metric, by service only',
    async (refusal) => {
      const metrics = enabledMetrics('send-cheat-sheet');
      const { lines } = await emfOf(() =>
        metrics.instrument(async () => metrics.countRefusal(refusal))(undefined, lambdaContext),
      );
      expect(metricsIn(lines).filter(({ name }) => name !== 'ColdStart')).toEqual([
        { name: refusal, dimensions: { service: 'send-cheat-sheet' }, value: 1 },
      ]);
    },
  );

  test("the per-address cap's error counts AddressCapReached, not a failure", async () => {
    const metrics = enabledMetrics('send-cheat-sheet');
    const { lines } = await emfOf(() =>
      metrics.instrument(async () => metrics.countFailure(limitReached('addressDailyCapReached', 3)))(
        undefined,
        lambdaContext,
      ),
    );
    expect(metricsIn(lines).filter(({ name }) => name !== 'ColdStart')).toEqual([
      { name: 'AddressCapReached', dimensions: { service: 'send-cheat-sheet' }, value: 1 },
    ]);
  });

  test.each([
    ['ClientCapReached', limitReached('clientHourlySendCapReached', 10)],
    ['SendBudgetRefused', limitReached('dailySendBudgetSpent', 500)],
  ] as const)("the per-client limit's and the budget's errors count %s, not a failure", async (refusal, error) => {
    const metrics = enabledMetrics('send-cheat-sheet');
    const { lines } = await emfOf(() =>
      metrics.instrument(async () => metrics.countFailure(error))(undefined, lambdaContext),
    );
    expect(metricsIn(lines).filter(({ name }) => name !== 'ColdStart')).toEqual([
      { name: refusal, dimensions: { service: 'send-cheat-sheet' }, value: 1 },
    ]);
  });

  test('an origin secret that cannot be read counts as Misconfigured (it is read once per container)', async () => {
    const metrics = enabledMetrics('send-cheat-sheet');
    const { lines } = await emfOf(() =>
      metrics.instrument(async () => metrics.countFailure(new ProductError('originSecretUnavailable', 'denied')))(
        undefined,
        lambdaContext,
      ),
    );
    expect(metricsIn(lines).filter(({ name }) => name !== 'ColdStart')).toEqual([
      { name: 'SendFailed', dimensions: { service: 'send-cheat-sheet', kind: 'Misconfigured' }, value: 1 },
    ]);
  });

  test('a direct call past CloudFront counts one UntrustedOrigin refusal, which the direct-calls alarm reads', async () => {
    const metrics = enabledMetrics('save-request');
    const { lines } = await emfOf(() =>
      metrics.instrument(async () => metrics.countFailure(new ProductError('untrustedOrigin', 'No origin secret')))(
        undefined,
        lambdaContext,
      ),
    );
    expect(metricsIn(lines).filter(({ name }) => name !== 'ColdStart')).toEqual([
      { name: 'UntrustedOrigin', dimensions: { service: 'save-request' }, value: 1 },
    ]);
  });

  test.each([
    new ProductError('invalidRequest', 'Please enter a valid email address.'),
    new ProductError('methodNotAllowed', 'GET is not allowed here'),
    new ProductError('payloadTooLarge', 'The request body is larger than 10 KB.'),
    new ProductError('unsupportedMediaType', 'Please send the request as JSON'),
    // A suppressed mailbox: the bounce or complaint was counted by SES already; no alarm may count it again.
    new ProductError('addressSuppressed', 'The mailbox bounced for good or complained before'),
  ])(
    "a visitor's malformed request or a suppressed mailbox ($kind) counts nothing and prints nothing",
    async (error) => {
      const metrics = enabledMetrics('send-cheat-sheet');
      await emfOf(() => metrics.instrument(async () => undefined)(undefined, lambdaContext)); // the cold start
      const { written } = await emfOf(() =>
        metrics.instrument(async () => metrics.countFailure(error))(undefined, lambdaContext),
      );
      expect(written).toBe('');
    },
  );
});

describe('once per invocation', () => {
  test("ColdStart is counted on a container's first invocation only, with the function's name", async () => {
    const metrics = enabledMetrics('save-request');
    const handler = metrics.instrument(async () => metrics.countOutcome('RequestSaved'));
    const first = await emfOf(() => handler(undefined, lambdaContext));
    const second = await emfOf(() => handler(undefined, lambdaContext));

    expect(metricsIn(first.lines)).toContainEqual({
      name: 'ColdStart',
      dimensions: { service: 'save-request', function_name: lambdaContext.functionName },
      value: 1,
    });
    expect(metricsIn(second.lines).map(({ name }) => name)).toEqual(['RequestSaved']);
  });

  test('what an invocation counted is flushed in one line, even when the handler throws', async () => {
    const metrics = enabledMetrics('send-cheat-sheet');
    await emfOf(() => metrics.instrument(async () => undefined)(undefined, lambdaContext)); // the cold start
    const failing = metrics.instrument(async () => {
      metrics.countRefusal('HoneypotCaught');
      throw new Error('uncaught');
    });

    const { lines } = await emfOf(() => expect(failing(undefined, lambdaContext)).rejects.toThrow('uncaught'));
    expect(lines).toHaveLength(1);
    expect(metricsIn(lines).map(({ name }) => name)).toEqual(['HoneypotCaught']);
  });
});

type Handler = (event: APIGatewayProxyEventV2, context?: Context) => Promise<APIGatewayProxyStructuredResultV2>;

describe('the handlers', () => {
  let emulators: HandlerStack;
  beforeAll(async () => {
    emulators = await startHandlerStack({ emailFaultInjection: true, addressDailyCap: 1 });
  });
  afterAll(() => emulators?.stop());
  afterEach(() => emulators.stack.setEmailFault(null));

  /** Fresh containers of both handlers with metrics on: what they print while `run` calls them. */
  async function handlerEmf(run: (handlers: { save: Handler; send: Handler; form: Handler }) => Promise<void>) {
    return withEnvironment(lambdaEnvironment, () =>
      emfOf(() =>
        jest.isolateModulesAsync(async () => {
          const { handler: save } = (await import('../../../lambdas/save-request/handler')) as { handler: Handler };
          const { handler: send } = (await import('../../../lambdas/send-cheat-sheet/handler')) as { handler: Handler };
          const { handler: form } = (await import('../../../lambdas/submit-form/handler')) as { handler: Handler };
          await run({ save, send, form });
        }),
      ),
    );
  }

  test('count the funnel, a failure by kind and the per-address cap, with neither name nor address anywhere', async () => {
    const visitor = { name: 'Zelda Quixote-Marlowe', email: 'zelda.metrics@example.org' };
    const other = { name: 'Yorick Metrics', email: 'yorick.metrics@example.org' };

    const { lines, written } = await handlerEmf(async ({ save, send }) => {
      expect((await save(postEvent(saveRoute, visitor), lambdaContext)).statusCode).toBe(201);
      expect((await send(postEvent(sendRoute, visitor), lambdaContext)).statusCode).toBe(200);
      expect((await send(postEvent(sendRoute, visitor), lambdaContext)).statusCode).toBe(429);
      emulators.stack.setEmailFault('unverified-sender');
      expect((await send(postEvent(sendRoute, other), lambdaContext)).statusCode).toBe(502);
    });

    const counted = metricsIn(lines).filter(({ name }) => name !== 'ColdStart');
    expect(counted).toEqual([
      { name: 'RequestSaved', dimensions: { service: 'save-request' }, value: 1 },
      { name: 'CheatSheetSent', dimensions: { service: 'send-cheat-sheet' }, value: 1 },
      { name: 'AddressCapReached', dimensions: { service: 'send-cheat-sheet' }, value: 1 },
      { name: 'SendFailed', dimensions: { service: 'send-cheat-sheet', kind: 'SenderNotVerified' }, value: 1 },
    ]);
    for (const text of ['Zelda', 'Quixote', 'zelda.metrics', 'Yorick', 'yorick.metrics', 'example.org']) {
      expect(written).not.toContain(text);
    }
  });

  test('count a caught honeypot on both routes, and the client send cap, each once', async () => {
    const bot = { name: 'Bot', email: 'bot.metrics@example.org', website: 'https://spam.example/' };

    const { lines } = await withEnvironment({ CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '1' }, () =>
      handlerEmf(async ({ save, send }) => {
        expect((await save(postEvent(saveRoute, bot), lambdaContext)).statusCode).toBe(201);
        expect((await send(postEvent(sendRoute, bot), lambdaContext)).statusCode).toBe(200);
        const client = { sourceIp: '192.0.2.200' };
        const first = { name: 'First', email: 'first.metrics@example.org' };
        const second = { name: 'Second', email: 'second.metrics@example.org' };
        expect((await send(postEvent(sendRoute, first, client), lambdaContext)).statusCode).toBe(200);
        expect((await send(postEvent(sendRoute, second, client), lambdaContext)).statusCode).toBe(429);
      }),
    );

    expect(metricsIn(lines).filter(({ name }) => name !== 'ColdStart')).toEqual([
      { name: 'HoneypotCaught', dimensions: { service: 'save-request' }, value: 1 },
      { name: 'HoneypotCaught', dimensions: { service: 'send-cheat-sheet' }, value: 1 },
      { name: 'CheatSheetSent', dimensions: { service: 'send-cheat-sheet' }, value: 1 },
      { name: 'ClientCapReached', dimensions: { service: 'send-cheat-sheet' }, value: 1 },
    ]);
  });

  test("count the form route's submit as the page's two calls, under their services; an unticked box counts nothing", async () => {
    const visitor = { name: 'Xavier Formfield', email: 'xavier.metrics@example.org' };
    const formBody = (fields: Record<string, string>) =>
      postEvent(formRoute, new URLSearchParams(fields).toString(), {
        contentType: 'application/x-www-form-urlencoded',
      });

    const { lines, written } = await handlerEmf(async ({ form }) => {
      expect((await form(formBody({ ...visitor, hasBook: 'on' }), lambdaContext)).statusCode).toBe(303);
      expect(
        (await form(formBody({ name: 'Unticked', email: 'unticked.metrics@example.org' }), lambdaContext)).statusCode,
      ).toBe(303);
    });

    expect(metricsIn(lines).filter(({ name }) => name !== 'ColdStart')).toEqual([
      { name: 'RequestSaved', dimensions: { service: 'save-request' }, value: 1 },
      { name: 'CheatSheetSent', dimensions: { service: 'send-cheat-sheet' }, value: 1 },
    ]);
    for (const text of ['Xavier', 'Formfield', 'xavier.metrics', 'Unticked', 'example.org']) {
      expect(written).not.toContain(text);
    }
  });
});
