/**
 * content/*.yaml → core/content/generated/*.ts: every content file checked (content-file.ts)
 * and its data written as a plain module, which the page, the PDF and the e-mail import. A
 * module is rewritten only when its data changed, so `npm start` sees the build as current
 * otherwise. `npm run content` runs it (and every build and test run first); the dev server
 * runs it again on every change of a content file.
 */

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ContentFileError, contentModuleSource, parseContentFile } from '../../core/content/content-file';
import { contentFileName, contentSchemas, type ContentName } from '../../core/content/content-schemas';

export const contentDirectory = 'content';
export const generatedDirectory = 'core/content/generated';

export const contentNames = Object.keys(contentSchemas) as ContentName[];

export const generatedModuleOf = (name: ContentName) =>
  path.join(generatedDirectory, contentFileName(name).replace(/\.yaml$/, '.ts'));

/**
 * Checks every content file under `root` and writes the modules whose data changed; returns
 * their paths. Throws one ContentFileError with every mistake of every file, writing nothing.
 */
export async function writeContentModules(root: string): Promise<string[]> {
  const modules: { readonly target: string; readonly source: string }[] = [];
  const problems: ContentFileError['problems'][number][] = [];
  for (const name of contentNames) {
    const text = await readFile(path.join(root, contentDirectory, contentFileName(name)), 'utf8');
    try {
      modules.push({
        target: generatedModuleOf(name),
        source: contentModuleSource(name, parseContentFile(name, text)),
      });
    } catch (error) {
      if (!(error instanceof ContentFileError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new ContentFileError(problems);

  const written: string[] = [];
  for (const { target, source } of modules) {
    const current = await readFile(path.join(root, target), 'utf8').catch(() => null);
    if (current === source) continue;
    await writeFile(path.join(root, target), source);
    written.push(target);
  }
  return written;
}
