/** Prints what the proof of work costs a browser with its CPU slowed 4× (npm run measure:proof-of-work, after npm run build). */
import path from 'node:path';
import { buildOutput } from '../core/build-output';
import { measureSolveTimes } from '../frontend/build/proof-of-work-timing';

const runs = Number(process.argv[2] ?? 7);
const { chunk, milliseconds } = await measureSolveTimes(path.join(process.cwd(), buildOutput.siteDirectory), { runs });
const sorted = [...milliseconds].sort((a, b) => a - b);
console.log(`Solver ${chunk}, worst-case challenge, CPU slowed 4x, ${runs} runs:`);
console.log(`  each (ms): ${milliseconds.map((ms) => ms.toFixed(0)).join(', ')}`);
console.log(
  `  first (cold): ${milliseconds[0].toFixed(0)} ms; median ${sorted[Math.floor(runs / 2)].toFixed(0)} ms; slowest ${sorted.at(-1)!.toFixed(0)} ms`,
);
if (sorted.at(-1)! >= 1000) process.exitCode = 1;
