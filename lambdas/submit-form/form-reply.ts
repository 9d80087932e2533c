/** The form route's two kinds of reply, neither ever cached: a 303 to a result page, or a 4xx page. */

import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { buildFormRefusalPage } from '../../core/documents/form-refusal-page';
import { allowHeaderOf, type RouteMethod } from '../http/http-reply';

/** `303 See Other`: the browser follows it with a GET, so reloading the result page posts nothing again. */
export function redirectTo(path: string): APIGatewayProxyStructuredResultV2 {
  return { statusCode: 303, headers: { Location: path, 'Cache-Control': 'no-store' }, body: '' };
}

export function refusalPage(statusCode: number, reason: string, route: RouteMethod): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      ...allowHeaderOf(statusCode, route),
    },
    body: buildFormRefusalPage(reason),
  };
}
