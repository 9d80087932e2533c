/**
 * The preflight's arguments: the `-c KEY=VALUE` pairs `cdk deploy` takes (also `--context`), and
 * nothing else. Anything else is a usage error, so a typo never runs the checks against a context
 * the deploy will not use.
 */

import { parseArgs } from 'node:util';

export const usage =
  'Usage: npm run preflight -- [-c KEY=VALUE ...]   (the same -c values as cdk deploy, e.g. -c stage=staging)';

/** A malformed command line; its message says what was wrong. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CommandLine {
  /** The -c pairs in the order given: a later pair for the same key wins, as in the CDK CLI. */
  readonly context: Readonly<Record<string, string>>;
  readonly help: boolean;
}

export function parseCommandLine(args: readonly string[]): CommandLine {
  let values: { context?: string[]; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      allowPositionals: false,
      strict: true,
      options: { context: { type: 'string', short: 'c', multiple: true }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const context: Record<string, string> = {};
  for (const pair of values.context ?? []) {
    const separator = pair.indexOf('=');
    if (separator <= 0) throw new UsageError(`-c takes KEY=VALUE, got "${pair}"`);
    context[pair.slice(0, separator)] = pair.slice(separator + 1);
  }
  return { context, help: values.help === true };
}
