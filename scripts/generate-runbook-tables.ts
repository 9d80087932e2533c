/** `npm run runbook`: writes docs/operate.md's tables of failure kinds from the failure catalogue. */

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runbookFile, withRunbookTables } from '../infra/tools/runbook-tables';

const pagePath = path.join(process.cwd(), runbookFile);
await writeFile(pagePath, withRunbookTables(await readFile(pagePath, 'utf8')));
console.log(`Failure kinds and Logs Insights queries: ${runbookFile}`);
