/**
 * Reads the build output (`npm test` builds first): the site names the API only by its paths under
 * its own origin (`/api/...`), never by the API's own address, which would let a stranger spend
 * the readers' route throttles past the web ACL (docs/abuse.md).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { apiPathPrefix } from '../../../core/api/routes';

const dist = path.join(process.cwd(), 'frontend/dist');

function builtFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? builtFiles(path.join(directory, entry.name)) : [path.join(directory, entry.name)],
  );
}

test("no file of the site holds an API Gateway address, and the page's script calls the API under the site's own /api/", () => {
  if (!existsSync(dist)) throw new Error(`${dist} is missing: run npm run build first`);
  const texts = builtFiles(dist)
    .filter((file) => /\.(html|js|css|json|txt|xml|webmanifest)$/.test(file))
    .map((file) => ({ file: path.relative(dist, file), text: readFileSync(file, 'utf8') }));

  expect(texts.filter(({ text }) => /execute-api|amazonaws\.com/.test(text)).map(({ file }) => file)).toEqual([]);
  const relativeApiPath = new RegExp(`["'\`]${apiPathPrefix}[a-z]`);
  expect(texts.some(({ file, text }) => file.endsWith('.js') && relativeApiPath.test(text))).toBe(true);
});
