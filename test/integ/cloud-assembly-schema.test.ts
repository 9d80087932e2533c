import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { integRunnerSchemaVersion, lowerSchemaVersions } from './cloud-assembly-schema';

let assembly: string;
beforeEach(() => {
  assembly = mkdtempSync(path.join(tmpdir(), 'integ-runner-app-'));
});
afterEach(() => rmSync(assembly, { recursive: true, force: true }));

const write = (file: string, content: unknown) => {
  mkdirSync(path.dirname(path.join(assembly, file)), { recursive: true });
  writeFileSync(path.join(assembly, file), JSON.stringify(content));
};
const versionOf = (file: string) =>
  (JSON.parse(readFileSync(path.join(assembly, file), 'utf8')) as { version: string }).version;

describe('lowering the schema versions of a cloud assembly for integ-runner', () => {
  test("writes integ-runner's version into the manifest, the integ manifest and the asset manifests", () => {
    for (const file of ['manifest.json', 'integ.json', 'Stack.assets.json']) write(file, { version: '55.0.0' });
    lowerSchemaVersions(assembly);
    expect(['manifest.json', 'integ.json', 'Stack.assets.json'].map(versionOf)).toEqual([
      integRunnerSchemaVersion,
      integRunnerSchemaVersion,
      integRunnerSchemaVersion,
    ]);
  });

  test('keeps everything else in the manifest as it was', () => {
    write('manifest.json', { version: '55.0.0', artifacts: { Stack: { type: 'aws:cloudformation:stack' } } });
    lowerSchemaVersions(assembly);
    expect(JSON.parse(readFileSync(path.join(assembly, 'manifest.json'), 'utf8'))).toEqual({
      version: integRunnerSchemaVersion,
      artifacts: { Stack: { type: 'aws:cloudformation:stack' } },
    });
  });

  test('lowers the manifests of nested assemblies too', () => {
    write('assembly-Stage/manifest.json', { version: '55.0.0' });
    lowerSchemaVersions(assembly);
    expect(versionOf('assembly-Stage/manifest.json')).toBe(integRunnerSchemaVersion);
  });

  test('leaves a version integ-runner already reads, and the templates, alone', () => {
    write('manifest.json', { version: '36.0.0' });
    write('Stack.template.json', { version: '55.0.0' });
    expect(lowerSchemaVersions(assembly)).toEqual([]);
    expect([versionOf('manifest.json'), versionOf('Stack.template.json')]).toEqual(['36.0.0', '55.0.0']);
  });
});
