/**
 * Holds replies to the API's description, `docs/openapi.yaml`: a reply whose status the route does
 * not document, whose documented headers are missing or wrong, or whose JSON body does not match
 * the documented schema fails the test that received it, saying what differs. Schemas are checked
 * with Ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect) and ajv-formats.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { openApiFile } from '../../infra/tools/openapi-document';

export interface ReceivedReply {
  /** The request's path, e.g. `/api/send-cheat-sheet`. */
  readonly route: string;
  readonly method: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, unknown>>;
  /** The body as sent: JSON text, or the form route's HTML. */
  readonly body: string | undefined;
}

type DocumentNode = Record<string, unknown>;

/** A document ready to check replies against. */
export interface OpenApiChecker {
  /** What is wrong with a reply, in plain words; empty when it matches the document. */
  problems(reply: ReceivedReply): string[];
  /** A validator for the schema at a JSON pointer into the document, e.g. `#/components/schemas/X`. */
  schemaAt(pointer: string): ValidateFunction;
}

const documentKey = 'openapi';

/** Ajv's errors, each with where it is and, for an extra key, which one. */
function describeErrors(errors: ValidateFunction['errors'], subject: string): string {
  return (errors ?? [])
    .map((error: ErrorObject) => {
      const extra = (error.params as { additionalProperty?: string }).additionalProperty;
      return `${subject}${error.instancePath} ${error.message ?? 'is invalid'}${extra === undefined ? '' : ` (${extra})`}`;
    })
    .join('; ');
}

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

function nodeAt(document: DocumentNode, pointer: string): unknown {
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, segment) => (node as DocumentNode | undefined)?.[segment], document);
}

export function openApiChecker(document: DocumentNode): OpenApiChecker {
  // Strict, so that a schema keyword Ajv does not know is an error, not a silent pass; the
  // document's own (non-schema) keys are declared as such.
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'openapi' });
  ajv.addKeyword({ keyword: 'info' });
  ajv.addKeyword({ keyword: 'servers' });
  ajv.addKeyword({ keyword: 'paths' });
  ajv.addKeyword({ keyword: 'components' });
  ajv.addSchema(document, documentKey);

  /** Follows local `$ref`s: the node and the pointer where it really is. */
  function resolve(pointer: string): { node: DocumentNode | undefined; pointer: string } {
    let current = pointer;
    for (let hops = 0; hops < 10; hops += 1) {
      const node = nodeAt(document, current) as DocumentNode | undefined;
      if (typeof node?.$ref !== 'string') return { node, pointer: current };
      current = node.$ref;
    }
    throw new Error(`${pointer}: too many $ref hops`);
  }

  function schemaAt(pointer: string): ValidateFunction {
    const validate = ajv.getSchema(`${documentKey}${pointer}`);
    if (!validate) throw new Error(`No schema at ${pointer} in ${openApiFile}`);
    return validate;
  }

  function headerValue(headers: ReceivedReply['headers'], name: string): string | undefined {
    const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : String(headers[key]);
  }

  function problems(reply: ReceivedReply): string[] {
    const method = reply.method.toLowerCase();
    const operationPointer = `#/paths/${escapePointer(reply.route)}/${method}`;
    if (nodeAt(document, operationPointer) === undefined) {
      return [`${openApiFile} documents no ${reply.method.toUpperCase()} ${reply.route}`];
    }
    const responses = (nodeAt(document, `${operationPointer}/responses`) ?? {}) as DocumentNode;
    const status = String(reply.status);
    if (!(status in responses)) {
      return [`status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    }
    const { node: response, pointer: responsePointer } = resolve(`${operationPointer}/responses/${status}`);
    const found: string[] = [];

    for (const name of Object.keys((response?.headers ?? {}) as DocumentNode)) {
      const { node: header, pointer: headerPointer } = resolve(`${responsePointer}/headers/${escapePointer(name)}`);
      const value = headerValue(reply.headers, name);
      if (value === undefined) {
        if (header?.required === true) found.push(`header ${name} is missing`);
        continue;
      }
      const validate = schemaAt(`${headerPointer}/schema`);
      if (!validate(value))
        found.push(`header ${name}: ${JSON.stringify(value)}: ${describeErrors(validate.errors, 'it')}`);
    }

    const content = (response?.content ?? {}) as DocumentNode;
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) return found;
    const contentType = headerValue(reply.headers, 'content-type')?.split(';')[0]?.trim().toLowerCase();
    if (contentType === undefined || !mediaTypes.includes(contentType)) {
      return [
        ...found,
        `Content-Type ${contentType ?? '(none)'} is not documented (documented: ${mediaTypes.join(', ')})`,
      ];
    }
    // JSON bodies are checked as the value they hold; any other documented type (the form route's
    // HTML pages) as the text it is.
    let body: unknown = reply.body ?? '';
    if (contentType === 'application/json') {
      try {
        body = JSON.parse(reply.body ?? '');
      } catch {
        return [...found, `the body is not JSON: ${JSON.stringify(reply.body)}`];
      }
    }
    const validate = schemaAt(`${responsePointer}/content/${escapePointer(contentType)}/schema`);
    if (!validate(body)) {
      found.push(`the body ${JSON.stringify(body)} does not match: ${describeErrors(validate.errors, 'body')}`);
    }
    return found;
  }

  return { problems, schemaAt };
}

let committed: OpenApiChecker | undefined;

/** The committed document, read once per test file. */
export function committedOpenApi(): OpenApiChecker {
  committed ??= openApiChecker(parse(readFileSync(path.join(process.cwd(), openApiFile), 'utf8')) as DocumentNode);
  return committed;
}

/** Throws, naming the reply and every difference, when the reply does not match the committed document. */
export function expectDocumentedReply(reply: ReceivedReply, checker: OpenApiChecker = committedOpenApi()): void {
  const found = checker.problems(reply);
  if (found.length === 0) return;
  throw new Error(
    `${reply.method.toUpperCase()} ${reply.route} answered ${reply.status}, which ${openApiFile} does not describe:\n` +
      found.map((problem) => `  - ${problem}`).join('\n') +
      '\n(Change the reply, or describe it in core/api/replies.ts and run `npm run openapi`.)',
  );
}

/** The same for an HTTP response from a running server (read from a clone, so the caller can still read the body). */
export async function expectDocumentedResponse(method: string, response: Response): Promise<void> {
  expectDocumentedReply({
    route: new URL(response.url).pathname,
    method,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: await response.clone().text(),
  });
}
