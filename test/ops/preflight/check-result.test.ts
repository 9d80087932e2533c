import { exitCodeOf, formatCheckLine, formatSummary, type CheckResult } from '../../../ops/preflight/check-result';

const pass: CheckResult = { name: 'region', status: 'PASS', detail: 'eu-west-1', fix: 'never shown' };
const fail: CheckResult = {
  name: 'bootstrap us-east-1',
  status: 'FAIL',
  detail: 'not bootstrapped',
  fix: 'npx cdk bootstrap',
};
const warn: CheckResult = { name: 'SES sandbox', status: 'WARN', detail: 'in the sandbox', fix: 'leave it' };

describe('the preflight report', () => {
  test('prints a failure with its status, name, what it saw and the fix', () => {
    expect(formatCheckLine(fail)).toBe('FAIL   bootstrap us-east-1: not bootstrapped Fix: npx cdk bootstrap');
  });

  test('prints no fix on a passing line', () => {
    expect(formatCheckLine(pass)).toBe('PASS   region: eu-west-1');
  });

  test('names every failed check in the summary', () => {
    expect(formatSummary([pass, fail, warn, { ...fail, name: 'tables' }])).toBe(
      'Preflight: 1 passed, 1 warnings, 2 failed, 0 manual. Failed: bootstrap us-east-1, tables.',
    );
  });

  test('says nothing fails when only warnings remain', () => {
    expect(formatSummary([pass, warn])).toMatch(/Nothing fails/);
  });

  test('exits 1 when a check fails', () => {
    expect(exitCodeOf([pass, fail])).toBe(1);
  });

  test('exits 0 with warnings only', () => {
    expect(exitCodeOf([pass, warn])).toBe(0);
  });
});
