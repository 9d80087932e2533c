/**
 * `tsx test/integ/integ-runner-app.ts <integ app>`: integ-runner's `--app` (package.json `integ`,
 * `integ:snapshot`, and the snapshot check in npm test). Runs the integration test's app, then
 * writes, in every manifest of the cloud assembly it produced, the newest schema version that
 * integ-runner reads.
 *
 * Why: aws-cdk-lib writes a newer cloud assembly schema than the newest @aws-cdk/integ-runner
 * reads (its own copy of the schema stops at `integRunnerSchemaVersion`), and integ-runner refuses
 * a newer one outright ("Cloud assembly schema version mismatch"). Nothing in this assembly uses
 * what the newer revisions added (they add optional fields; integ-runner reads templates, stack
 * names and the integ manifest), so the files are read as they are, only their label lowered.
 * It also drops the construct creation stacks (local paths) from the metadata, which integ-runner
 * does not compare, and, for the committed snapshot (`INTEG_SNAPSHOT=1`), replaces every asset hash
 * by one of the asset's name (content-free-assets.ts), so a copy edit never changes it, with the functions
 * unbundled (skipped-bundles.ts). Delete this wrapper once an integ-runner release reads the schema aws-cdk-lib writes.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { lowerSchemaVersions } from './cloud-assembly-schema';
import { replaceAssetHashes, snapshotModeVariable } from './content-free-assets';
import { dropCreationStacks } from './creation-stacks';
import { pointSkippedBundlesAtAssets } from './skipped-bundles';

const [appFile] = process.argv.slice(2);
const outdir = process.env.CDK_OUTDIR;
if (appFile === undefined || outdir === undefined) {
  console.error('Usage (as integ-runner --app): CDK_OUTDIR=<dir> tsx test/integ/integ-runner-app.ts <integ app>');
  process.exit(2);
}
// tsx is on the PATH wherever integ-runner runs (npm run puts node_modules/.bin there).
const app = spawnSync('tsx', [appFile], { stdio: 'inherit' });
if (app.status !== 0) process.exit(app.status ?? 1);
lowerSchemaVersions(path.resolve(outdir));
// No local paths in the committed snapshot (test/integ/creation-stacks.ts).
dropCreationStacks(path.resolve(outdir));
// For the committed snapshot only: asset hashes that no copy edit changes (test/integ/content-free-assets.ts),
// and the bundles it skips recorded as a bundled synthesis records them (test/integ/skipped-bundles.ts).
if (process.env[snapshotModeVariable] === '1') {
  replaceAssetHashes(path.resolve(outdir));
  pointSkippedBundlesAtAssets(path.resolve(outdir));
}
