/**
 * The context `cdk deploy` would see, merged the way the app reads it: cdk.json's `context`, then
 * the chosen stage's values (`-c stage=NAME`, a key of cdk.json's `stages`), then the `-c` pairs.
 * Later wins. Kept apart from infra/ (ops may not import it), so it reads only the few keys the
 * checks need.
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from './command-line';

/** A stage as cdk.json describes it: where it deploys, and context values of its own. */
export interface StageTarget {
  readonly name: string;
  readonly account?: string;
  readonly region?: string;
}

export interface DeployContext {
  /** Every context value, merged. */
  readonly values: Readonly<Record<string, unknown>>;
  readonly stage?: StageTarget;
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

/**
 * Stages may sit in cdk.json's `context.stages` (what `tryGetContext('stages')` reads) or at its
 * top level; a stage's own context values may be flat or under `context`.
 */
export function mergeDeployContext(cdkJson: JsonObject, commandLine: Readonly<Record<string, string>>): DeployContext {
  const base = isObject(cdkJson.context) ? cdkJson.context : {};
  const stageName = commandLine.stage ?? (typeof base.stage === 'string' ? base.stage : undefined);
  if (stageName === undefined) return { values: { ...base, ...commandLine } };

  const stages = isObject(base.stages) ? base.stages : isObject(cdkJson.stages) ? cdkJson.stages : {};
  const stage = stages[stageName];
  if (!isObject(stage)) {
    const known = Object.keys(stages);
    throw new UsageError(
      `stage "${stageName}" is not in cdk.json's stages (${known.length > 0 ? `known: ${known.join(', ')}` : 'none defined'})`,
    );
  }
  const { account, region, context: nested, ...flat } = stage;
  const values = { ...base, ...flat, ...(isObject(nested) ? nested : {}), ...commandLine };
  return {
    values,
    stage: {
      name: stageName,
      ...((typeof account === 'string' || typeof account === 'number') && { account: String(account) }),
      ...(typeof region === 'string' && { region }),
    },
  };
}
