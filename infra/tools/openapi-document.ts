/**
 * Builds the API's OpenAPI 3.1 description (`docs/openapi.yaml`, written by `npm run openapi`)
 * from what the functions really use: the catalogue's routes and failure kinds
 * (`core/api/catalogue/`), the request schema and its limits (request-schema.ts,
 * request-limits.ts) and the replies built from them (replies.ts, form-replies.ts). Pure: the
 * document is a plain object; the entry point turns it into YAML.
 */

import { stringify } from 'yaml';

import { buildFormRefusalPage } from '../../core/documents/form-refusal-page';
import {
  formContentType,
  formOutcomes,
  formRefusalStatusesOf,
  hasBookTicked,
  mailingListTicked,
  type FormRefusalStatus,
} from '../../core/api/form-replies';
import { failureKinds, type FailureCatalogue } from '../../core/api/catalogue/failures';
import { productRouteList, type ProductRoute } from '../../core/api/catalogue/routes';
import {
  failureBodySchemaOf,
  failureStatusesOf,
  jsonRoutesOf,
  type FailureStatus,
  type JsonRoute,
} from '../../core/api/replies';
import { maxBodyBytes } from '../../core/api/request-limits';
import { proofOfWorkHeader } from '../../core/api/proof-of-work';
import { beaconPathItem } from './openapi-beacon';
import { jsonSchemaOf, requestBodySchema, requestExample } from './openapi-request-schema';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiReference,
  OpenApiResponse,
} from './openapi-types';

export type * from './openapi-types';

/** Where the document is committed, from the repository's root. */
export const openApiFile = 'docs/openapi.yaml';

/** The version of the API's contract: raise it when a route, a field or a reply shape changes. */
export const apiVersion = '1.0.0';

/** The methods the document describes on each path: the route's own, and the others, answered 405. */
const describedMethods = ['get', 'post', 'put', 'patch', 'delete', 'options'] as const;
type DescribedMethod = (typeof describedMethods)[number];

/**
 * Every method but the route's own reaches its function (CloudFront passes them all) and gets
 * 405; HEAD too, without a body.
 */
export function methodsAnsweredWith405(route: Pick<ProductRoute<string>, 'method'>): readonly DescribedMethod[] {
  return describedMethods.filter((method) => method !== route.method.toLowerCase());
}

/** The route's own method, as an OpenAPI path item's key. */
function operationKey(route: Pick<ProductRoute<string>, 'method'>): DescribedMethod {
  const key = route.method.toLowerCase() as DescribedMethod;
  if (!describedMethods.includes(key)) throw new Error(`No OpenAPI operation for ${route.method}`);
  return key;
}

/** A method whose request carries a body the route reads: the others' operations describe none. */
function takesABody(route: Pick<ProductRoute<string>, 'method'>): boolean {
  return route.method !== 'GET' && route.method !== 'DELETE';
}

/** A 405's `Allow` header: the route's own method. */
function allowHeader(route: Pick<ProductRoute<string>, 'method'>): OpenApiHeader {
  return {
    description: 'The only method the route takes.',
    required: true,
    schema: { type: 'string', const: route.method },
  };
}

/** The names the document gives the request's shapes, under `components`; each JSON route names its bodies in its entry. */
const schemaNames = { request: 'CheatSheetRequest', form: 'CheatSheetForm' } as const;

/** What the document is built from: the catalogue, unless a test passes a copy of it. */
export interface DocumentSources {
  readonly routes: readonly ProductRoute<string>[];
  readonly failures: FailureCatalogue;
}

const catalogue: DocumentSources = { routes: productRouteList, failures: failureKinds };

const ref = (section: 'schemas' | 'headers' | 'responses', name: string): OpenApiReference => ({
  $ref: `#/components/${section}/${name}`,
});

const headerName = (header: string) => header.replaceAll('-', '');

function alwaysHeaders(extra: readonly string[] = []): Record<string, OpenApiReference> {
  return Object.fromEntries(['Cache-Control', ...extra].map((header) => [header, ref('headers', headerName(header))]));
}

function successResponse(route: JsonRoute): OpenApiResponse {
  const reply = route.success;
  return {
    description: reply.description,
    headers: alwaysHeaders(),
    content: { 'application/json': { schema: ref('schemas', route.schemaNames.success), example: reply.example } },
  };
}

/** The failures a route answers, by status, in the order of `failureStatuses`. */
function failureResponses(route: JsonRoute, failureStatuses: readonly FailureStatus[]): [string, OpenApiResponse][] {
  return failureStatuses.flatMap((failure) => {
    const causes = failure.causes[route.name] ?? [];
    if (causes.length === 0) return [];
    const response: OpenApiResponse = {
      description: failure.description,
      headers: {
        ...alwaysHeaders(Object.keys(failure.headers ?? {})),
        ...(failure.status === 405 && { Allow: allowHeader(route.route) }),
      },
      content: {
        'application/json': {
          schema: ref('schemas', route.schemaNames.failure),
          examples: Object.fromEntries(
            causes.map((cause) => [
              cause.name,
              { summary: cause.when, value: route.failureBody.of({ message: cause.message, code: cause.code }) },
            ]),
          ),
        },
      },
    };
    return [[String(failure.status), response]];
  });
}

const methodNotAllowedResponseName = (route: JsonRoute) => `${route.schemaNames.failure}MethodNotAllowed`;

/** Both JSON routes take it (lambdas/requests/idempotency.ts); the page sends one per submission. */
const idempotencyKeyParameter: OpenApiParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  description:
    'Optional, as in the IETF draft *The Idempotency-Key HTTP Header Field*: a fresh random value (a UUID) per submission, 1 to 255 visible ASCII characters. The same key with the same body within 24 hours replays the first reply (status and body) and stores, sends and counts nothing again; while the first is still running it gets `409`, with another body `422`. A failure that proves nothing was done is not kept, so the same key may try again. A key belongs to its route: the page sends one key on both calls. Without the header, every request is new.',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/** A route that can refuse a send for want of the proof of work reads it from this header. */
const proofOfWorkParameter: OpenApiParameter = {
  name: proofOfWorkHeader,
  in: 'header',
  description:
    "The solved challenge of `GET /api/cheat-sheet-challenge`: base64 of ALTCHA's JSON payload (`{challenge, solution}`). Required while the proof of work is on (`CHEAT_SHEET_CHALLENGE=on`, the stack's default); each challenge buys one send.",
  required: false,
  schema: { type: 'string' },
};

function pathItem(
  route: JsonRoute,
  failureStatuses: readonly FailureStatus[],
  failures: FailureCatalogue,
): Record<string, OpenApiOperation> {
  const { operationId, summary, description } = route.route.openApi;
  const asksProof =
    failures.proofOfWorkRefused.causes[route.route.name as keyof typeof failures.proofOfWorkRefused.causes] !==
    undefined;
  const failureReplies = failureResponses(route, failureStatuses);
  const operation: OpenApiOperation = {
    operationId,
    summary,
    description,
    ...(takesABody(route.route) && {
      parameters: [idempotencyKeyParameter, ...(asksProof ? [proofOfWorkParameter] : [])],
      requestBody: {
        description: `JSON (\`Content-Type: application/json\`, optionally with \`charset=utf-8\`), at most ${
          maxBodyBytes / 1024
        } KB (${maxBodyBytes} bytes).`,
        required: true,
        content: { 'application/json': { schema: ref('schemas', schemaNames.request), example: requestExample } },
      },
    }),
    responses: Object.fromEntries([
      [String(route.success.status), successResponse(route)],
      // The route's own method is never answered 405: the other methods' operations below are.
      ...failureReplies.filter(([status]) => status !== '405'),
    ]),
  };
  return {
    [operationKey(route.route)]: operation,
    ...refusedOperations(route.route, methodNotAllowedResponseName(route)),
  };
}

/** The operations of every method but the route's own: each answered 405 (its reply a shared response). */
function refusedOperations(
  route: Pick<ProductRoute<string>, 'method' | 'openApi' | 'reply'>,
  responseName: string,
): Record<string, OpenApiOperation> {
  const { operationId } = route.openApi;
  const page = route.reply.kind === 'form' ? ', with a page' : '';
  return Object.fromEntries(
    methodsAnsweredWith405(route).map((method) => [
      method,
      {
        operationId: `${operationId}${method.charAt(0).toUpperCase()}${method.slice(1)}`,
        summary: `${method.toUpperCase()}: not allowed`,
        description: `The route takes ${route.method} only; every other method is answered 405${page}.`,
        responses: { '405': ref('responses', responseName) },
      } satisfies OpenApiOperation,
    ]),
  );
}

/** The form's fields: the request's two, the checkbox and the honeypot. */
function formBodySchema(): JsonSchema {
  const request = requestBodySchema();
  return {
    description:
      'The form as a browser sends it. `name` and `email` are checked as in the JSON routes; unknown fields are ignored, a repeated one counts once (its first value).',
    type: 'object',
    properties: {
      ...(request.properties as Record<string, JsonSchema>),
      hasBook: {
        description: `'I confirm that I have purchased the book': \`${hasBookTicked}\` when ticked (what a browser sends for the checkbox), absent otherwise.`,
        type: 'string',
        const: hasBookTicked,
      },
      mailingList: {
        description: `The reader's choice to join the author's mailing list, offered only with a mail provider: \`${mailingListTicked}\` when ticked, absent otherwise. Only then is the request handed to the provider.`,
        type: 'string',
        const: mailingListTicked,
      },
      website: {
        description:
          'The honeypot: an input people never see. When it holds anything but spaces, the route answers as on success and stores and sends nothing.',
        type: 'string',
      },
    },
    required: ['name', 'email'],
  };
}

const formExample = { name: requestExample.name, email: requestExample.email, hasBook: hasBookTicked, website: '' };

/**
 * The refusal page's title names the book, whose title and subtitle are the author's
 * (content/book.yaml): the examples show a fixed stand-in for them, so a copy edit changes no generated file.
 */
const exampleSiteTitle = "The Book's Title: The Book's Subtitle";

/** A refusal page, by the status's causes: the HTML the route sends (with the book's own title), for each. */
function formRefusalResponse(status: FormRefusalStatus, route: Pick<ProductRoute<string>, 'method'>): OpenApiResponse {
  return {
    description: `${status.description} The body is a small HTML page that says why, with a link back to the form.`,
    headers: { ...alwaysHeaders(), ...(status.status === 405 && { Allow: allowHeader(route) }) },
    content: {
      'text/html': {
        schema: { type: 'string' },
        examples: Object.fromEntries(
          status.causes.map((cause) => [
            cause.name,
            { summary: cause.when, value: buildFormRefusalPage(cause.message, exampleSiteTitle) },
          ]),
        ),
      },
    },
  };
}

function formPathItem(
  route: ProductRoute<string>,
  refusalStatuses: readonly FormRefusalStatus[],
): Record<string, OpenApiOperation> {
  const refusals = refusalStatuses.filter((status) => status.status !== 405);
  const { operationId, summary, description } = route.openApi;
  const operation: OpenApiOperation = {
    operationId,
    summary,
    description,
    requestBody: {
      description: `A form (\`Content-Type: ${formContentType}\`, optionally with \`charset=utf-8\`), at most ${
        maxBodyBytes / 1024
      } KB (${maxBodyBytes} bytes).`,
      required: true,
      content: { [formContentType]: { schema: ref('schemas', schemaNames.form), example: formExample } },
    },
    responses: Object.fromEntries<OpenApiResponse>([
      [
        '303',
        {
          description: `The request was understood; \`Location\` is the page of its outcome. ${Object.values(
            formOutcomes,
          )
            .map((outcome) => `\`${outcome.path}\`: ${outcome.when}`)
            .join(' ')}`,
          headers: { ...alwaysHeaders(), Location: ref('headers', 'FormResultLocation') },
        } satisfies OpenApiResponse,
      ],
      ...refusals.map((status) => [String(status.status), formRefusalResponse(status, route)] as const),
    ]),
  };
  return { [operationKey(route)]: operation, ...refusedOperations(route, 'FormMethodNotAllowed') };
}

function fixedHeaders(failureStatuses: readonly FailureStatus[]): Record<string, OpenApiHeader> {
  const headers: Record<string, OpenApiHeader> = {
    CacheControl: {
      description: "Replies are never cached: each answers one visitor's request.",
      required: true,
      schema: { type: 'string', const: 'no-store' },
    },
  };
  headers.FormResultLocation = {
    description:
      "The site's page for the outcome (`core/site-pages.ts`): a fixed path, never anything the visitor typed.",
    required: true,
    schema: { type: 'string', enum: Object.values(formOutcomes).map((outcome) => outcome.path) },
  };
  for (const failure of failureStatuses) {
    for (const [name, header] of Object.entries(failure.headers ?? {})) {
      headers[headerName(name)] = {
        description: header.description,
        required: true,
        schema: { type: 'string', const: header.value },
      };
    }
  }
  return headers;
}

/** The document of the catalogue's routes and failures; a test may pass a copy of the catalogue. */
export function buildOpenApiDocument({ routes, failures }: DocumentSources = catalogue): OpenApiDocument {
  const jsonRoutes = jsonRoutesOf(routes);
  const failureStatuses = failureStatusesOf(jsonRoutes, failures);
  const formRoute = routes.find((route) => route.reply.kind === 'form');
  const formRefusalStatuses = formRoute ? formRefusalStatusesOf(failures) : [];
  const formMethodNotAllowed = formRefusalStatuses.find((status) => status.status === 405);
  const schemas: Record<string, JsonSchema> = {
    [schemaNames.request]: requestBodySchema(),
    ...(formRoute && { [schemaNames.form]: formBodySchema() }),
  };
  const responses: Record<string, OpenApiResponse> = {
    ...(formMethodNotAllowed &&
      formRoute && { FormMethodNotAllowed: formRefusalResponse(formMethodNotAllowed, formRoute) }),
  };
  for (const route of jsonRoutes) {
    schemas[route.schemaNames.success] = jsonSchemaOf(route.success.body, 'output');
    schemas[route.schemaNames.failure] = jsonSchemaOf(failureBodySchemaOf(route, failures), 'output');
    const methodNotAllowed = failureResponses(route, failureStatuses).find(([status]) => status === '405');
    if (methodNotAllowed) responses[methodNotAllowedResponseName(route)] = methodNotAllowed[1];
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Cheat-sheet API of the First 100 Days site',
      version: apiVersion,
      description: [
        `The JSON routes behind the site's cheat-sheet form (${jsonRoutes
          .map((route) => `\`${route.route.method} ${route.path}\``)
          .join(', ')}): those that take a body take the same JSON body, \`{name, email}\`,`,
        'and every one replies JSON that is never cached; every failure carries a sentence written for the visitor in `error`.',
        '',
        `One more route, \`${formRoute?.method} ${formRoute?.path}\`, is the form's own \`action\`: it takes the form as a browser posts it`,
        "when the page's script does not, runs both steps, and answers with a redirect to a page of the site.",
        ...routes
          .filter((route) => route.reply.kind === 'beacon')
          .map(
            (route) =>
              `\`${route.method} ${route.path}\` is the landing page's visit beacon: it answers a GIF, never JSON.`,
          ),
        '',
        'Generated from `core/api/` by `npm run openapi`; a test fails when this file and the code disagree.',
        '',
        "In front of the functions, API Gateway limits the whole API's rate (the stack's `apiRateLimit` and",
        '`apiBurstLimit`): above it, it answers `429` with its own body, `{"message": "Too Many Requests"}`, before',
        'any function runs. A function that crashes or runs out of time also gets its own `5xx` and `{"message": ...}`.',
      ].join('\n'),
    },
    servers: [
      {
        url: '/',
        description:
          "The site's own origin: CloudFront sends `/api/*` to the HTTP API. Locally, the address `npm start` prints.",
      },
    ],
    paths: {
      ...Object.fromEntries(jsonRoutes.map((route) => [route.path, pathItem(route, failureStatuses, failures)])),
      ...(formRoute && { [formRoute.path]: formPathItem(formRoute, formRefusalStatuses) }),
      ...Object.fromEntries(
        routes
          .filter((route) => route.reply.kind === 'beacon')
          .map((route) => [route.path, beaconPathItem(route, methodsAnsweredWith405(route))]),
      ),
    },
    components: { schemas, headers: fixedHeaders(failureStatuses), responses },
  };
}

/** The document as `docs/openapi.yaml` holds it. */
export function openApiYaml(document: OpenApiDocument = buildOpenApiDocument()): string {
  const header = '# Generated from core/api/ by `npm run openapi`: edit the code, not this file.\n';
  // No anchors and aliases: a reader (or a tool) sees every part where it is used.
  return header + stringify(document, { aliasDuplicateObjects: false, lineWidth: 120, blockQuote: 'literal' });
}
