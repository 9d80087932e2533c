/**
 * The smoke test's report as a GitHub job summary (the run's Summary page): a pipeline run that
 * passes with a warning, a new stage's pending sender identity, says there what to do, with the DNS
 * records to add, where the operator looks first rather than deep in the step's log.
 */

import { appendFile } from 'node:fs/promises';
import type { CheckResult } from './site-checks';

/** The summary's Markdown: the verdict, then each check that warned or failed with its fix lines. */
export function jobSummary(title: string, results: readonly CheckResult[]): string {
  const failed = results.filter(({ ok }) => !ok);
  const warned = results.filter(({ ok, warning }) => ok && warning);
  const verdict =
    failed.length > 0
      ? `${failed.length} of ${results.length} checks failed.`
      : `All ${results.length} checks passed${warned.length > 0 ? `, ${warned.length} with a warning` : ''}.`;
  const items = [...failed, ...warned].flatMap((result) => [
    `- **${result.ok ? 'WARN' : 'FAIL'} ${result.name}**: ${result.detail}`,
    ...(result.fixLines && result.fixLines.length > 0
      ? ['', '  ```', ...result.fixLines.map((line) => `  ${line}`), '  ```']
      : []),
  ]);
  return [`## Smoke test: ${title}`, '', verdict, ...(items.length > 0 ? ['', ...items] : []), ''].join('\n');
}

/** Appends the summary to the file GitHub Actions names in GITHUB_STEP_SUMMARY; outside a job, nothing. */
export async function appendJobSummary(
  env: NodeJS.ProcessEnv,
  title: string,
  results: readonly CheckResult[],
): Promise<void> {
  const file = env.GITHUB_STEP_SUMMARY;
  if (file) await appendFile(file, `${jobSummary(title, results)}\n`);
}
