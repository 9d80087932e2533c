/**
 * What one preflight check found, and the report the command prints: one line per check, then a
 * summary that names every failed check.
 */

/** PASS holds; WARN deploys but needs attention; FAIL stops the deploy; MANUAL no API can tell. */
export type CheckStatus = 'PASS' | 'WARN' | 'FAIL' | 'MANUAL';

export interface CheckResult {
  /** Short and stable, e.g. `bootstrap us-east-1`: the summary names failed checks by it. */
  readonly name: string;
  readonly status: CheckStatus;
  /** What the check saw. */
  readonly detail: string;
  /** What to do about it; printed for WARN, FAIL and MANUAL. */
  readonly fix?: string;
}

export function formatCheckLine({ name, status, detail, fix }: CheckResult): string {
  const line = `${status.padEnd(6)} ${name}: ${detail}`;
  return fix === undefined || status === 'PASS' ? line : `${line} Fix: ${fix}`;
}

export function failedChecks(results: readonly CheckResult[]): string[] {
  return results.filter(({ status }) => status === 'FAIL').map(({ name }) => name);
}

export function formatSummary(results: readonly CheckResult[]): string {
  const count = (status: CheckStatus) => results.filter((result) => result.status === status).length;
  const counts = `${count('PASS')} passed, ${count('WARN')} warnings, ${count('FAIL')} failed, ${count('MANUAL')} manual`;
  const failed = failedChecks(results);
  return failed.length === 0
    ? `Preflight: ${counts}. Nothing fails: deploy with the same -c values.`
    : `Preflight: ${counts}. Failed: ${failed.join(', ')}.`;
}

/** 0 when nothing fails, 1 otherwise (2, for usage errors, is the command's). */
export function exitCodeOf(results: readonly CheckResult[]): 0 | 1 {
  return failedChecks(results).length === 0 ? 0 : 1;
}
