/**
 * `docs/openapi.yaml` is the generated description, unedited and current, and valid OpenAPI 3.1
 * by the OpenAPI Initiative's schemas (@seriousme/openapi-schema-validator, which is ESM-only, so
 * it runs in a child Node process).
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { buildOpenApiDocument, openApiFile, openApiYaml } from '../../infra/tools/openapi-document';

interface ValidatorResult {
  readonly valid: boolean;
  readonly version: string;
  readonly errors?: unknown;
}

const validatorScript = `
import { Validator } from '@seriousme/openapi-schema-validator';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const validator = new Validator();
const { valid, errors } = await validator.validate(JSON.parse(input));
console.log(JSON.stringify({ valid, version: validator.version, errors }));
`;

/** The validator's verdict on a document. */
function validateOpenApi(document: unknown): Promise<ValidatorResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '--eval', validatorScript], {
      cwd: process.cwd(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as ValidatorResult);
      else reject(new Error(`The OpenAPI validator exited with ${code}:\n${stderr}`));
    });
    child.stdin.end(JSON.stringify(document));
  });
}

const committedText = () => readFile(path.join(process.cwd(), openApiFile), 'utf8');

test('docs/openapi.yaml is exactly what `npm run openapi` generates from the code (run it after changing core/api)', async () => {
  expect(await committedText()).toBe(openApiYaml());
});

test('docs/openapi.yaml is valid OpenAPI 3.1', async () => {
  const result = await validateOpenApi(parse(await committedText()));

  expect(result).toEqual({ valid: true, version: '3.1' });
});

test('the validator refuses a document that breaks OpenAPI 3.1: a response without its description', async () => {
  const document = structuredClone(buildOpenApiDocument()) as any;
  delete document.paths['/api/send-cheat-sheet'].post.responses['200'].description;

  const result = await validateOpenApi(document);

  expect(result.valid).toBe(false);
  expect(JSON.stringify(result.errors)).toMatch(/description/);
});
