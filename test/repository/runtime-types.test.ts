/**
 * Each runtime is type-checked with its own types (`npm run typecheck`): the page with the DOM's
 * and not Node's, the functions and the rest of the Node code with Node's and not the DOM's, the
 * core with neither. Each project's real options check a probe file that reaches for the other
 * runtime.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

let probes: string;
beforeAll(async () => {
  probes = await mkdtemp(path.join(os.tmpdir(), 'runtime-types-'));
});
afterAll(() => rm(probes, { recursive: true, force: true }));

/** The diagnostics of `source` checked with the compiler options of the project `tsconfig`. */
async function check(tsconfig: string, source: string): Promise<string[]> {
  const configPath = path.join(process.cwd(), tsconfig);
  const { config } = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configPath));
  // Type roots resolve from the project, wherever the probe lives.
  options.typeRoots = [path.join(process.cwd(), 'node_modules', '@types')];
  const probe = path.join(probes, `probe-${Math.random().toString(36).slice(2)}.ts`);
  await writeFile(probe, source);
  const program = ts.createProgram([probe], options);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

const readsTheDocument = 'export const title: string = document.title;\n';
const usesBuffer = "export const bytes: number = Buffer.from('x').length;\n";

test('the page may read the document', async () => {
  expect(await check('frontend/tsconfig.json', readsTheDocument)).toEqual([]);
});

test('the page may not use Node’s Buffer', async () => {
  expect((await check('frontend/tsconfig.json', usesBuffer)).join('\n')).toContain("Cannot find name 'Buffer'");
});

test('Node code (functions, stack, local twin, scripts) may use Buffer', async () => {
  expect(await check('tsconfig.json', usesBuffer)).toEqual([]);
});

test('Node code may not read the document', async () => {
  expect((await check('tsconfig.json', readsTheDocument)).join('\n')).toContain("Cannot find name 'document'");
});

test('the core may use neither the document nor Buffer', async () => {
  const problems = (await check('core/tsconfig.json', readsTheDocument + usesBuffer)).join('\n');

  expect(problems).toContain("Cannot find name 'document'");
  expect(problems).toContain("Cannot find name 'Buffer'");
});
