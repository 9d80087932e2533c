/**
 * `npm run content`: checks every file in content/ and writes core/content/generated/
 * (frontend/build/content-modules.ts). A mistake prints its file, line and field and exits 1.
 */

import { ContentFileError } from '../core/content/content-file';
import { writeContentModules } from '../frontend/build/content-modules';

try {
  const written = await writeContentModules(process.cwd());
  if (written.length > 0) console.error(`Content: updated ${written.join(', ')}`);
} catch (error) {
  if (!(error instanceof ContentFileError)) throw error;
  console.error(`The content has mistakes; fix them in content/ and build again:\n${error.message}`);
  process.exit(1);
}
