import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { failureKindList, failureKinds } from '../../../core/api/catalogue/failures';
import { productRouteList, productRoutes } from '../../../core/api/catalogue/routes';
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
    expect(jsonReply(201, { id: 'x' }, productRoutes.saveRequest)).toEqual({
      statusCode: 201,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
      body: '{"id":"x"}',
    });
  });

  test.each(productRouteList.map((route) => [route.path, route.method] as const))(
    "answers a 405 on %s with Allow naming its entry's method, %s",
    (_, method) => {
      expect(jsonReply(405, {}, { method }).headers).toMatchObject({ Allow: method });
    },
  );
});

/** Every kind of the catalogue but the unexpected one, thrown as the functions throw it. */
const oneOfEach = failureKindList
  .filter((kind) => kind.name !== 'unexpected')
  .map((kind) => new ProductError(kind.name, `A ${kind.name}.`, { limit: kind.exampleLimit }));

describe('the reply of each typed error', () => {
  test.each(oneOfEach.map((error) => [error.kind, error] as const))(
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

  test("every failure kind but the unexpected one is thrown by the functions' code", () => {
    const thrown = lambdaSources().join('\n');
    const neverThrown = oneOfEach
      .map((error) => error.kind)
      .filter((kind) => !new RegExp(`(new ProductError|limitReached)\\(\\s*'${kind}'`).test(thrown));

    expect(neverThrown).toEqual([]);
  });

  test('anything else thrown is unexpected: 500, a fixed sentence, code unexpected', () => {
    expect(describeFailure(new TypeError('x is undefined'))).toEqual({
      statusCode: 500,
      message: 'Something went wrong on our side. Please try again later.',
      code: 'unexpected',
    });
  });
});

/** Every TypeScript file under lambdas/, as text: where the functions throw. */
function lambdaSources(): string[] {
  const files = readdirSync('lambdas', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  return files.map((file) => readFileSync(path.join('lambdas', file), 'utf8'));
}
