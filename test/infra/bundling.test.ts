/**
 * The one test that bundles for real: the three handlers through esbuild, as `cdk synth` does.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { createTestApp, resourceByPrefix } from './support/synth';

/**
 * Measured at about 410 KB (save: the DynamoDB client only, the unused clients are dropped as
 * pure), 660 KB (send: DynamoDB, S3, SES and Secrets Manager; Powertools Metrics adds about
 * 12 KB to each) and 670 KB (the form: both handlers, which share all but a few KB). 768 KiB leaves room for SDK updates while still catching the classic zod API,
 * an unused client or a second copy of the SDK.
 */
const bundleBudgetBytes = 768 * 1024;

const functions = [
  { name: 'save-request', logicalIdPrefix: 'ApiSaveRequestSaveRequestFunction' },
  { name: 'send-cheat-sheet', logicalIdPrefix: 'ApiSendCheatSheetSendCheatSheetFunction' },
  { name: 'submit-form', logicalIdPrefix: 'ApiSubmitFormSubmitFormFunction' },
] as const;

describe('the function bundles', () => {
  let outdir: string;
  const bundles = new Map<string, { directory: string; code: string }>();

  beforeAll(() => {
    outdir = mkdtempSync(path.join(tmpdir(), 'cdk-bundling-'));
    const { stack } = createTestApp({ bundle: true, outdir });
    const template = Template.fromStack(stack); // synthesizes, which bundles
    for (const { name, logicalIdPrefix } of functions) {
      const code = resourceByPrefix(template, 'AWS::Lambda::Function', logicalIdPrefix).resource.Properties.Code as {
        S3Key: string;
      };
      const directory = path.join(outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
      bundles.set(name, { directory, code: readFileSync(path.join(directory, 'index.mjs'), 'utf8') });
    }
  }, 120_000);

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  test.each(functions.map(({ name }) => name))('bundles %s as an ES module exporting handler', (name) => {
    const { code } = bundles.get(name)!;
    expect(code).toMatch(/export\s*\{[^}]*\bhandler\b[^}]*\}/);
    expect(code.startsWith("import { createRequire as __createRequire } from 'node:module';")).toBe(true);
  });

  test.each(functions.map(({ name }) => name))('minifies %s', (name) => {
    const { code } = bundles.get(name)!;
    const lines = code.split('\n').length;
    expect(code.length / lines).toBeGreaterThan(1000); // minified code is a few very long lines
  });

  test.each(functions.map(({ name }) => name))('ships %s with a source map', (name) => {
    const { directory, code } = bundles.get(name)!;
    expect(code.trimEnd().endsWith('//# sourceMappingURL=index.mjs.map')).toBe(true);
    expect(existsSync(path.join(directory, 'index.mjs.map'))).toBe(true);
  });

  test.each(functions.map(({ name }) => name))('keeps %s under the 768 KiB budget', (name) => {
    const { directory } = bundles.get(name)!;
    const size = statSync(path.join(directory, 'index.mjs')).size;
    expect(size).toBeLessThan(bundleBudgetBytes);
  });

  test.each(functions.map(({ name }) => name))(
    'loads %s in plain Node.js from a folder with no node_modules, so the AWS SDK is inside',
    (name) => {
      const { directory } = bundles.get(name)!;
      expect(() => require.resolve('@aws-sdk/client-dynamodb', { paths: [directory] })).toThrow();
      const entry = path.join(directory, 'index.mjs');
      const result = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(entry)}); console.log(typeof m.handler);`,
        ],
        {
          encoding: 'utf8',
          // Lambda runs Node 24; the SDK's warning about this machine's Node 20 is not a failure.
          env: {
            PATH: process.env.PATH,
            AWS_REGION: 'us-east-1',
            AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          },
          timeout: 30_000,
        },
      );
      expect(result.stderr).toBe('');
      expect(result.stdout.trim()).toBe('function');
    },
  );
});
