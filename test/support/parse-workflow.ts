/**
 * `tsx test/support/parse-workflow.ts <file>`: parses a GitHub Actions workflow with GitHub's own
 * parser (@actions/workflow-parser, the one behind the Actions language server) and prints its
 * errors as JSON, `{ "errors": [...] }`. A separate process because the parser is an ES module
 * that imports JSON, which jest's CommonJS transform cannot load.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';

const file = process.argv[2];
if (file === undefined) {
  console.error('Usage: tsx test/support/parse-workflow.ts <workflow file>');
  process.exit(2);
}

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
console.log(JSON.stringify({ errors }));
