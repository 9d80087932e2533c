/**
 * `npm run test:copy-edit` (an entry point, in test/support/ as the tests' own tools are): proves a copy edit breaks nothing. Copies the repository (its tracked
 * and new files, node_modules linked) to a temporary folder, edits every text field of content/
 * there (test/support/copy-edit.ts: the author renamed Sam O'Neill, every other text rewritten),
 * then runs, in the copy: the content check, the build, the non-browser suites (jest projects
 * `node` and `jsdom`, the integration snapshot among them) and the visual tests. Not the type
 * check (about 40 s of CPU): the generated content modules are typed by the content schema
 * (`ContentOf<…>`), not by their words, so a text edit cannot change a type, and `npm run
 * content` checks the edited values against that same schema.
 * Exit 0 only when all pass. Extra arguments go to the non-browser jest run (e.g. a test path to
 * try it quickly). CI runs it as a job of its own, beside `npm test` (.github/workflows/ci.yml).
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { contentFileName } from '../../core/content/content-schemas';
import { editEveryText } from './copy-edit';
import { contentNames } from './copy-swap';

const root = process.cwd();
const copy = await mkdtemp(path.join(os.tmpdir(), 'copy-edit-'));
const run = (command: string, args: readonly string[]) => {
  console.log(`\n$ ${[command, ...args].join(' ')}   (in the copy)`);
  const result = spawnSync(command, args, { cwd: copy, stdio: 'inherit', env: { ...process.env, CI: 'true' } });
  return result.status ?? 1;
};

let status: number | undefined;
try {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    await mkdir(path.dirname(path.join(copy, file)), { recursive: true });
    await cp(path.join(root, file), path.join(copy, file)).catch(() => undefined); // a deleted, unstaged file
  }
  await symlink(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  // A git checkout of its own, as CI's is: the audit report stamps the commit (infra/tools/audit-report.ts).
  const git = (...args: string[]) => {
    const result = spawnSync('git', ['-c', 'user.name=copy-edit', '-c', 'user.email=copy-edit@localhost', ...args], {
      cwd: copy,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed in the copy: ${result.stderr}`);
  };
  git('init', '--quiet');
  git('add', '--all');
  git('commit', '--quiet', '--no-verify', '--message', 'The repository before the copy edit');

  const authorSource = await readFile(path.join(root, 'content', contentFileName('author')), 'utf8');
  const originalName = (parse(authorSource) as { name: string }).name;
  for (const name of contentNames) {
    const file = path.join(copy, 'content', contentFileName(name));
    await writeFile(file, editEveryText(name, await readFile(file, 'utf8'), originalName));
  }
  console.log(`Edited every text field of content/ in ${copy} (the author is now Sam O'Neill).`);

  const steps: [string, string[]][] = [
    ['npx', ['prettier', '--write', 'content']],
    ['npm', ['run', 'content']],
    ['npm', ['run', 'build']],
    ['npx', ['jest', '--selectProjects=node', '--selectProjects=jsdom', ...process.argv.slice(2)]],
    ['npx', ['jest', '--selectProjects=e2e', '--runTestsByPath', 'test/e2e/visual.test.ts']],
  ];
  // Every suite runs even when another fails, so one run lists every breakage; the first three
  // steps (formatting, content modules, build) are what the suites need, so a failure there stops.
  const prerequisites = 3;
  const failed: string[] = [];
  for (const [index, [command, args]] of steps.entries()) {
    const step = [command, ...args].join(' ');
    const stepStatus = run(command, args);
    if (stepStatus === 0) continue;
    failed.push(step);
    console.error(`\nA copy edit broke: ${step} failed (exit ${stepStatus}).`);
    if (index < prerequisites) break;
  }
  status = failed.length === 0 ? 0 : 1;
  if (failed.length > 0) console.error(`\nFailed in the copy: ${failed.join('; ')}.`);
  if (status === 0)
    console.log('\nThe copy edit broke nothing: content check, build, node, jsdom and visual tests pass.');
} finally {
  await rm(copy, { recursive: true, force: true });
}
process.exit(status ?? 1);
