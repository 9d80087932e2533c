/**
 * The committed snapshot must not change when the author edits content/: every asset hash of an
 * offline synthesis (`INTEG_SNAPSHOT=1`, set by `npm run integ:snapshot` and the snapshot check) is
 * replaced by a hash of the asset's name (its `displayName`, the construct path), in every file of
 * the cloud assembly. The functions' bundles hold the e-mail's words, so their real hashes follow
 * every copy edit; the site's and the PDF's come from fixed fixtures in that mode (integ.product.ts).
 * A real run (`npm run integ`) deploys the real assets: this never touches it.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The variable that marks a synthesis for the committed snapshot. */
export const snapshotModeVariable = 'INTEG_SNAPSHOT';

interface AssetManifest {
  readonly files?: Record<string, { readonly displayName?: string }>;
  readonly dockerImages?: Record<string, { readonly displayName?: string }>;
}

/** Each asset hash of `directory`'s asset manifests, with the name-derived hash replacing it. */
export function contentFreeHashes(directory: string): Map<string, string> {
  const replacements = new Map<string, string>();
  for (const name of readdirSync(directory).filter((file) => file.endsWith('.assets.json'))) {
    const manifest = JSON.parse(readFileSync(path.join(directory, name), 'utf8')) as AssetManifest;
    for (const [hash, asset] of Object.entries({ ...manifest.files, ...manifest.dockerImages })) {
      const stableName = `${name}:${asset.displayName ?? hash}`;
      replacements.set(hash, createHash('sha256').update(stableName).digest('hex'));
    }
  }
  return replacements;
}

/** Rewrites every asset hash in the JSON files directly in `directory`; returns the files changed. */
export function replaceAssetHashes(directory: string): string[] {
  const replacements = contentFreeHashes(directory);
  if (replacements.size === 0) return [];
  const pattern = new RegExp([...replacements.keys()].join('|'), 'g');
  const changed: string[] = [];
  for (const name of readdirSync(directory)) {
    const file = path.join(directory, name);
    if (!name.endsWith('.json') || !statSync(file).isFile()) continue;
    const text = readFileSync(file, 'utf8');
    const rewritten = text.replace(pattern, (hash) => replacements.get(hash) ?? hash);
    if (rewritten === text) continue;
    writeFileSync(file, rewritten);
    changed.push(file);
  }
  return changed;
}
