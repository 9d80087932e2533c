import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropCreationStacks } from './creation-stacks';

let assembly: string;
beforeEach(() => {
  assembly = mkdtempSync(path.join(tmpdir(), 'creation-stacks-'));
});
afterEach(() => rmSync(assembly, { recursive: true, force: true }));

const trace = { type: 'aws:cdk:creationStack', data: ['new Stack (/home/someone/app/infra/stack.ts:1:1)'] };
const warning = { type: 'aws:cdk:warning', data: 'no senderDomain' };

test("removes the creation stacks from a stack's metadata and keeps every other entry", () => {
  writeFileSync(path.join(assembly, 'Stack.metadata.json'), JSON.stringify({ '/Stack': [trace, warning] }));
  dropCreationStacks(assembly);
  expect(JSON.parse(readFileSync(path.join(assembly, 'Stack.metadata.json'), 'utf8'))).toEqual({ '/Stack': [warning] });
});

test('removes the stack trace of any other entry, keeping the entry', () => {
  const acknowledged = { type: 'aws:cdk:acknowledged-rules', data: { rule: 'reason' } };
  writeFileSync(
    path.join(assembly, 'Stack.metadata.json'),
    JSON.stringify({ '/Stack': [{ ...acknowledged, trace: ['at new Stack (/home/someone/app/infra/stack.ts:1:1)'] }] }),
  );
  dropCreationStacks(assembly);
  expect(JSON.parse(readFileSync(path.join(assembly, 'Stack.metadata.json'), 'utf8'))).toEqual({
    '/Stack': [acknowledged],
  });
});

test('leaves metadata without creation stacks, and other files, untouched', () => {
  writeFileSync(path.join(assembly, 'Stack.metadata.json'), JSON.stringify({ '/Stack': [warning] }));
  writeFileSync(path.join(assembly, 'tree.json'), JSON.stringify({ '/Stack': [trace] }));
  expect(dropCreationStacks(assembly)).toEqual([]);
});
