/**
 * Builds the API's OpenAPI 3.1 description (`docs/openapi.yaml`, written by `npm run openapi`)
 * from what the functions really use: the catalogue's routes and failure kinds
 * (`core/api/catalogue/`), the request schema and its limits (request-schema.ts,
 * request-limits.ts) and the replies built from them (replies.ts, form-replies.ts). Pure: the
 * document is a plain object; the entry point turns it into YAML.
 */

import { stringify } from 'yaml';

import { formOutcomes, formRefusalStatusesOf } from '../../core/api/form-replies';
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
import { formBodySchema, formPathItem, formRefusalResponse } from './openapi-form';
import {
  allowHeader,
  alwaysHeaders,
  headerName,
  methodsAnsweredWith405,
  operationKey,
  ref,
  refusedOperations,
  schemaNames,
  takesABody,
} from './openapi-operations';
import { jsonSchemaOf, requestBodySchema, requestExample } from './openapi-request-schema';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiResponse,
} from './openapi-types';

export type * from './openapi-types';
export { methodsAnsweredWith405 } from './openapi-operations';

/** Where the document is committed, from the repository's root. */
export const openApiFile = 'docs/openapi.yaml';

/** The version of the API's contract: raise it when a route, a field or a reply shape changes. */
export const apiVersion = '1.0.0';

/** What the document is built from: the catalogue, unless a test passes a copy of it. */
export interface DocumentSources {
  readonly routes: readonly ProductRoute<string>[];
  readonly failures: FailureCatalogue;
}

const catalogue: DocumentSources = { routes: productRouteList, failures: failureKinds };

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
