import { StorageUnavailableError } from '../../../lambdas/shared/errors';
import { describeErrorForLog, emailDomainOf } from '../../../lambdas/shared/logger';

describe('log redaction', () => {
  test('an address is logged as its domain only', () => {
    expect(emailDomainOf('ada.owner@example.com')).toBe('example.com');
  });

  test('an error is described by name, cause and status, with addresses masked', () => {
    const cause = Object.assign(new Error('Identity ada@example.com failed the check'), {
      name: 'MessageRejected',
      $metadata: { httpStatusCode: 400 },
    });

    expect(describeErrorForLog(new StorageUnavailableError('write for ada@example.com failed', { cause }))).toEqual({
      errorName: 'StorageUnavailableError',
      errorMessage: 'write for [email] failed',
      causeName: 'MessageRejected',
      causeMessage: 'Identity [email] failed the check',
      causeHttpStatus: 400,
    });
  });
});
