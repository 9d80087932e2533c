/** The form route's two kinds of reply, neither ever cached: a 303 to a result page, or a 4xx page. */

import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { buildFormRefusalPage } from '../../core/documents/form-refusal-page';

/** `303 See Other`: the browser follows it with a GET, so reloading the result page posts nothing again. */
export function redirectTo(path: string): APIGatewayProxyStructuredResultV2 {
  return { statusCode: 303, headers: { Location: path, 'Cache-Control': 'no-store' }, body: '' };
}

export function refusalPage(statusCode: number, reason: string): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      // The route takes POST alone (RFC 9110: a 405 names what is allowed).
      ...(statusCode === 405 ? { Allow: 'POST' } : {}),
    },
    body: buildFormRefusalPage(reason),
  };
}
