/**
 * The request body's JSON Schema in the OpenAPI document (openapi-document.ts), from the request
 * schema the functions check (core/api/request-schema.ts) and its limits.
 */

import * as z from 'zod/mini';

import { maxEmailLength, maxNameLength, maxWebsiteLength } from '../../core/api/request-limits';
import { cheatSheetRequestSchema } from '../../core/api/request-schema';
import type { JsonSchema } from './openapi-types';

const fieldDescriptions: Readonly<Record<string, string>> = {
  name: `The reader's name: ${maxNameLength} characters at most once trimmed (control characters and line breaks become spaces, runs of spaces one). Since it is mailed to the given address, a name that looks like a link or an address is refused: \`://\`, \`www.\`, an \`@\`, or a word ending in a dot and a common top-level domain (\`evil.example\`); "J.R. Smith" passes.`,
  email: `Where to send the cheat sheet: one plain address (no display name), ${maxEmailLength} characters at most once trimmed. Stored lower-cased, so the daily cap counts "Ada@Example.com" and "ada@example.com" as one.`,
  website: `The form's honeypot, an input people never see: optional, text, ${maxWebsiteLength} characters at most once trimmed. The page sends it empty; when it holds anything, a script filled the form in, and the route answers as on success but stores and sends nothing.`,
};

export const requestExample = { name: 'Ada Owner', email: 'ada@example.com' };

/** Zod's JSON Schema of one view of a schema, without the dialect (the document sets it). */
export function jsonSchemaOf(schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io });
  void $schema;
  return rest;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One field's keywords from both views; a keyword the two views give different values is a mistake to look at. */
function mergeKeywords(field: string, input: JsonSchema, output: JsonSchema): JsonSchema {
  const merged: Record<string, unknown> = { ...input };
  for (const [keyword, value] of Object.entries(output)) {
    if (keyword in merged && !sameJson(merged[keyword], value)) {
      throw new Error(`The request schema's input and output disagree on ${field}.${keyword}: describe it by hand.`);
    }
    merged[keyword] = value;
  }
  return merged;
}

/**
 * The request body as the functions check it. Zod's input view says what a client must send (the
 * required fields; unknown keys are allowed, and dropped), but loses what is checked after a
 * transform (the name's length, the address's format); the output view has those. So: the
 * object from the input view, each field with the keywords of both.
 */
export function requestBodySchema(): JsonSchema {
  const input = jsonSchemaOf(cheatSheetRequestSchema, 'input');
  const output = jsonSchemaOf(cheatSheetRequestSchema, 'output');
  const inputFields = (input.properties ?? {}) as Record<string, JsonSchema>;
  const outputFields = (output.properties ?? {}) as Record<string, JsonSchema>;
  const properties = Object.fromEntries(
    Object.keys({ ...inputFields, ...outputFields }).map((field) => {
      const merged = mergeKeywords(field, inputFields[field] ?? {}, outputFields[field] ?? {});
      const description = fieldDescriptions[field];
      return [field, description === undefined ? merged : { description, ...merged }];
    }),
  );
  return {
    description: 'Every field is trimmed first; the limits apply to the trimmed text. Unknown keys are ignored.',
    ...input,
    properties,
  };
}
