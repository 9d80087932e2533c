import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pointSkippedBundlesAtAssets } from './skipped-bundles';

let assembly: string;
beforeEach(() => {
  assembly = mkdtempSync(path.join(tmpdir(), 'skipped-bundles-'));
});
afterEach(() => rmSync(assembly, { recursive: true, force: true }));

const manifestFile = () => path.join(assembly, 'Stack.assets.json');
const write = (files: Record<string, unknown>) =>
  writeFileSync(manifestFile(), JSON.stringify({ version: '53.0.0', files }));
const read = () => JSON.parse(readFileSync(manifestFile(), 'utf8')) as { files: Record<string, { source: unknown }> };

test("points a skipped bundle's source, the folder it would bundle from, at the asset folder a bundle is staged in", () => {
  write({ abc123: { displayName: 'Api/Save/Code', source: { path: '/home/someone/app', packaging: 'zip' } } });

  pointSkippedBundlesAtAssets(assembly);

  expect(read().files.abc123!.source).toEqual({ path: 'asset.abc123', packaging: 'zip' });
});

test('leaves staged assets and the templates alone', () => {
  write({
    def456: { source: { path: 'asset.def456', packaging: 'zip' } },
    Stack: { source: { path: 'Stack.template.json', packaging: 'file' } },
  });

  expect(pointSkippedBundlesAtAssets(assembly)).toEqual([]);
  expect(read().files.def456!.source).toEqual({ path: 'asset.def456', packaging: 'zip' });
});
