/**
 * What JavaScript a built page costs, read off the build: the scripts it loads before any
 * interaction, and the island's code it may fetch later. Module graphs are followed with
 * es-module-lexer (Vite's own import scanner), so a chunk that a script imports counts even when
 * no tag in the HTML names it.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ImportType, initSync, parse } from 'es-module-lexer';

/**
 * Every script `/` loads before interaction, gzip: the loader only (about 1.6 KB). 5 KB leaves
 * room for the loader to grow, not for React (60 KB gzip) or any part of the island to slip in.
 */
export const initialJavaScriptBudgetBytes = 5 * 1024;

/**
 * The island's code, fetched when the form is needed: React and react-dom (65.9 KB gzip for a bare
 * `hydrateRoot` of one element in StrictMode, built the same way) and the form, its validation,
 * toasts and dialog (about 3 KB: the browser's constraint validation, `<dialog>` and CSS do the
 * rest). 72 KB leaves room for a few words more, not for a library.
 */
export const islandJavaScriptBudgetBytes = 72 * 1024;

export interface ScriptSize {
  /** The URL path, e.g. `/assets/index-Ab12.js`. */
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

export interface ScriptSet {
  readonly scripts: readonly ScriptSize[];
  readonly gzipBytes: number;
}

export interface PageJavaScript {
  /** Every `<script src>` and `modulepreload` of the HTML, and every module they import statically. */
  readonly initial: ScriptSet;
  /** What the initial scripts import dynamically (the island), with its static imports, less the initial scripts. */
  readonly island: ScriptSet;
}

interface ModuleImports {
  readonly static: readonly string[];
  readonly dynamic: readonly string[];
}

/** The URL paths a built module imports, statically and with `import()` of a literal; relative specifiers only. */
function importsOf(file: string, source: string): ModuleImports {
  initSync();
  const [imports] = parse(source);
  const resolve = (specifier: string) => new URL(specifier, `https://site.invalid${file}`).pathname;
  const relative = imports.filter((entry) => entry.n !== undefined && /^\.{1,2}\//.test(entry.n));
  return {
    static: relative.filter((entry) => entry.t === ImportType.Static).map((entry) => resolve(entry.n!)),
    dynamic: relative.filter((entry) => entry.t === ImportType.Dynamic).map((entry) => resolve(entry.n!)),
  };
}

/**
 * Gzip at level 9, as CloudFront compresses (Brotli would be smaller still). Every script the
 * page may run, from its HTML down both kinds of import.
 */
export function pageJavaScript(distDir: string, page = 'index.html'): PageJavaScript {
  const html = readFileSync(path.join(distDir, page), 'utf8');
  const sources = new Map<string, Buffer>();
  const read = (file: string) => {
    let content = sources.get(file);
    if (!content) {
      content = readFileSync(path.join(distDir, file.replace(/^\//, '')));
      sources.set(file, content);
    }
    return content;
  };
  /** The files and every file they import statically, in the order met. */
  const withStaticImports = (files: readonly string[], known: ReadonlySet<string> = new Set()) => {
    const found: string[] = [];
    const pending = [...files];
    while (pending.length > 0) {
      const file = pending.shift()!;
      if (found.includes(file) || known.has(file)) continue;
      found.push(file);
      pending.push(...importsOf(file, read(file).toString('utf8')).static);
    }
    return found;
  };
  const sizeOf = (files: readonly string[]): ScriptSet => {
    const scripts = files.map((file) => {
      const content = read(file);
      return { file, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
    });
    return { scripts, gzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0) };
  };

  const tagged = [
    ...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((match) => match[1]);
  const initial = withStaticImports([...new Set(tagged)]);
  const dynamic = initial.flatMap((file) => importsOf(file, read(file).toString('utf8')).dynamic);
  const island = withStaticImports([...new Set(dynamic)], new Set(initial));
  return { initial: sizeOf(initial), island: sizeOf(island) };
}
