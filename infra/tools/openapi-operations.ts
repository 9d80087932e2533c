/**
 * What every path item of the OpenAPI document shares (openapi-document.ts, openapi-form.ts): the
 * methods it describes, the 405 operations of the others, the references into `components` and
 * the headers every reply carries.
 */

import type { ProductRoute } from '../../core/api/catalogue/routes';
import type { OpenApiHeader, OpenApiOperation, OpenApiReference } from './openapi-types';

/** The methods the document describes on each path: the route's own, and the others, answered 405. */
export const describedMethods = ['get', 'post', 'put', 'patch', 'delete', 'options'] as const;
export type DescribedMethod = (typeof describedMethods)[number];

/**
 * Every method but the route's own reaches its function (CloudFront passes them all) and gets
 * 405; HEAD too, without a body.
 */
export function methodsAnsweredWith405(route: Pick<ProductRoute<string>, 'method'>): readonly DescribedMethod[] {
  return describedMethods.filter((method) => method !== route.method.toLowerCase());
}

/** The route's own method, as an OpenAPI path item's key. */
export function operationKey(route: Pick<ProductRoute<string>, 'method'>): DescribedMethod {
  const key = route.method.toLowerCase() as DescribedMethod;
  if (!describedMethods.includes(key)) throw new Error(`No OpenAPI operation for ${route.method}`);
  return key;
}

/** A method whose request carries a body the route reads: the others' operations describe none. */
export function takesABody(route: Pick<ProductRoute<string>, 'method'>): boolean {
  return route.method !== 'GET' && route.method !== 'DELETE';
}

/** A 405's `Allow` header: the route's own method. */
export function allowHeader(route: Pick<ProductRoute<string>, 'method'>): OpenApiHeader {
  return {
    description: 'The only method the route takes.',
    required: true,
    schema: { type: 'string', const: route.method },
  };
}

/** The names the document gives the request's shapes, under `components`; each JSON route names its bodies in its entry. */
export const schemaNames = { request: 'CheatSheetRequest', form: 'CheatSheetForm' } as const;

export const ref = (section: 'schemas' | 'headers' | 'responses', name: string): OpenApiReference => ({
  $ref: `#/components/${section}/${name}`,
});

export const headerName = (header: string) => header.replaceAll('-', '');

export function alwaysHeaders(extra: readonly string[] = []): Record<string, OpenApiReference> {
  return Object.fromEntries(['Cache-Control', ...extra].map((header) => [header, ref('headers', headerName(header))]));
}

/** The operations of every method but the route's own: each answered 405 (its reply a shared response). */
export function refusedOperations(
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
