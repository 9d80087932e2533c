/**
 * The layout's boundaries (.dependency-cruiser.cjs), run on a miniature repository that breaks
 * each one: every new cross-import must fail with the name of the rule it breaks.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const repository = process.cwd();
let root: string;

interface Violation {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}

async function write(relative: string, source: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), source);
}

async function violations(): Promise<Violation[]> {
  const depcruise = path.join(repository, 'node_modules', '.bin', 'depcruise');
  const config = path.join(repository, '.dependency-cruiser.cjs');
  const run = promisify(execFile)(depcruise, ['.', '--config', config, '--output-type', 'json'], { cwd: root });
  // depcruise exits non-zero when it finds violations; its JSON report is on stdout either way.
  const { stdout } = await run.catch((error: { stdout: string }) => ({ stdout: error.stdout }));
  const report = JSON.parse(stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  return report.summary.violations.map(({ rule, from, to }) => ({ rule: rule.name, from, to }));
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'boundaries-'));
  await write('tsconfig.base.json', '{}');
  await write('core/content.ts', 'export const content = 1;\n');
  await write('lambdas/handler.ts', "import { content } from '../core/content';\nexport const handler = content;\n");
  await write('infra/security-headers.ts', 'export const headers = 1;\n');
  await write('infra/stack.ts', "import { handler } from '../lambdas/handler';\nexport const stack = handler;\n");
  await write('infra/app.ts', "import { stack } from './stack';\nconsole.log(stack);\n");
  await write('frontend/src/page.tsx', "import { content } from '../../core/content';\nexport const page = content;\n");
  await write(
    'local/server.ts',
    "import { headers } from '../infra/security-headers';\nexport const server = headers;\n",
  );
  await write('ops/smoke.ts', "import { content } from '../core/content';\nexport const smoke = content;\n");
  await write('scripts/smoke.ts', "import { smoke } from '../ops/smoke';\nconsole.log(smoke);\n");
}, 30_000);
afterEach(() => rm(root, { recursive: true, force: true }));

test('a layout that follows the one-way arrows has no violation', async () => {
  expect(await violations()).toEqual([]);
}, 30_000);

test.each([
  [
    'core-imports-only-core',
    'core/reach.ts',
    "import { handler } from '../lambdas/handler';\nexport const r = handler;\n",
  ],
  ['core-is-platform-free', 'core/reach.ts', "import path from 'node:path';\nexport const r = path;\n"],
  [
    'frontend-imports-only-itself-and-core',
    'frontend/src/reach.ts',
    "import { handler } from '../../lambdas/handler';\nexport const r = handler;\n",
  ],
  [
    'lambdas-import-only-themselves-and-core',
    'lambdas/reach.ts',
    "import { page } from '../frontend/src/page';\nexport const r = page;\n",
  ],
  [
    'infra-imports-only-itself-lambdas-and-core',
    'infra/reach.ts',
    "import { server } from '../local/server';\nexport const r = server;\n",
  ],
  [
    'local-imports-only-itself-lambdas-core-and-plain-infra',
    'local/reach.ts',
    "import { stack } from '../infra/stack';\nexport const r = stack;\n",
  ],
  [
    'ops-imports-only-itself-core-and-the-context-parser',
    'ops/reach.ts',
    "import { handler } from '../lambdas/handler';\nexport const r = handler;\n",
  ],
  ['nothing-imports-scripts', 'local/reach.ts', "import '../scripts/smoke';\nexport const r = 1;\n"],
  ['nothing-imports-entry-points', 'infra/reach.ts', "import './app';\nexport const r = 1;\n"],
  ['no-circular', 'core/other.ts', "import { r } from './reach';\nexport const o = r;\n"],
])(
  'an import that breaks %s fails with that rule',
  async (rule, file, source) => {
    if (rule === 'no-circular') await write('core/reach.ts', "import { o } from './other';\nexport const r = o;\n");
    await write(file, source);

    expect((await violations()).map((violation) => violation.rule)).toContain(rule);
  },
  30_000,
);
