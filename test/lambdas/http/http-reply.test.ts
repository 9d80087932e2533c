import { failureKinds } from '../../../core/api/catalogue/failures';
import { limitReached, ProductError } from '../../../lambdas/runtime/errors';
import { describeFailure, jsonReply } from '../../../lambdas/http/http-reply';

describe('describeFailure', () => {
  test.each([
    [new ProductError('invalidRequest', 'Please enter your name.'), 400],
    [new ProductError('payloadTooLarge', 'Too large.'), 413],
    [new ProductError('unsupportedMediaType', 'Send JSON.'), 415],
    [limitReached('addressDailyCapReached', 3), 429],
    [new ProductError('senderNotVerified', 'x'), 502],
    [new ProductError('emailRejected', 'x'), 502],
    [new ProductError('emailServiceUnavailable', 'x'), 503],
    [new ProductError('storageUnavailable', 'x'), 503],
    [new ProductError('cheatSheetUnavailable', 'x'), 503],
    [new ProductError('misconfigured', 'TABLE_NAME is not set'), 500],
    [new TypeError('Cannot read properties of undefined'), 500],
  ])('gives %p the status %i', (error, status) => {
    expect(describeFailure(error).statusCode).toBe(status);
  });

  test("passes the visitor's input errors through as they are", () => {
    expect(describeFailure(new ProductError('invalidRequest', 'Please enter your name.')).message).toBe(
      'Please enter your name.',
    );
  });

  test('words the per-address cap with the configured number', () => {
    expect(describeFailure(limitReached('addressDailyCapReached', 5)).message).toMatch(/5 times in the last 24 hours/);
    expect(describeFailure(limitReached('addressDailyCapReached', 1)).message).toMatch(/1 time in the last 24 hours/);
  });

  test("only the unverified sender's message contains 'domain' or 'verify', which the page keys on", () => {
    const others = [
      limitReached('addressDailyCapReached', 3),
      new ProductError('emailRejected', 'MessageRejected: domain'),
      new ProductError('emailServiceUnavailable', 'x'),
      new ProductError('storageUnavailable', 'x'),
      new ProductError('cheatSheetUnavailable', 'x'),
      new ProductError('misconfigured', 'x'),
      new Error('verify domain'),
    ];

    expect(describeFailure(new ProductError('senderNotVerified', 'x')).message).toMatch(/domain/);
    expect(describeFailure(new ProductError('senderNotVerified', 'x')).message).toMatch(/verify/);
    for (const error of others) expect(describeFailure(error).message).not.toMatch(/domain|verify/i);
  });

  test('never shows the internal message of a server-side failure', () => {
    const failure = describeFailure(new ProductError('storageUnavailable', 'DynamoDB Query failed at 127.0.0.1:8000'));

    expect(failure.message).not.toContain('127.0.0.1');
    expect(failure.message).not.toContain('Query');
  });
});

describe('jsonReply', () => {
  test('serialises the body as uncacheable JSON', () => {
    expect(jsonReply(201, { id: 'x' })).toEqual({
      statusCode: 201,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
      body: '{"id":"x"}',
    });
  });
});

describe('the reply of each typed error', () => {
  const oneOfEach: ProductError[] = [
    new ProductError('invalidRequest', 'Please enter your name.'),
    new ProductError('methodNotAllowed', 'GET is not allowed here.'),
    new ProductError('unsupportedMediaType', 'Send JSON.'),
    new ProductError('crossSiteRequest', 'Not from here.'),
    new ProductError('payloadTooLarge', 'Too large.'),
    new ProductError('idempotencyKeyInUse', 'Still running.'),
    new ProductError('idempotencyKeyReused', 'Another body.'),
    limitReached('addressDailyCapReached', 3),
    limitReached('clientHourlySendCapReached', 10),
    limitReached('networkHourlySendCapReached', 30),
    limitReached('clientHourlySaveCapReached', 20),
    limitReached('networkHourlySaveCapReached', 60),
    new ProductError('undeliverableAddress', 'No mail host.'),
    new ProductError('addressSuppressed', 'Bounced before.'),
    new ProductError('sendingPaused', 'Paused.'),
    limitReached('dailySendBudgetSpent', 500),
    new ProductError('untrustedOrigin', 'No secret.'),
    new ProductError('proofOfWorkRefused', 'Send the form again.'),
    new ProductError('recipientRejected', 'Illegal address.'),
    new ProductError('originSecretUnavailable', 'x'),
    new ProductError('senderNotVerified', 'x'),
    new ProductError('emailRejected', 'x'),
    new ProductError('emailServiceUnavailable', 'x'),
    new ProductError('storageUnavailable', 'x'),
    new ProductError('cheatSheetUnavailable', 'x'),
    new ProductError('misconfigured', 'x'),
  ];

  test.each(oneOfEach.map((error) => [error.name, error] as const))(
    '%s is answered with the status, message and code of its kind in the catalogue',
    (_, error) => {
      const kind = failureKinds[error.kind];

      expect(describeFailure(error)).toEqual({
        statusCode: kind.status,
        message: kind.publicMessage(error),
        code: kind.code,
      });
    },
  );

  test('every failure kind but the unexpected one has a typed error', () => {
    const kinds = new Set(oneOfEach.map((error) => error.kind));

    expect(Object.keys(failureKinds).filter((kind) => !kinds.has(kind as never))).toEqual(['unexpected']);
  });

  test('anything else thrown is unexpected: 500, a fixed sentence, code unexpected', () => {
    expect(describeFailure(new TypeError('x is undefined'))).toEqual({
      statusCode: 500,
      message: 'Something went wrong on our side. Please try again later.',
      code: 'unexpected',
    });
  });
});
