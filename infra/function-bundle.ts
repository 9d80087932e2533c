/**
 * How every function is bundled: local esbuild (never Docker), minified ES modules for Node 24
 * with the AWS SDK inside the bundle (pinned by our lock file, tree-shaken), split so that a cold
 * start loads almost nothing.
 *
 * `index.mjs`, the file Lambda imports in its init phase, is a few hundred bytes: its `handler`
 * imports the real handler's chunk on the first invocation and keeps it. So the SDK clients, zod,
 * Powertools and the Node built-ins they need (http, https, crypto, streams) load on first use,
 * not at import: importing `index.mjs` costs about as much as starting Node
 * (docs/performance.md, `npm run measure:cold-start`). esbuild's code splitting is what defers
 * the built-ins too: a dynamic import() inside one bundled file would still load them up front.
 */
import { buildSync, type BuildOptions } from 'esbuild';
import path from 'node:path';

/** The Node.js version of the functions' runtime (infra/constructs/bundled-function.ts). */
export const functionNodeTarget = 'node24';

/** The file Lambda imports, so the function's handler setting is `index.handler`. */
export const functionEntryFile = 'index.mjs';
export const functionHandler = 'index.handler';

/** The functions' NODE_OPTIONS: stack traces point at the TypeScript source. */
export const functionNodeOptions = '--enable-source-maps';

/** Chunks live beside the entry in their own folder; their names carry a content hash. */
const chunkFolder = 'chunks';

/** The entry: loads the handler's module once, on the first invocation, and hands every event on. */
function lazyEntrySource(handlerPath: string): string {
  return [
    `let loaded;`,
    `export const handler = async (event, context) =>`,
    `  (await (loaded ??= import(${JSON.stringify(handlerPath)}))).handler(event, context);`,
  ].join('\n');
}

const sharedOptions: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: functionNodeTarget,
  splitting: true,
  minify: true,
  // Line numbers are enough to read a stack trace; the sources themselves stay in the repo.
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  outExtension: { '.js': '.mjs' },
  entryNames: 'index',
  chunkNames: `${chunkFolder}/[name]-[hash]`,
  // Some SDK dependencies are CommonJS and call require() for Node built-ins, which an ES module
  // does not have: every file gets one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'silent',
};

export interface FunctionBundleInput {
  /** The handler's file (it exports `handler`), absolute or from projectRoot. */
  readonly entry: string;
  /** The folder that receives index.mjs and its chunks. */
  readonly outdir: string;
  /** Where the entry and node_modules are resolved from. */
  readonly projectRoot: string;
}

/** Bundles one function into `outdir`; throws with esbuild's messages when it cannot. */
export function bundleFunction(input: FunctionBundleInput): void {
  const handlerPath = path.resolve(input.projectRoot, input.entry);
  const result = buildSync({
    ...sharedOptions,
    stdin: {
      contents: lazyEntrySource(handlerPath),
      resolveDir: input.projectRoot,
      sourcefile: 'index.mjs',
      loader: 'js',
    },
    absWorkingDir: input.projectRoot,
    outdir: input.outdir,
  });
  if (result.errors.length > 0) {
    throw new Error(`Bundling ${input.entry} failed: ${result.errors.map((error) => error.text).join('; ')}`);
  }
}
