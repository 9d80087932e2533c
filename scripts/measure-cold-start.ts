/**
 * `npm run measure:cold-start`: bundles each function as the stack does (infra/function-bundle.ts)
 * and times, in 10 alternating pairs, a bare `node -e 0` against importing the function's
 * `index.mjs` with the function's own NODE_OPTIONS, as Lambda's init phase does. Prints each
 * function's median ratio, and what its first invocation adds by loading the handler's chunk
 * (the SDK, zod, Powertools). Exit 1 when an import takes more than 2.0 times a bare start.
 *
 * `-- --pairs N` changes the number of pairs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { productRouteList } from '../core/api/catalogue/routes';
import { bundleFunction, functionEntryFile, functionNodeOptions } from '../infra/function-bundle';

/** What a cold import may cost, in bare Node starts: the budget of docs/performance.md. */
const maxImportRatio = 2.0;
const pairsFlag = process.argv.indexOf('--pairs');
const pairs = pairsFlag > 0 ? Number(process.argv[pairsFlag + 1]) : 10;

const functions = [
  ...productRouteList.map((route) => ({ name: route.name, entry: route.entry })),
  { name: 'pauseSending', entry: 'lambdas/pause-sending/handler.ts' },
];

function timeNode(args: readonly string[], env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${run.stderr}`);
  return elapsed;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const bare = { PATH: process.env.PATH };
// The function's own NODE_OPTIONS, and a region so nothing the SDK reads at import is missing.
const asTheFunction = { ...bare, NODE_OPTIONS: functionNodeOptions, AWS_REGION: 'us-east-1' };

const outdir = mkdtempSync(path.join(tmpdir(), 'cold-start-'));
let withinBudget = true;
try {
  console.log(`Node ${process.version}, ${pairs} alternating pairs per function, medians:`);
  for (const { name, entry } of functions) {
    const directory = path.join(outdir, name);
    bundleFunction({ entry, outdir: directory, projectRoot: process.cwd() });
    const entryFile = path.join(directory, functionEntryFile);
    const handlerChunk = readFileSync(entryFile, 'utf8').match(/import\("\.\/(chunks\/handler-[^"]+)"\)/)?.[1];
    if (!handlerChunk) throw new Error(`${entryFile} imports no handler chunk`);
    const importEntry = `await import(${JSON.stringify(pathToFileURL(entryFile).href)});`;
    const importChunk = `await import(${JSON.stringify(pathToFileURL(path.join(directory, handlerChunk)).href)});`;

    const ratios: number[] = [];
    const firstUseRatios: number[] = [];
    const bareTimes: number[] = [];
    for (let pair = 0; pair < pairs; pair++) {
      const bareMs = timeNode(['-e', '0'], bare);
      const importMs = timeNode(['--input-type=module', '-e', importEntry], asTheFunction);
      const firstUseMs = timeNode(['--input-type=module', '-e', importEntry + importChunk], asTheFunction);
      bareTimes.push(bareMs);
      ratios.push(importMs / bareMs);
      firstUseRatios.push(firstUseMs / bareMs);
    }
    const ratio = median(ratios);
    withinBudget &&= ratio <= maxImportRatio;
    console.log(
      `  ${name.padEnd(16)} import ${ratio.toFixed(2)}x (budget ${maxImportRatio.toFixed(1)}x); ` +
        `with the handler's chunk, as its first invocation loads it, ${median(firstUseRatios).toFixed(2)}x; ` +
        `bare node -e 0 ${median(bareTimes).toFixed(0)} ms`,
    );
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
if (!withinBudget) process.exitCode = 1;
