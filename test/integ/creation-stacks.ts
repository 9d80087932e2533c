/**
 * The construct creation stacks and stack traces CDK records in a cloud assembly's `*.metadata.json`: absolute paths
 * of the machine that synthesized it. integ-runner compares templates only, so the committed
 * snapshot goes without them: no local paths in the repository, no churn when another checkout
 * regenerates it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const creationStack = 'aws:cdk:creationStack';

type Metadata = Record<string, { readonly type: string; readonly trace?: unknown }[]>;

/**
 * Removes every creation-stack entry, and the `trace` of every other entry, from the `*.metadata.json`
 * files directly in `directory`; returns the files changed.
 */
export function dropCreationStacks(directory: string): string[] {
  const changed: string[] = [];
  for (const name of readdirSync(directory).filter((file) => file.endsWith('.metadata.json'))) {
    const file = path.join(directory, name);
    const metadata = JSON.parse(readFileSync(file, 'utf8')) as Metadata;
    const kept = Object.fromEntries(
      Object.entries(metadata).map(([construct, entries]) => [
        construct,
        entries
          .filter((entry) => entry.type !== creationStack)
          .map((entry) => Object.fromEntries(Object.entries(entry).filter(([key]) => key !== 'trace'))),
      ]),
    );
    if (JSON.stringify(kept) === JSON.stringify(metadata)) continue;
    writeFileSync(file, `${JSON.stringify(kept, undefined, 2)}\n`);
    changed.push(file);
  }
  return changed;
}
