/**
 * Each runtime is type-checked with its own types (`npm run typecheck`): the page with the DOM's
 * and not Node's, the functions and the rest of the Node code with Node's and not the DOM's, the
 * core with neither. Each project's real options check a probe file that reaches for the other
 * runtime, with the compiler `npm run typecheck` runs (TypeScript 7's native one: about a fifth
 * of the CPU the JavaScript compiler API took for the same five checks).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const compiler = path.join(process.cwd(), 'node_modules/typescript-7/bin/tsc');

let probes: string;
beforeAll(async () => {
  probes = await mkdtemp(path.join(os.tmpdir(), 'runtime-types-'));
});
afterAll(() => rm(probes, { recursive: true, force: true }));

/** The errors in `source` checked with the compiler options of the project `tsconfig`, one per line. */
async function check(tsconfig: string, source: string): Promise<string[]> {
  const probe = await mkdtemp(path.join(probes, 'probe-'));
  await writeFile(path.join(probe, 'probe.ts'), source);
  await writeFile(
    path.join(probe, 'tsconfig.json'),
    JSON.stringify({
      extends: path.join(process.cwd(), tsconfig),
      // Type roots resolve from the project, wherever the probe lives.
      compilerOptions: { typeRoots: [path.join(process.cwd(), 'node_modules', '@types')] },
      files: ['probe.ts'],
      include: [],
    }),
  );
  const run = spawnSync(process.execPath, [compiler, '-p', probe, '--pretty', 'false'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (run.error) throw run.error;
  if (run.status !== 0 && !/error TS\d+/.test(run.stdout)) throw new Error(`tsc failed:\n${run.stdout}${run.stderr}`);
  return run.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
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
