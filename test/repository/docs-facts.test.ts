/**
 * The facts the README and docs/ state about the layout, held to the code: how many functions
 * and tables there are, which folders `lambdas/` holds, how many parts there are and which part
 * imports which. The truth comes from the files on disk, `core/data/tables.ts` and the dependency
 * rules (test/support/layout-facts.ts), so a new function, table, folder or import makes the page
 * that states the old figure fail here, by name.
 */
import { keptTables, tables } from '../../core/data/tables';
import { readdirSync } from 'node:fs';
import { docPaths, existsInRepository, readDoc, section } from '../support/docs';
import {
  functionFolders,
  lambdaFolders,
  partImports,
  parts,
  ruleNames,
  sharedCodeFolders,
} from '../support/layout-facts';

const numberWords = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];
const number = `(\\d+|${numberWords.join('|')})`;
const valueOf = (word: string) => (/^\d+$/.test(word) ? Number(word) : numberWords.indexOf(word.toLowerCase()));

/** Every count `pattern` finds in the README and docs/ (a phrase may wrap lines), with where it is. */
function countsOf(pattern: RegExp): Array<{ page: string; phrase: string; count: number }> {
  return docPaths().flatMap((page) =>
    [...readDoc(page).replace(/\s+/g, ' ').matchAll(pattern)].map((match) => ({
      page,
      phrase: match[0],
      count: valueOf(match[1]),
    })),
  );
}

/** A count of functions: "seven functions", "7 Lambda functions"; not "seven functions'" (a possessive). */
const functionCount = new RegExp(`\\b${number} (?:Lambda )?functions\\b(?!')`, 'gi');
/** A count of tables: "four tables", "four DynamoDB tables"; not "two tables'" (a possessive). */
const tableCount = new RegExp(`\\b${number} (?:DynamoDB )?tables\\b(?!')`, 'gi');
/** A count of the tables that outlive the stack: "the three kept tables". */
const keptTableCount = new RegExp(`\\b${number} kept tables\\b(?!')`, 'gi');

/** The edges a Mermaid flowchart draws: `a --> b & c`, `a -. "label" .-> b`. */
function mermaidEdges(markdown: string): string[] {
  const block = /```mermaid\n([\s\S]*?)```/.exec(markdown);
  if (!block) throw new Error('no mermaid block');
  return block[1].split('\n').flatMap((line) => {
    const edge = /^\s*(\w+)\s*(?:-->|-\.\s*(?:"[^"]*"\s*)?\.->)\s*(.+?)\s*$/.exec(line);
    return edge ? edge[2].split('&').map((to) => `${edge[1]} → ${to.trim()}`) : [];
  });
}

const actualEdges = () => partImports().map(({ from, to }) => `${from} → ${to}`);

describe('the functions', () => {
  test('every folder of lambdas/ is a function (it has a handler.ts) or shared code the dependency rules name', () => {
    const shared = sharedCodeFolders();
    expect(functionFolders().filter((folder) => shared.includes(folder))).toEqual([]);
    expect(lambdaFolders().filter((folder) => !functionFolders().includes(folder))).toEqual([...shared].sort());
  });

  test('every count of functions in the README and docs/ is the number of function folders', () => {
    const counts = countsOf(functionCount);
    expect(counts.length).toBeGreaterThan(0);
    const expected = functionFolders().length;
    expect(counts.filter(({ count }) => count !== expected)).toEqual([]);
  });

  test('the layout in docs/architecture.md lists every folder of lambdas/, and no other', () => {
    const layout = section(readDoc('architecture.md'), 'Layout').split('\n');
    const start = layout.findIndex((line) => line.startsWith('lambdas/'));
    expect(start).toBeGreaterThan(-1);
    const listed: string[] = [];
    for (const line of layout.slice(start + 1)) {
      if (!line.startsWith(' ')) break;
      const folder = /^ {2}([\w-]+)\//.exec(line);
      if (folder) listed.push(folder[1]);
    }
    expect(listed.sort()).toEqual(lambdaFolders());
  });
});

/** The layout's code block in docs/architecture.md: each top-level entry with its indented lines. */
function layoutBlocks(): Array<{ entry: string; lines: string[] }> {
  const block = /```\n([\s\S]*?)```/.exec(section(readDoc('architecture.md'), 'Layout'));
  if (!block) throw new Error("no code block in docs/architecture.md's Layout");
  const blocks: Array<{ entry: string; lines: string[] }> = [];
  for (const line of block[1].split('\n')) {
    if (/^\S/.test(line)) blocks.push({ entry: line.split(/\s/)[0], lines: [line] });
    else if (line.trim()) blocks.at(-1)?.lines.push(line);
  }
  return blocks;
}

const foldersIn = (folder: string) =>
  readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name);

describe('the layout in docs/architecture.md', () => {
  test('names only files and folders that exist', () => {
    const named = layoutBlocks().flatMap(({ entry, lines }) => [
      entry,
      ...lines.flatMap((line) => {
        const child = /^ {2}([\w./-]+)\s/.exec(line);
        return child ? [`${entry.replace(/\/$/, '')}/${child[1]}`] : [];
      }),
    ]);
    expect(named.length).toBeGreaterThan(layoutBlocks().length);
    expect(named.filter((path) => !existsInRepository(path))).toEqual([]);
  });

  test('names every top-level folder of the repository', () => {
    const tracked = foldersIn('.').filter(
      (folder) => !['node_modules', 'dist', 'cdk.out', 'coverage'].includes(folder),
    );
    const listed = layoutBlocks().map(({ entry }) => entry.replace(/\/$/, ''));
    expect(tracked.filter((folder) => !listed.includes(folder))).toEqual([]);
  });

  test.each(['core', 'lambdas', 'infra', 'local', 'ops'])('names every folder of %s/', (part) => {
    const block = layoutBlocks().find(({ entry }) => entry === `${part}/`);
    expect(block).toBeDefined();
    const mentioned = new Set([...block!.lines.join('\n').matchAll(/([\w-]+)\//g)].map(([, name]) => name));
    expect(foldersIn(part).filter((folder) => !mentioned.has(folder))).toEqual([]);
  });
});

describe('the paths the pages cite', () => {
  /** A file of the repository, `lambdas/requests/send-step.ts`, or a folder in backticks, `core/data/`. */
  const citedPath =
    /(?<![\w/.-])((?:content|core|docs|frontend|infra|lambdas|local|ops|scripts|test)\/[\w./-]*\.(?:ts|tsx|mjs|cjs|md|yaml|json))\b|`((?:content|core|docs|frontend|infra|lambdas|local|ops|scripts|test)\/[\w./-]*)`/g;

  test.each(docPaths())('every path of the repository %s cites exists', (page) => {
    const cited = [...readDoc(page).matchAll(citedPath)].map(([, file, folder]) => file ?? folder);
    expect(cited.filter((path) => !existsInRepository(path))).toEqual([]);
  });
});

describe('the tables', () => {
  test('every count of tables in the README and docs/ is the number of tables core/data/tables.ts describes', () => {
    const counts = countsOf(tableCount);
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.filter(({ count }) => count !== tables.length)).toEqual([]);
  });

  test('every count of kept tables in the README and docs/ is the number core/data/tables.ts keeps', () => {
    const counts = countsOf(keptTableCount);
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.filter(({ count }) => count !== keptTables.length)).toEqual([]);
  });
});

describe('the parts and their imports', () => {
  test("every dependency rule docs/architecture.md's boundaries name is a rule of .dependency-cruiser.cjs", () => {
    const named = [...section(readDoc('architecture.md'), 'Boundaries').matchAll(/`([a-z]+(?:-[a-z]+){2,})`/g)].map(
      ([, name]) => name,
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !ruleNames().includes(name))).toEqual([]);
  });

  test('the README and docs/architecture.md count the parts the dependency rules guard', () => {
    const counts = countsOf(new RegExp(`\\b${number} parts, each owning one thing`, 'gi'));
    expect(counts.map(({ page }) => page).sort()).toEqual(['README.md', 'docs/architecture.md']);
    expect(counts.filter(({ count }) => count !== parts().length)).toEqual([]);
  });

  test("the README's diagram draws exactly the imports the code makes between the parts", () => {
    expect(mermaidEdges(section(readDoc('README.md'), 'Architecture')).sort()).toEqual(actualEdges().sort());
  });

  test("docs/architecture.md's table of parts names, for each part, exactly the parts it imports", () => {
    const rows = section(readDoc('architecture.md'), 'The parts')
      .split('\n')
      .flatMap((line) => {
        const row = /^\| `(\w+)\/` +\| (.*?) *\|$/.exec(line);
        return row ? [{ part: row[1], imports: row[2] }] : [];
      });
    expect(rows.map(({ part }) => part).sort()).toEqual([...parts(), 'scripts'].sort());
    const named = rows
      .filter(({ part }) => part !== 'scripts') // "anything": entry points may import every part
      .flatMap(({ part, imports }) =>
        [...imports.matchAll(/`(\w+)\/`/g)].map(([, to]) => to).map((to) => `${part} → ${to}`),
      );
    expect(named.sort()).toEqual(
      actualEdges()
        .filter((edge) => !edge.startsWith('scripts'))
        .sort(),
    );
  });
});
