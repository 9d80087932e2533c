/**
 * The author's placeholders (core/content/placeholders.ts), each with its file and line: for
 * production (or no stage: the stage-less stack is production's) a failure, since the live site
 * must not go out with stand-ins; for another stage (staging) a warning.
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  describeSpot,
  locatePlaceholders,
  placeholderFiles,
  placeholderPolicyFor,
  type PlaceholderSpot,
} from '../../core/content/placeholders';
import type { CheckResult } from './check-result';

/** The placeholders left in `root`'s content/ files. */
export async function readPlaceholderSpots(root: string): Promise<PlaceholderSpot[]> {
  const sources = Object.fromEntries(
    await Promise.all(
      placeholderFiles.map(async (file) => [file, await readFile(path.join(root, 'content', file), 'utf8')] as const),
    ),
  );
  return locatePlaceholders(sources);
}

export function checkContentPlaceholders(spots: readonly PlaceholderSpot[], stage: string | undefined): CheckResult {
  if (spots.length === 0) {
    return { name: 'content', status: 'PASS', detail: 'no placeholder left in content/' };
  }
  const policy = placeholderPolicyFor(stage);
  return {
    name: 'content',
    status: policy === 'fail' ? 'FAIL' : 'WARN',
    detail: `placeholders still in content/: ${spots.map(describeSpot).join('; ')}`,
    fix: `replace each with the real one and delete its \`placeholder: true\` line (docs/author.md, 'Before launch: your own material')${
      policy === 'fail' ? '; production refuses stand-ins, staging only warns' : ''
    }.`,
  };
}
