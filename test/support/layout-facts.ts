/**
 * What the code says about the layout, for tests that hold the documentation to it: the
 * functions' folders, the shared code's folders, the parts and which part imports which. Read
 * from the files on disk and from the dependency rules (.dependency-cruiser.cjs), never written
 * down here, so a new function, folder or import changes the answer.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** jest runs from the repository's root. */
const repoRoot = process.cwd();

interface Rule {
  readonly name: string;
  readonly from: { readonly path?: string };
  readonly to: { readonly path?: string };
}

function rules(): readonly Rule[] {
  const config = createRequire(path.join(repoRoot, 'package.json'))('./.dependency-cruiser.cjs') as {
    forbidden: Rule[];
  };
  return config.forbidden;
}

/** The names of the dependency rules. */
export function ruleNames(): string[] {
  return rules().map(({ name }) => name);
}

function rule(name: string): Rule {
  const found = rules().find((candidate) => candidate.name === name);
  if (!found) throw new Error(`.dependency-cruiser.cjs has no rule '${name}'`);
  return found;
}

/** The alternatives of the first `(a|b|c)` group of a rule's path. */
function alternatives(pattern: string | undefined, rule: string): string[] {
  const group = /\(([\w|-]+)\)/.exec(pattern ?? '');
  if (!group) throw new Error(`the rule '${rule}' names no (a|b) group of folders`);
  return group[1].split('|');
}

/**
 * The parts of the layout (`core`, `frontend`, `lambdas`…): the top-level folders the rules
 * guard, less the entry points (`scripts`) and the tests.
 */
export function parts(): string[] {
  const product = rule('core-imports-only-core').to.path;
  return alternatives(product, 'core-imports-only-core').filter((part) => part !== 'scripts' && part !== 'test');
}

/** The folders of `lambdas/` that hold the code the functions share, as the dependency rules name them. */
export function sharedCodeFolders(): string[] {
  return alternatives(rule('shared-code-imports-no-function').from.path, 'shared-code-imports-no-function');
}

/** Every folder directly under `lambdas/`. */
export function lambdaFolders(): string[] {
  return readdirSync(path.join(repoRoot, 'lambdas'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** The functions, one folder each: the folders of `lambdas/` holding a `handler.ts`. */
export function functionFolders(): string[] {
  return lambdaFolders().filter((folder) => {
    try {
      return statSync(path.join(repoRoot, 'lambdas', folder, 'handler.ts')).isFile();
    } catch {
      return false;
    }
  });
}

function sourceFiles(folder: string): string[] {
  const skipped = new Set(['node_modules', 'dist', 'cdk.out', 'coverage']);
  return readdirSync(path.join(repoRoot, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : sourceFiles(relative);
    return /\.(ts|tsx|mts|cts|mjs|cjs)$/.test(entry.name) ? [relative] : [];
  });
}

/** Relative module specifiers a file imports or re-exports (static, dynamic, require). */
const specifier = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * Which part imports which, as the code has it: `from` imports at least one file of `to`. Over
 * the parts and `scripts`; an import within a part is no edge.
 */
export function partImports(): Array<{ from: string; to: string }> {
  const known = [...parts(), 'scripts'];
  const edges = new Set<string>();
  for (const from of known) {
    for (const file of sourceFiles(from)) {
      for (const match of readFileSync(path.join(repoRoot, file), 'utf8').matchAll(specifier)) {
        const [to] = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1])).split('/');
        if (to !== from && known.includes(to)) edges.add(`${from} ${to}`);
      }
    }
  }
  return [...edges].sort().map((edge) => {
    const [from, to] = edge.split(' ');
    return { from, to };
  });
}
