/**
 * `npm run test:copy-edit` (an entry point, in test/support/ as the tests' own tools are): proves a copy edit breaks nothing. Copies the repository (its tracked
 * and new files, node_modules linked) to a temporary folder, edits the whole of content/ there
 * (test/support/copy-edit.ts: the author renamed Sam O'Neill, every other text rewritten whole in
 * each quoting style, other images of the same kinds and sizes, list entries added and removed),
 * and runs `npm test` in the copy as written: the content check, the type check, lint (the format
 * check included: nothing formats content/ first), the build and every jest project, the browser's
 * and the visual tests among them. Exit 0 only when it passes; extra arguments go to jest (e.g. a
 * test path to try it quickly). CI runs it as a job of its own, beside `npm test` (.github/workflows/ci.yml).
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { contentFileName } from '../../core/content/content-schemas';
import { editEveryText, type EditedImage } from './copy-edit';
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
  const images: EditedImage[] = [];
  for (const name of contentNames) {
    const file = path.join(copy, 'content', contentFileName(name));
    await writeFile(file, editEveryText(name, await readFile(file, 'utf8'), originalName, images));
  }
  for (const image of images) await writeFile(path.join(copy, 'frontend/public', image.src), image.content);
  console.log(`Edited the whole of content/ in ${copy} (the author is now Sam O'Neill, with other images).`);

  // The suite exactly as CI runs it, on the files as edited: no formatting step first.
  status = run('npm', ['test', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])]);
  if (status === 0) console.log('\nThe copy edit broke nothing: npm test passes, lint included.');
  else console.error(`\nA copy edit broke: npm test failed in the copy (exit ${status}).`);
} finally {
  await rm(copy, { recursive: true, force: true });
}
process.exit(status ?? 1);
