/**
 * Latency of one save + send (the page's two calls) against the local stack, through its HTTP
 * server: 100 sequential pairs after one warm-up pair, each with a new address (the daily cap
 * would refuse a fourth send to the same one), with the client's and the daily limits raised. `npx tsx scripts/measure-latency.ts [pairs]`.
 */

import { startLocalStack } from '../local/local-stack';
import { buildCheatSheetPdf } from '../core/documents/cheat-sheet-pdf';
import { readDocumentFonts } from '../frontend/build/document-fonts';

const pairs = Number(process.argv[2] ?? 100);
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';

// Every pair comes from this one machine: the per-client limit (10 an hour) and the daily budget
// are raised so that the measurement is not refused.
const stack = await startLocalStack({
  siteDir: null,
  cheatSheetPdf: await buildCheatSheetPdf({ fonts: await readDocumentFonts(process.cwd()) }),
  clientHourlySendCap: pairs + 1,
  dailySendBudget: pairs + 1,
});

async function post(path: string, body: unknown, expectedStatus: number): Promise<void> {
  const response = await fetch(new URL(path, stack.urls.site), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (response.status !== expectedStatus) throw new Error(`${path} answered ${response.status}`);
}

async function saveAndSend(index: number): Promise<number> {
  const visitor = { name: `Latency Visitor ${index}`, email: `latency.${index}@example.com` };
  const started = performance.now();
  await post('/api/cheat-sheet-requests', visitor, 201);
  await post('/api/send-cheat-sheet', visitor, 200);
  return performance.now() - started;
}

try {
  const coldMs = await saveAndSend(0);
  const durations: number[] = [];
  for (let index = 1; index <= pairs; index += 1) durations.push(await saveAndSend(index));
  durations.sort((a, b) => a - b);
  const percentile = (p: number) =>
    durations[Math.min(durations.length - 1, Math.ceil((p / 100) * durations.length) - 1)];
  const format = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(`save + send, ${pairs} sequential pairs against the local stack (first, cold pair: ${format(coldMs)})`);
  console.log(
    `median ${format(percentile(50))}, p90 ${format(percentile(90))}, min ${format(durations[0])}, max ${format(durations.at(-1)!)}`,
  );
} finally {
  await stack.stop();
}
