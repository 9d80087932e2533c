import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The budget for every script `/` loads before interaction, gzip. */
export const initialJavaScriptBudgetBytes = 90 * 1024;

export interface ScriptSize {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

/**
 * Every script the built page loads before interaction: its module scripts and the chunks it
 * preloads. Gzip at level 9, as CloudFront compresses (Brotli would be smaller still).
 */
export function initialJavaScript(distDir: string, page = 'index.html'): { scripts: ScriptSize[]; gzipBytes: number } {
  const html = readFileSync(path.join(distDir, page), 'utf8');
  const sources = [
    ...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((match) => match[1]);
  const scripts = [...new Set(sources)].map((source) => {
    const content = readFileSync(path.join(distDir, source.replace(/^\//, '')));
    return { file: source, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
  });
  return { scripts, gzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0) };
}
