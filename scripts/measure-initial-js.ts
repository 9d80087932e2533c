/** Prints the JavaScript of `/`: what it loads before interaction, and its island (npm run measure:bundle, after npm run build). */
import path from 'node:path';
import { buildOutput } from '../core/build-output';
import {
  initialJavaScriptBudgetBytes,
  islandJavaScriptBudgetBytes,
  pageJavaScript,
  type ScriptSet,
} from '../frontend/build/initial-javascript';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const measured = pageJavaScript(path.join(process.cwd(), buildOutput.siteDirectory));

function report(label: string, set: ScriptSet, budget: number): boolean {
  for (const script of set.scripts) {
    console.log(`  ${script.file}  ${kb(script.bytes)} raw, ${kb(script.gzipBytes)} gzip`);
  }
  console.log(`${label}: ${kb(set.gzipBytes)} gzip (budget ${kb(budget)})`);
  return set.gzipBytes <= budget;
}

const initialFits = report(
  'Initial JavaScript of / (before interaction)',
  measured.initial,
  initialJavaScriptBudgetBytes,
);
const islandFits = report('The form island, fetched when needed', measured.island, islandJavaScriptBudgetBytes);
if (!initialFits || !islandFits) process.exitCode = 1;
