/**
 * The OpenAPI path of a beacon route (a catalogue entry whose reply is `beacon`: the landing page's
 * visit counter): its method answers a 1×1 GIF, never cached, whatever happened; every other
 * method the same GIF with 405 and `Allow`.
 */

import type { ProductRoute } from '../../core/api/catalogue/routes';
import type { OpenApiOperation, OpenApiResponse } from './openapi-types';

const gifContent = {
  'image/gif': { schema: { type: 'string', contentMediaType: 'image/gif', contentEncoding: 'binary' } },
};

const noStore = {
  'Cache-Control': {
    description: 'Never cached: every page view asks again, so every visit counts.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
};

function gifResponse(description: string, allow?: string): OpenApiResponse {
  return {
    description,
    headers: {
      ...noStore,
      ...(allow !== undefined && {
        Allow: {
          description: 'The one method the route takes.',
          required: true,
          schema: { type: 'string', const: allow },
        },
      }),
    },
    content: gifContent,
  };
}

/** The path item of a beacon route: its own method, and every other one answered 405. */
export function beaconPathItem(
  route: Pick<ProductRoute<string>, 'method' | 'openApi'>,
  methodsAnsweredWith405: readonly string[],
): Record<string, OpenApiOperation> {
  const { operationId, summary, description } = route.openApi;
  return {
    [route.method.toLowerCase()]: {
      operationId,
      summary,
      description,
      responses: {
        '200': gifResponse(
          'A 1×1 transparent GIF, whether or not the visit was counted (a known bot, a failure: the page shows nothing).',
        ),
      },
    },
    ...Object.fromEntries(
      methodsAnsweredWith405.map((method) => [
        method,
        {
          operationId: `${operationId}${method.charAt(0).toUpperCase()}${method.slice(1)}`,
          summary: `${method.toUpperCase()}: not allowed`,
          description: `The route takes ${route.method} only; every other method is answered 405, with the same GIF.`,
          responses: { '405': gifResponse('Not allowed: the same GIF, and nothing counted.', route.method) },
        } satisfies OpenApiOperation,
      ]),
    ),
  };
}
