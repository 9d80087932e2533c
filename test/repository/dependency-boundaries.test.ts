/**
 * The layout's boundaries (.dependency-cruiser.cjs), run on a miniature repository that follows
 * them, then on the same repository with one file breaking each rule: every new cross-import
 * must fail with the name of the rule it breaks. Two runs of dependency-cruiser in all.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const repository = process.cwd();

interface Violation {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}

async function write(root: string, relative: string, source: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), source);
}

async function violations(root: string): Promise<Violation[]> {
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

/** A miniature layout that follows the one-way arrows. */
async function writeLayout(root: string): Promise<void> {
  await write(root, 'tsconfig.base.json', '{}');
  await write(root, 'core/content.ts', 'export const content = 1;\n');
  await write(
    root,
    'lambdas/handler.ts',
    "import { content } from '../core/content';\nexport const handler = content;\n",
  );
  await write(
    root,
    'lambdas/requests/step.ts',
    "import { content } from '../../core/content';\nimport { cap } from '../limits/cap';\nexport const step = content + cap;\n",
  );
  await write(root, 'lambdas/limits/cap.ts', 'export const cap = 1;\n');
  await write(root, 'lambdas/send/handler.ts', "import { step } from '../requests/step';\nexport const send = step;\n");
  await write(root, 'lambdas/form/handler.ts', "import { step } from '../requests/step';\nexport const form = step;\n");
  await write(root, 'infra/stack.ts', "import { handler } from '../lambdas/handler';\nexport const stack = handler;\n");
  await write(root, 'infra/app.ts', "import { stack } from './stack';\nconsole.log(stack);\n");
  await write(
    root,
    'frontend/src/page.tsx',
    "import { content } from '../../core/content';\nexport const page = content;\n",
  );
  await write(
    root,
    'local/server.ts',
    "import { handler } from '../lambdas/handler';\nimport { content } from '../core/content';\nexport const server = handler + content;\n",
  );
  await write(root, 'ops/smoke.ts', "import { content } from '../core/content';\nexport const smoke = content;\n");
  await write(root, 'ops/resend.ts', "import { step } from '../lambdas/requests/step';\nexport const resend = step;\n");
  await write(root, 'scripts/smoke.ts', "import { smoke } from '../ops/smoke';\nconsole.log(smoke);\n");
}

/** One file per rule, each importing across the boundary that rule guards. */
const breakers: ReadonlyArray<readonly [rule: string, file: string, source: string]> = [
  [
    'core-imports-only-core',
    'core/reach-lambdas.ts',
    "import { handler } from '../lambdas/handler';\nexport const r = handler;\n",
  ],
  ['core-is-platform-free', 'core/reach-node.ts', "import path from 'node:path';\nexport const r = path;\n"],
  [
    'frontend-imports-only-itself-and-core',
    'frontend/src/reach-lambdas.ts',
    "import { handler } from '../../lambdas/handler';\nexport const r = handler;\n",
  ],
  [
    'lambdas-import-only-themselves-and-core',
    'lambdas/reach-frontend.ts',
    "import { page } from '../frontend/src/page';\nexport const r = page;\n",
  ],
  [
    'a-function-imports-no-other-function',
    'lambdas/form/reach-send.ts',
    "import { send } from '../send/handler';\nexport const r = send;\n",
  ],
  [
    'shared-code-imports-no-function',
    'lambdas/limits/reach-send.ts',
    "import { send } from '../send/handler';\nexport const r = send;\n",
  ],
  [
    'infra-imports-only-itself-lambdas-and-core',
    'infra/reach-local.ts',
    "import { server } from '../local/server';\nexport const r = server;\n",
  ],
  [
    'local-imports-only-itself-lambdas-and-core',
    'local/reach-stack.ts',
    "import { stack } from '../infra/stack';\nexport const r = stack;\n",
  ],
  [
    'ops-imports-only-itself-core-and-the-context-parser',
    'ops/reach-lambdas.ts',
    "import { handler } from '../lambdas/handler';\nexport const r = handler;\n",
  ],
  [
    'ops-imports-only-itself-core-and-the-context-parser',
    'ops/reach-a-function.ts',
    "import { send } from '../lambdas/send/handler';\nexport const r = send;\n",
  ],
  ['nothing-imports-scripts', 'local/reach-scripts.ts', "import '../scripts/smoke';\nexport const r = 1;\n"],
  ['nothing-imports-entry-points', 'infra/reach-app.ts', "import './app';\nexport const r = 1;\n"],
  ['no-circular', 'core/circle-one.ts', "import { two } from './circle-two';\nexport const one = two;\n"],
];

let roots: string[] = [];
let ofLayout: Violation[];
let ofBrokenLayout: Violation[];

beforeAll(async () => {
  const [layout, broken] = await Promise.all([
    mkdtemp(path.join(os.tmpdir(), 'boundaries-')),
    mkdtemp(path.join(os.tmpdir(), 'boundaries-broken-')),
  ]);
  roots = [layout, broken];
  await Promise.all([writeLayout(layout), writeLayout(broken)]);
  for (const [, file, source] of breakers) await write(broken, file, source);
  await write(broken, 'core/circle-two.ts', "import { one } from './circle-one';\nexport const two = one;\n");
  [ofLayout, ofBrokenLayout] = await Promise.all([violations(layout), violations(broken)]);
}, 60_000);
afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

test('a layout that follows the one-way arrows has no violation', () => {
  expect(ofLayout).toEqual([]);
});

test.each(breakers)('an import that breaks %s fails with that rule, from %s', (rule, file) => {
  const circle = ['core/circle-one.ts', 'core/circle-two.ts'];
  const from = (violation: Violation) =>
    rule === 'no-circular' ? circle.includes(violation.from) : violation.from === file;
  expect(ofBrokenLayout.filter((violation) => violation.rule === rule && from(violation))).not.toEqual([]);
});
