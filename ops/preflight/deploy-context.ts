/**
 * The context `cdk deploy` would see, read by the app's own parser (infra/config.ts), so the
 * preflight checks exactly the deployment the app would make: cdk.json's `context`, then the `-c`
 * pairs over it (as the CDK CLI merges them), then a named stage's values from `stages`, each
 * refused with the app's own one line (an unknown stage, a stage missing a value, a bad value).
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDeploymentConfig, type ContextLookup, type DeploymentConfig, type Stage } from '../../infra/config';
import { UsageError } from './command-line';

/** A named stage: where its stacks are deployed. */
export type StageTarget = Stage;

export interface DeployContext {
  /** The configuration the app would build its stacks from. */
  readonly config: DeploymentConfig;
  /** Every context value as the app's `tryGetContext` reads it (settings the app leaves to CDK, too). */
  readonly lookup: ContextLookup;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export async function readCdkJson(directory: string): Promise<JsonObject> {
  const file = path.join(directory, 'cdk.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new UsageError(`no cdk.json in ${directory}: run the preflight from the repository's root`);
  }
  const parsed: unknown = JSON.parse(text);
  if (!isObject(parsed)) throw new UsageError(`${file} is not a JSON object`);
  return parsed;
}

/** The app's context lookup: cdk.json's `context`, the `-c` values winning (they are strings, as the CLI passes them). */
export function contextLookup(cdkJson: JsonObject, commandLine: Readonly<Record<string, string>>): ContextLookup {
  const context: JsonObject = { ...(isObject(cdkJson.context) ? cdkJson.context : {}), ...commandLine };
  return (key) => context[key];
}

/** Parses the context as the app does; a value the app refuses throws the app's ConfigError. */
export function readDeployContext(cdkJson: JsonObject, commandLine: Readonly<Record<string, string>>): DeployContext {
  const lookup = contextLookup(cdkJson, commandLine);
  return { config: parseDeploymentConfig(lookup), lookup };
}
