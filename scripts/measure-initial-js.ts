/** Prints the initial JavaScript of `/` (npm run measure:bundle, after npm run build). */
import { buildOutput } from '../core/build-output';
import path from 'node:path';
import { initialJavaScript, initialJavaScriptBudgetBytes } from '../frontend/build/initial-javascript';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const { scripts, gzipBytes } = initialJavaScript(path.join(process.cwd(), buildOutput.siteDirectory));

for (const script of scripts) console.log(`${script.file}  ${kb(script.bytes)} raw, ${kb(script.gzipBytes)} gzip`);
console.log(`Initial JavaScript of /: ${kb(gzipBytes)} gzip (budget ${kb(initialJavaScriptBudgetBytes)})`);
if (gzipBytes > initialJavaScriptBudgetBytes) process.exitCode = 1;
