/**
 * How every function is bundled: local esbuild (never Docker), minified ES modules for Node 24
 * with the AWS SDK inside the bundle (pinned by our lock file, tree-shaken).
 *
 * `index.mjs` is the handler's module itself: Lambda imports it in the init phase, so the SDK
 * clients, Powertools and zod load and the clients are created there, before the first event,
 * as AWS's guidance for Lambda has it. Deferring that work to the first invocation (an entry of a
 * few hundred bytes importing the handler on first use, this project's earlier design) moved the
 * same milliseconds into the first reader's wait and measured no faster end to end
 * (docs/performance.md, `npm run measure:cold-start`). Code splitting stays on: what the SDK
 * itself imports on demand (the credential providers a Lambda never uses: SSO, INI files, EC2
 * metadata) stays in chunks that never load.
 */
import { buildSync, type BuildOptions } from 'esbuild';
import path from 'node:path';

/** The Node.js version of the functions' runtime (infra/constructs/catalogue-function.ts). */
export const functionNodeTarget = 'node24';

/** The file Lambda imports, so the function's handler setting is `index.handler`. */
export const functionEntryFile = 'index.mjs';
export const functionHandler = 'index.handler';

/**
 * The functions' NODE_OPTIONS: none. `--enable-source-maps` made Node read and parse each bundle's
 * source map as it imported it: on Node 24, 50 ms of the save function's 210 ms first reply
 * (`npm run measure:cold-start`, docs/performance.md), for readable stack traces only. The maps
 * still ship beside `index.mjs` in the function's asset (cdk.out), to decode a logged trace.
 */
export const functionNodeOptions: string = '';

/** Chunks live beside the entry in their own folder; their names carry a content hash. */
const chunkFolder = 'chunks';

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
    entryPoints: { index: handlerPath },
    absWorkingDir: input.projectRoot,
    outdir: input.outdir,
  });
  if (result.errors.length > 0) {
    throw new Error(`Bundling ${input.entry} failed: ${result.errors.map((error) => error.text).join('; ')}`);
  }
}
