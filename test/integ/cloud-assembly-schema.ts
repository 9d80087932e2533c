/**
 * The cloud assembly's schema label, lowered for integ-runner: see test/integ/integ-runner-app.ts
 * (integ-runner's `--app`) for why.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
/** The `revision` of the schema bundled in @aws-cdk/integ-runner 2.197.x, as `<revision>.0.0`. */
export const integRunnerSchemaVersion = '53.0.0';

/** The files of a cloud assembly that carry a schema `version`: its manifest, the integ manifest, the asset manifests. */
const isVersionedManifest = (name: string) =>
  name === 'manifest.json' || name === 'integ.json' || name.endsWith('.assets.json');

/** Lowers `version` in every versioned manifest under `directory` (nested assemblies too); returns the files changed. */
export function lowerSchemaVersions(directory: string, version = integRunnerSchemaVersion): string[] {
  const changed: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    // asset.* folders hold bundled code, not manifests.
    if (entry.isDirectory() && !entry.name.startsWith('asset.')) changed.push(...lowerSchemaVersions(file, version));
    if (!entry.isFile() || !isVersionedManifest(entry.name)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    if (typeof manifest.version !== 'string' || majorOf(manifest.version) <= majorOf(version)) continue;
    writeFileSync(file, `${JSON.stringify({ ...manifest, version }, undefined, 2)}\n`);
    changed.push(file);
  }
  return changed;
}

const majorOf = (version: string) => Number(version.split('.')[0]);
