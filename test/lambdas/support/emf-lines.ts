/**
 * The functions' metrics as CloudWatch reads them: the embedded-metric-format lines a handler
 * writes to stdout, captured and read back, with the environment that turns them on.
 */

import { metricsNamespace } from '../../../core/observability/product-metrics';

export interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string }> }>;
  };
  [key: string]: unknown;
}

/** Runs `run` with metrics on, returning the EMF lines written to stdout (and everything written). */
export async function emfOf(run: () => Promise<void> | void): Promise<{ lines: EmfLine[]; written: string }> {
  const chunks: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  const written = chunks.join('');
  const lines = written
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line): line is EmfLine => '_aws' in line);
  return { lines, written };
}

/** Each metric a line declares, with its dimensions' values and its own value. */
export function metricsIn(
  lines: EmfLine[],
): Array<{ name: string; dimensions: Record<string, unknown>; value: unknown }> {
  return lines.flatMap((line) =>
    line._aws.CloudWatchMetrics.flatMap(({ Namespace, Dimensions, Metrics }) => {
      if (Namespace !== metricsNamespace) throw new Error(`A metric outside ${metricsNamespace}: ${Namespace}`);
      return Metrics.map(({ Name }) => ({
        name: Name,
        dimensions: Object.fromEntries(Dimensions.flat().map((dimension) => [dimension, line[dimension]])),
        value: line[Name],
      }));
    }),
  );
}

/** Lambda's environment as Powertools reads it: metrics on, and an on-demand container (cold starts counted). */
export const lambdaEnvironment = { POWERTOOLS_METRICS_DISABLED: 'false', AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' };

/** Runs `use` with `env` set, then puts the environment back as it was. */
export function withEnvironment<T>(env: Record<string, string>, use: () => T): T {
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  const restore = () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  try {
    const result = use();
    if (result instanceof Promise) return result.finally(restore) as T;
    restore();
    return result;
  } catch (error) {
    restore();
    throw error;
  }
}
