/**
 * `tsx test/support/parse-workflow.ts <file>...`: parses GitHub Actions workflows with GitHub's own
 * parser (@actions/workflow-parser, the one behind the Actions language server) and prints each
 * file's errors as JSON, `{ "<file name>": { "errors": [...] } }`. A separate process because the
 * parser is an ES module that imports JSON, which jest's CommonJS transform cannot load; one process
 * for all the files, because each start of tsx and the parser costs about a second of CPU.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('Usage: tsx test/support/parse-workflow.ts <workflow file>...');
  process.exit(2);
}

async function errorsOf(file: string): Promise<string[]> {
  const parsed = parseWorkflow(
    { name: path.basename(file), content: readFileSync(file, 'utf8') },
    new NoOperationTraceWriter(),
  );
  const errors = parsed.context.errors.getErrors().map((error) => error.message);
  // The conversion to the workflow model reports what the schema alone lets through (jobs, needs, concurrency).
  if (parsed.value !== undefined) {
    const template = await convertWorkflowTemplate(parsed.context, parsed.value);
    for (const error of template.errors ?? []) if (!errors.includes(error.Message)) errors.push(error.Message);
  }
  return errors;
}

const results: Record<string, { errors: string[] }> = {};
for (const file of files) results[path.basename(file)] = { errors: await errorsOf(file) };
console.log(JSON.stringify(results));
