import { Duration } from 'aws-cdk-lib';
import {
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  type IOriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  ResponseHeadersPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import { proofOfWorkHeader } from '../../core/api/proof-of-work';
import { canaryMarkHeader } from '../../core/data/canary-mark';
import { securityHeadersFunctionCode } from '../security-headers-function';
import {
  contentSecurityPolicy,
  permissionsPolicy,
  referrerPolicy,
  securityHeaders,
  strictTransportSecurity,
} from '../security-headers';
import { cloudFrontNameLimits, regionalName } from './regional-name';

/**
 * What the distribution sets on responses and forwards to the API: the security headers (a
 * response headers policy, or on the flat-rate Free plan a CloudFront Function) and the API's
 * origin request policy. Built in the Site construct's scope, so their logical ids are the Site's.
 */

/** The paths CloudFront sends to the HTTP API instead of the bucket. */
export const apiPathPattern = '/api/*';

/**
 * The viewer headers the API receives, and the one CloudFront adds: `Content-Type` (the functions
 * refuse anything but JSON, or a form for the form route), `User-Agent` (for the API's access
 * logs), `Sec-Fetch-Site` (the form route refuses a form another site's page posted),
 * `Idempotency-Key` (the page's one key per submission, without which a retry after a lost reply
 * is a new request), the proof of work's header (`X-Cheat-Sheet-Proof`, core/api/proof-of-work.ts),
 * the canary's mark (`X-Canary-Mark`, core/data/canary-mark.ts: worthless unless its HMAC verifies)
 * and `CloudFront-Viewer-Address`, the viewer's `IP:port` as CloudFront saw the connection, which
 * CloudFront sets itself. Nothing else: a visitor's own `X-Forwarded-For`, `X-Real-IP`,
 * `Forwarded` or cookies never reach the functions. (Not Host: API Gateway needs its own.)
 */
export const apiOriginRequestHeaders = [
  'Content-Type',
  'User-Agent',
  'Sec-Fetch-Site',
  'Idempotency-Key',
  proofOfWorkHeader,
  canaryMarkHeader,
  'CloudFront-Viewer-Address',
] as const;

/** How the distribution sets the security headers: one of the two, by pricing plan. */
export interface SecurityHeadersSetting {
  /** Pay-as-you-go: a response headers policy. */
  readonly policy?: ResponseHeadersPolicy;
  /** The Free plan (managed policies only): a viewer-response CloudFront Function. */
  readonly function?: CloudFrontFunction;
}

/** The security headers of infra/security-headers.ts (which the local server uses too), on every response. */
export function securityHeadersSetting(scope: Construct, freePlan: boolean): SecurityHeadersSetting {
  if (freePlan) {
    return {
      function: new CloudFrontFunction(scope, 'SecurityHeadersFunction', {
        functionName: regionalName(scope, 'security-headers', cloudFrontNameLimits.function),
        comment:
          'Sets the security headers of infra/security-headers.ts on every response (the Free plan takes no custom headers policy).',
        code: FunctionCode.fromInline(securityHeadersFunctionCode()),
        runtime: FunctionRuntime.JS_2_0,
      }),
    };
  }
  return {
    policy: new ResponseHeadersPolicy(scope, 'SecurityHeaders', {
      responseHeadersPolicyName: regionalName(scope, 'security-headers', cloudFrontNameLimits.responseHeadersPolicy),
      comment: 'Security headers of infra/security-headers.ts, on every response.',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(strictTransportSecurity.maxAgeSeconds),
          includeSubdomains: strictTransportSecurity.includeSubdomains,
          preload: strictTransportSecurity.preload,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: {
          frameOption: enumMember(HeadersFrameOption, securityHeaders['X-Frame-Options']),
          override: true,
        },
        referrerPolicy: {
          referrerPolicy: enumMember(HeadersReferrerPolicy, referrerPolicy),
          override: true,
        },
      },
      customHeadersBehavior: {
        customHeaders: [{ header: 'Permissions-Policy', value: permissionsPolicy, override: true }],
      },
    }),
  };
}

/**
 * What `/api/*` requests carry to the API: apiOriginRequestHeaders, no query string, no cookie; on
 * the Free plan the managed AllViewerExceptHostHeader (the functions read only
 * CloudFront-Viewer-Address, which CloudFront sets itself, and the origin secret).
 */
export function apiOriginRequestPolicy(scope: Construct, freePlan: boolean): IOriginRequestPolicy {
  if (freePlan) return OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER;
  return new OriginRequestPolicy(scope, 'ApiOriginRequests', {
    originRequestPolicyName: regionalName(scope, 'api-origin-requests', cloudFrontNameLimits.originRequestPolicy),
    comment: 'The cheat-sheet API: Content-Type, User-Agent and the viewer address CloudFront saw.',
    headerBehavior: OriginRequestHeaderBehavior.allowList(...apiOriginRequestHeaders),
    queryStringBehavior: OriginRequestQueryStringBehavior.none(),
    cookieBehavior: OriginRequestCookieBehavior.none(),
  });
}

/** The enum member whose value is `value`, so a typo in security-headers.ts fails the synth. */
function enumMember<T extends Record<string, string>>(enumObject: T, value: string): T[keyof T] {
  const member = Object.values(enumObject).find((candidate) => candidate === value);
  if (member === undefined) {
    throw new Error(`"${value}" is not one of CloudFront's values: ${Object.values(enumObject).join(', ')}`);
  }
  return member as T[keyof T];
}
