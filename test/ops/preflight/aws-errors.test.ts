import { describeError, isMissingCredentials, isMissingStack } from '../../../ops/preflight/aws-errors';

const named = (name: string, message: string) => Object.assign(new Error(message), { name });

describe("reading the SDK's errors", () => {
  test('knows the default chain finding no credentials', () => {
    expect(
      isMissingCredentials(named('CredentialsProviderError', 'Could not load credentials from any providers')),
    ).toBe(true);
  });

  test('knows a profile that does not exist', () => {
    expect(isMissingCredentials(named('Error', 'Profile ops could not be found in shared credentials file.'))).toBe(
      true,
    );
  });

  test('does not take an access denial for missing credentials', () => {
    expect(isMissingCredentials(named('AccessDenied', 'User is not authorized'))).toBe(false);
  });

  test("knows CloudFormation's answer for a stack that does not exist", () => {
    expect(isMissingStack(named('ValidationError', 'Stack with id First100DaysSite does not exist'))).toBe(true);
  });

  test('describes an error by its name and first line', () => {
    expect(describeError(named('ThrottlingException', 'Rate exceeded\nmore'))).toBe(
      'ThrottlingException: Rate exceeded',
    );
  });
});
