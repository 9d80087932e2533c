/**
 * `npm run measure:cold-start [-- --pairs N] [-- --only name,name]`: each function's first reply
 * (a fresh Node process importing its bundle and running its first invocation against the local
 * twin) against its floor (the same SDK calls, nothing else), in alternating pairs (10 by
 * default). Prints both medians and the median ratio; exit 1 when a function costs more than
 * 1.25 times its floor (local/cold-start/).
 */
import { coldStartBudget, printColdStartReport } from '../local/cold-start/cold-start-report';
import { measureColdStarts } from '../local/cold-start/measure-cold-start';
import * as bundler from '../infra/function-bundle';

const flag = (name: string) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const pairs = Number(flag('--pairs') ?? 10);
const only = flag('--only')?.split(',');

console.log(`Node ${process.version}, ${pairs} alternating pairs per function (medians):`);
const rows = await measureColdStarts({
  bundler,
  pairs,
  only,
  onRow: (row) => printColdStartReport([row], console.log),
});
if (rows.some((row) => row.ratio > coldStartBudget)) process.exitCode = 1;
