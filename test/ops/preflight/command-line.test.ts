import { parseCommandLine, UsageError } from '../../../ops/preflight/command-line';

describe('the preflight command line', () => {
  test('reads -c KEY=VALUE pairs as the context', () => {
    expect(parseCommandLine(['-c', 'senderEmail=a@example.com', '--context', 'waf=true']).context).toEqual({
      senderEmail: 'a@example.com',
      waf: 'true',
    });
  });

  test('keeps the later of two pairs for one key, as the CDK CLI does', () => {
    expect(parseCommandLine(['-c', 'stage=staging', '-c', 'stage=production']).context).toEqual({
      stage: 'production',
    });
  });

  test('keeps an equals sign inside the value', () => {
    expect(parseCommandLine(['-c', 'note=a=b']).context).toEqual({ note: 'a=b' });
  });

  test('refuses a -c value without KEY=', () => {
    expect(() => parseCommandLine(['-c', 'senderEmail'])).toThrow(UsageError);
  });

  test('refuses an unknown flag', () => {
    expect(() => parseCommandLine(['--region', 'eu-west-1'])).toThrow(UsageError);
  });

  test('refuses a positional argument', () => {
    expect(() => parseCommandLine(['First100DaysSite'])).toThrow(UsageError);
  });

  test('recognizes --help', () => {
    expect(parseCommandLine(['--help']).help).toBe(true);
  });
});
