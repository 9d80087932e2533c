/** `npm run openapi`: writes docs/openapi.yaml from the API's code in core/api/. */

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openApiFile, openApiYaml } from '../infra/tools/openapi-document';

const outputPath = path.join(process.cwd(), openApiFile);
const yaml = openApiYaml();
await writeFile(outputPath, yaml);
console.log(`OpenAPI description: ${openApiFile} (${yaml.length} characters)`);
