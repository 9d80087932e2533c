/**
 * The security headers every page and asset is served with: by CloudFront's response headers
 * policy in the cloud (infra/constructs/site.ts) and by the local server (local/), so the two
 * never drift. Plain data: no CDK import, so the local server can use it.
 */

/** Only the site's own origin: no inline script or style, no framing, no third parties. */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const strictTransportSecurity = {
  maxAgeSeconds: 63_072_000, // two years, the preload list's minimum is one
  includeSubdomains: true,
  preload: true,
} as const;

export const referrerPolicy = 'strict-origin-when-cross-origin';

export const permissionsPolicy = 'camera=(), microphone=(), geolocation=(), payment=()';

/** The same policy as plain HTTP header names and values. */
export const securityHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': contentSecurityPolicy,
  'Strict-Transport-Security': `max-age=${strictTransportSecurity.maxAgeSeconds}; includeSubDomains; preload`,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': referrerPolicy,
  'Permissions-Policy': permissionsPolicy,
};
