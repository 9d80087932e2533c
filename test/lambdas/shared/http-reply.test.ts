import {
  CheatSheetUnavailableError,
  ConfigurationError,
  AddressDailyCapReachedError,
  EmailRejectedError,
  EmailServiceUnavailableError,
  InvalidRequestError,
  PayloadTooLargeError,
  SenderNotVerifiedError,
  StorageUnavailableError,
  UnsupportedMediaTypeError,
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
