/**
 * integ-runner's offline check of the integration test (test/integ/integ.product.ts): it
 * synthesizes the app and compares every template with the committed snapshot
 * (test/integ/integ.product.ts.snapshot/), asset hashes aside; the snapshot holds no hash an edit
 * of content/ changes (test/integ/content-free-assets.ts). No AWS credentials, no network:
 * any difference fails, and `npm run integ:snapshot` writes the new snapshot (docs/testing.md).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** The integ app synthesizes the whole product with its functions bundled: a minute on a busy machine. */
const snapshotCheckTimeout = 300_000;

/** The environment without any AWS setting: the check must need none. */
function withoutAws(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));
  const bin = path.join(process.cwd(), 'node_modules/.bin');
  return {
    ...env,
    // No instance metadata to ask for credentials either.
    AWS_EC2_METADATA_DISABLED: 'true',
    // Only the templates are compared; aws-cdk-lib's own validator, a third of this check's CPU,
    // runs on the app entry's templates in test/infra/app-entry.test.ts.
    CDK_VALIDATION: 'false',
    // The offline synthesis the snapshot holds: fixed fixtures and content-free asset hashes.
    INTEG_SNAPSHOT: '1',
    PATH: `${bin}${path.delimiter}${env.PATH ?? ''}`,
  };
}

test(
  "the integration test's app matches its committed snapshot, checked by integ-runner without credentials",
  () => {
    const result = spawnSync(
      'integ-runner',
      [
        '--directory',
        'test/integ',
        '--language',
        'typescript',
        '--app',
        'tsx test/integ/integ-runner-app.ts {filePath}',
      ],
      { env: withoutAws(), encoding: 'utf8', timeout: snapshotCheckTimeout },
    );
    const output = `${result.stdout}${result.stderr}`;
    expect(output).toMatch(/UNCHANGED\s+integ\.product/);
    expect(result.status).toBe(0);
  },
  snapshotCheckTimeout,
);
