/** How the cold-start figures are printed, and their budget. */

import type { ColdStartRow } from './measure-cold-start';

/**
 * What a function's first reply may cost, in first replies of its floor: its Powertools, its
 * validation and its own code may add a quarter to what the SDK calls alone cost.
 */
export const coldStartBudget = 1.25;

export function printColdStartReport(rows: readonly ColdStartRow[], print: (line: string) => void): void {
  for (const row of rows) {
    print(
      `  ${row.name.padEnd(16)} first reply ${row.firstReplyMs.toFixed(0)} ms, floor ${row.floorMs.toFixed(0)} ms: ` +
        `${row.ratio.toFixed(2)}x [init ${row.initMs.toFixed(0)} + invocation ${row.invokeMs.toFixed(0)} ms; floor ${row.floorInitMs.toFixed(0)} + ${row.floorInvokeMs.toFixed(0)} ms] (budget ${coldStartBudget.toFixed(2)}x; CPU time ${row.cpuRatio.toFixed(2)}x); ` +
        `${row.calls.length} SDK calls${process.env.COLD_START_CALLS ? `: ${row.calls.join(' ')}` : ''}`,
    );
  }
}
