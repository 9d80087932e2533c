/**
 * The code of the viewer-response CloudFront Function that sets the security headers
 * (core/config/edge-headers.ts) where a custom response headers policy is not allowed: on
 * CloudFront's flat-rate Free plan, which takes managed policies only (`-c pricingPlan=free`,
 * infra/constructs/site.ts). The same headers as the policy, overriding the origin's. Plain data
 * (no CDK import), so a test can run the very code CloudFront runs.
 */

import { securityHeaders } from '../core/config/edge-headers';

export function securityHeadersFunctionCode(headers: Readonly<Record<string, string>> = securityHeaders): string {
  // CloudFront Functions take header names in lower case.
  const values = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return [
    // cloudfront-js-2.0: kept to plain ES5.
    `var securityHeaders = ${JSON.stringify(values)};`,
    'function handler(event) {',
    '  var response = event.response;',
    '  for (var name in securityHeaders) response.headers[name] = { value: securityHeaders[name] };',
    '  return response;',
    '}',
    '',
  ].join('\n');
}
