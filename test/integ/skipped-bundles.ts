/**
 * The committed snapshot's synthesis (`INTEG_SNAPSHOT=1`) skips esbuild (integ.product.ts): every
 * asset hash is replaced by one of the asset's name there, so the templates are those of a bundled
 * synthesis, and bundling the ten functions was most of the snapshot check's CPU. aws-cdk-lib then
 * records each skipped bundle's source as the folder it would have bundled from, an absolute path
 * of this machine, where a bundled synthesis writes the staged `asset.<hash>` folder. integ-runner
 * reads the difference: it lists an asset under `asset.` as an asset (its hash a placeholder in the
 * comparison) and an absolute path as not, so the committed snapshot would stop matching and hold a
 * local path. Each such source is pointed back at `asset.<hash>`, as a bundled synthesis has it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface AssetManifest {
  readonly files?: Record<string, { readonly source?: { path?: string } }>;
}

/** Points every absolute asset source in `directory`'s asset manifests at `asset.<hash>`; returns the files changed. */
export function pointSkippedBundlesAtAssets(directory: string): string[] {
  const changed: string[] = [];
  for (const name of readdirSync(directory).filter((file) => file.endsWith('.assets.json'))) {
    const file = path.join(directory, name);
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as AssetManifest;
    let skipped = 0;
    for (const [hash, asset] of Object.entries(manifest.files ?? {})) {
      if (asset.source?.path === undefined || !path.isAbsolute(asset.source.path)) continue;
      asset.source.path = `asset.${hash}`;
      skipped += 1;
    }
    if (skipped === 0) continue;
    writeFileSync(file, `${JSON.stringify(manifest, undefined, 2)}\n`);
    changed.push(file);
  }
  return changed;
}
