/**
 * The documentation a newcomer reads: a short README as the entry page, pages in docs/ one per
 * reader, lines short enough to read in a diff, and links that lead somewhere.
 */
import path from 'node:path';
import { failureKindList } from '../../core/api/catalogue/failures';
import { alarmRunbook } from '../../infra/constructs/monitoring/runbook';
import { anchors, docPaths, existsInRepository, linkTargets, proseLines, readDoc, section } from '../support/docs';

const pages = docPaths();
const maxLineLength = 160;

/** Where a relative link of `page` leads: the file from the root, and the anchor if any. */
function resolve(page: string, target: string): { file: string; anchor: string | undefined } {
  const [file, anchor] = target.split('#');
  const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
  return { file: resolved, anchor };
}

const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target);

test('the README is at most 200 lines', () => {
  expect(readDoc('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
});

test("the README's quick start names npm install, npm start and npm test", () => {
  const quickStart = section(readDoc('README.md'), 'Quick start');
  expect(quickStart).toContain('npm install');
  expect(quickStart).toContain('npm start');
  expect(quickStart).toContain('npm test');
});

test('the README links to every page of docs/', () => {
  const linked = new Set(linkTargets(readDoc('README.md')).map((target) => resolve('README.md', target).file));
  const unlinked = pages.filter((page) => page !== 'README.md' && !linked.has(page));
  expect(unlinked).toEqual([]);
});

test.each(pages)('%s has no line over 160 characters outside code blocks', (page) => {
  const long = proseLines(readDoc(page))
    .filter(({ text }) => [...text].length > maxLineLength)
    .map(({ line, text }) => `${page}:${line} (${[...text].length})`);
  expect(long).toEqual([]);
});

test.each(pages)('every relative link in %s leads to a file that exists', (page) => {
  const broken = linkTargets(readDoc(page))
    .filter(isRelative)
    .filter((target) => !existsInRepository(resolve(page, target).file));
  expect(broken).toEqual([]);
});

test.each(pages)('every anchor a link in %s names is a heading of the page it leads to (README and docs/)', (page) => {
  const broken = linkTargets(readDoc(page))
    .filter(isRelative)
    .map((target) => ({ target, ...resolve(page, target) }))
    .filter(({ file, anchor }) => anchor !== undefined && pages.includes(file))
    .filter(({ file, anchor }) => !anchors(readDoc(file)).has(anchor as string))
    .map(({ target }) => target);
  expect(broken).toEqual([]);
});

test.each(pages)('%s does not cite ../shared, which lies outside the repository', (page) => {
  expect(readDoc(page)).not.toContain('../shared');
});

test('every runbook anchor the failure catalogue names is a heading of docs/operate.md', () => {
  const headingsOfOperate = anchors(readDoc('operate.md'));
  const missing = failureKindList
    .map((kind) => kind.runbook.slice(1))
    .filter((anchor) => !headingsOfOperate.has(anchor));
  expect(missing).toEqual([]);
});

test("the runbook's table of failure kinds is the catalogue's: each code, in order, with its status and runbook entry", () => {
  const rows = section(readDoc('operate.md'), 'Failure kinds')
    .split('\n')
    .filter((line) => /^\| `[a-z_]+` +\| \d{3} /.test(line))
    .map((line) => {
      const [code, status, entry] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim());
      return [code, status, /\]\((#[^)]+)\)/.exec(entry ?? '')?.[1]];
    });

  expect(rows).toEqual(failureKindList.map((kind) => [`\`${kind.code}\``, String(kind.status), kind.runbook]));
});

test("every other alarm's runbook anchor is a heading of docs/operate.md", () => {
  const headingsOfOperate = anchors(readDoc('operate.md'));
  const missing = Object.values(alarmRunbook)
    .map((entry) => entry.anchor)
    .filter((anchor) => !headingsOfOperate.has(anchor));
  expect(missing).toEqual([]);
});
