import { failureKinds } from '../../../core/api/catalogue/failures';
import {
  AddressDailyCapReachedError,
  CheatSheetUnavailableError,
  ClientHourlySendCapReachedError,
  ClientHourlySaveCapReachedError,
  NetworkHourlySendCapReachedError,
  NetworkHourlySaveCapReachedError,
  SendingPausedError,
  UndeliverableAddressError,
  ConfigurationError,
  CrossSiteRequestError,
  DailySendBudgetSpentError,
  EmailRejectedError,
  EmailServiceUnavailableError,
  InvalidRequestError,
  MethodNotAllowedError,
  OriginSecretUnavailableError,
  PayloadTooLargeError,
  SenderNotVerifiedError,
  StorageUnavailableError,
  UnsupportedMediaTypeError,
  UntrustedOriginError,
  type ProductError,
} from '../../../lambdas/shared/errors';
import { describeFailure, jsonReply } from '../../../lambdas/shared/http-reply';

describe('describeFailure', () => {
  test.each([
    [new InvalidRequestError('Please enter your name.'), 400],
    [new PayloadTooLargeError('Too large.'), 413],
    [new UnsupportedMediaTypeError('Send JSON.'), 415],
    [new AddressDailyCapReachedError(3), 429],
    [new SenderNotVerifiedError('x'), 502],
    [new EmailRejectedError('x'), 502],
    [new EmailServiceUnavailableError('x'), 503],
    [new StorageUnavailableError('x'), 503],
    [new CheatSheetUnavailableError('x'), 503],
    [new ConfigurationError('TABLE_NAME is not set'), 500],
    [new TypeError('Cannot read properties of undefined'), 500],
  ])('gives %p the status %i', (error, status) => {
    expect(describeFailure(error).statusCode).toBe(status);
  });

  test("passes the visitor's input errors through as they are", () => {
    expect(describeFailure(new InvalidRequestError('Please enter your name.')).message).toBe('Please enter your name.');
  });

  test('words the daily limit with the configured number', () => {
    expect(describeFailure(new AddressDailyCapReachedError(5)).message).toMatch(/5 times in the last 24 hours/);
    expect(describeFailure(new AddressDailyCapReachedError(1)).message).toMatch(/1 time in the last 24 hours/);
  });

  test("only the unverified sender's message contains 'domain' or 'verify', which the page keys on", () => {
    const others = [
      new AddressDailyCapReachedError(3),
      new EmailRejectedError('MessageRejected: domain'),
      new EmailServiceUnavailableError('x'),
      new StorageUnavailableError('x'),
      new CheatSheetUnavailableError('x'),
      new ConfigurationError('x'),
      new Error('verify domain'),
    ];

    expect(describeFailure(new SenderNotVerifiedError('x')).message).toMatch(/domain/);
    expect(describeFailure(new SenderNotVerifiedError('x')).message).toMatch(/verify/);
    for (const error of others) expect(describeFailure(error).message).not.toMatch(/domain|verify/i);
  });

  test('never shows the internal message of a server-side failure', () => {
    const failure = describeFailure(new StorageUnavailableError('DynamoDB Query failed at 127.0.0.1:8000'));

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
    new InvalidRequestError('Please enter your name.'),
    new MethodNotAllowedError('GET is not allowed here.'),
    new UnsupportedMediaTypeError('Send JSON.'),
    new CrossSiteRequestError('Not from here.'),
    new PayloadTooLargeError('Too large.'),
    new AddressDailyCapReachedError(3),
    new ClientHourlySendCapReachedError(10),
    new NetworkHourlySendCapReachedError(30),
    new ClientHourlySaveCapReachedError(20),
    new NetworkHourlySaveCapReachedError(60),
    new UndeliverableAddressError('No mail host.'),
    new SendingPausedError('Paused.'),
    new DailySendBudgetSpentError(500),
    new UntrustedOriginError('No secret.'),
    new OriginSecretUnavailableError('x'),
    new SenderNotVerifiedError('x'),
    new EmailRejectedError('x'),
    new EmailServiceUnavailableError('x'),
    new StorageUnavailableError('x'),
    new CheatSheetUnavailableError('x'),
    new ConfigurationError('x'),
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
