/**
 * The one test that bundles for real: every function the stack builds, through esbuild, as `cdk synth` does
 * (infra/function-bundle.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { ImportType, initSync, parse } from 'es-module-lexer';
import { functionResourcePrefix } from './support/function-ids';
import { functionList } from '../../core/api/catalogue/functions';
import { createTestApp, resourceByPrefix } from './support/synth';

// Each function bundled once per run, shared with the other files that bundle (test/support/function-bundle-cache.ts).
jest.mock('../../infra/function-bundle', () => {
  const actual = jest.requireActual<typeof import('../../infra/function-bundle')>('../../infra/function-bundle');
  const { sharedBundles } = jest.requireActual<typeof import('../support/function-bundle-cache')>(
    '../support/function-bundle-cache',
  );
  return { ...actual, bundleFunction: sharedBundles(actual.bundleFunction) };
});

/**
 * Every file of a function, measured on 2026-11-27 (esbuild as below, every .mjs counted): send
 * 792,965 B (774.4 KiB: DynamoDB, S3, SES and Secrets Manager, the proof-of-work check) and the
 * form 802,138 B (783.3 KiB: both steps), the largest; each carries the SDK's credential providers
 * as chunks it loads only when it needs them. The author's words are a small, bounded part: the
 * e-mail's text pulls in the generated content of author.yaml (the biography too), book.yaml,
 * the e-mail sentence of cheat-sheet.yaml and site.yaml, about 1.7 KB of the send bundle; with
 * every text of content/ edited (`npm run test:copy-edit`: each text about 50 characters longer)
 * send measured 793,568 B, 603 B more. So the 864 KiB budget leaves about 89 KiB (send) and 80 KiB
 * (form): room for SDK updates and for a biography fifty times as long, while still catching the
 * classic zod API (about 60 KB more), an unused client or a second copy of the SDK (hundreds of KB).
 */
const bundleBudgetBytes = 864 * 1024;

/** Each function of the catalogue the stack builds (the digest needs an author), by its handler's folder. */
const functions = functionList
  .filter((fn) => fn.onlyWith === undefined)
  .map((fn) => ({
    name: path.basename(path.dirname(fn.entry)),
    logicalIdPrefix: functionResourcePrefix(fn, 'Function'),
  }));

interface Bundle {
  readonly directory: string;
  /** index.mjs: the handler's module, which Lambda imports in its init phase. */
  readonly entry: string;
}

/** Static and dynamic imports of one bundled file, resolved to files of the bundle or kept as specifiers. */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const [imports] = parse(readFileSync(file, 'utf8'));
  const resolve = (specifier: string) =>
    specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : specifier;
  return {
    static: imports.filter((entry) => entry.t === ImportType.Static && entry.n).map((entry) => resolve(entry.n!)),
    dynamic: imports.filter((entry) => entry.t === ImportType.Dynamic && entry.n).map((entry) => resolve(entry.n!)),
  };
}

/** Every file and built-in module that importing `entry` loads before any code of it runs. */
function loadedAtImport(entry: string): { files: string[]; builtins: string[] } {
  const files = new Set<string>();
  const builtins = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of importsOf(file).static) {
      if (path.isAbsolute(specifier)) visit(specifier);
      else builtins.add(specifier);
    }
  };
  visit(entry);
  return { files: [...files], builtins: [...builtins].sort() };
}

describe('the function bundles', () => {
  let outdir: string;
  const bundles = new Map<string, Bundle>();

  beforeAll(() => {
    initSync();
    outdir = mkdtempSync(path.join(tmpdir(), 'cdk-bundling-'));
    const { stack } = createTestApp({ bundle: true, outdir });
    const template = Template.fromStack(stack); // synthesizes, which bundles
    for (const { name, logicalIdPrefix } of functions) {
      const properties = resourceByPrefix(template, 'AWS::Lambda::Function', logicalIdPrefix).resource.Properties;
      const code = properties.Code as { S3Key: string };
      expect(properties.Handler).toBe('index.handler');
      const directory = path.join(outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
      bundles.set(name, { directory, entry: path.join(directory, 'index.mjs') });
    }
  }, 120_000);

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  const names = functions.map(({ name }) => name);

  test.each(names)("bundles %s from its own handler, not another function's", (name) => {
    const { entry } = bundles.get(name)!;
    const map = JSON.parse(readFileSync(`${entry}.map`, 'utf8')) as { sources: string[] };
    const handlers = map.sources.filter((source) => /lambdas\/[^/]+\/handler\.ts$/.test(source));
    // The form's function runs the other two handlers' steps, not their handler files.
    expect(handlers).toHaveLength(1);
    expect(handlers[0]!.endsWith(`/lambdas/${name}/handler.ts`)).toBe(true);
  });

  test.each(names)('bundles %s as an ES module whose entry is the handler itself', (name) => {
    const code = readFileSync(bundles.get(name)!.entry, 'utf8');
    expect(code.startsWith("import { createRequire as __createRequire } from 'node:module';")).toBe(true);
    expect(code).toMatch(/export\s*\{[^}]*\bhandler\b[^}]*\}/);
  });

  test.each(names)(
    "loads %s's own code and SDK clients at import, in Lambda's init phase, and the SDK's unused credential providers never",
    (name) => {
      const { entry } = bundles.get(name)!;
      const loaded = loadedAtImport(entry);
      const sourcesOf = (file: string) =>
        (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources;
      const atImport = loaded.files.flatMap(sourcesOf);
      expect(atImport.some((source) => source.endsWith(`/lambdas/${name}/handler.ts`))).toBe(true);
      expect(
        atImport.some(
          (source) => source.includes('/@aws-sdk/client-dynamodb/') || source.includes('/@aws-sdk/client-sesv2/'),
        ),
      ).toBe(true);
      // Loaded by the SDK only when no credentials are in the environment, which Lambda always sets.
      const onDemand = loaded.files
        .flatMap((file) => importsOf(file).dynamic)
        .filter((file) => path.isAbsolute(file) && !loaded.files.includes(file));
      expect(onDemand.flatMap(sourcesOf).some((source) => source.includes('/@aws-sdk/credential-provider-ini/'))).toBe(
        true,
      );
      expect(atImport.some((source) => source.includes('/@aws-sdk/credential-provider-ini/'))).toBe(false);
    },
  );

  test.each(names)("minifies %s's entry", (name) => {
    const code = readFileSync(bundles.get(name)!.entry, 'utf8');
    const lines = code.split('\n').length;
    expect(code.length / lines).toBeGreaterThan(1000); // minified code is a few very long lines
  });

  test.each(names)('ships %s with source maps', (name) => {
    const { entry } = bundles.get(name)!;
    for (const file of [entry]) {
      const mapName = `${path.basename(file)}.map`;
      expect(readFileSync(file, 'utf8').trimEnd().endsWith(`//# sourceMappingURL=${mapName}`)).toBe(true);
      expect(existsSync(path.join(path.dirname(file), mapName))).toBe(true);
    }
  });

  test.each(names)('keeps %s under the 864 KiB budget, every file counted', (name) => {
    const { directory } = bundles.get(name)!;
    const files = readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.mjs'));
    const size = files.reduce((sum, file) => sum + statSync(path.join(directory, file)).size, 0);
    expect(size).toBeLessThan(bundleBudgetBytes);
  });

  test.each(names)('loads %s in plain Node.js from a folder with no node_modules, so the AWS SDK is inside', (name) => {
    const { directory, entry } = bundles.get(name)!;
    expect(() => require.resolve('@aws-sdk/client-dynamodb', { paths: [directory] })).toThrow();
    const result = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `const m = await import(${JSON.stringify(entry)}); console.log(typeof m.handler);`],
      {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1' },
        timeout: 30_000,
      },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('function');
  });
});
