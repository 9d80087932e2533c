/**
 * The node and jsdom projects' global setup: core/content/generated/ is brought up to date with
 * content/*.yaml first, so a test always reads the copy the author wrote (`npm run content`).
 */
import { writeContentModules } from '../../frontend/build/content-modules';

export default async function updateContentModules(): Promise<void> {
  await writeContentModules(process.cwd());
}
