/**
 * The headers at the edge, written once: the two that carry the visitor's address from CloudFront
 * to the API (the CDK stack makes CloudFront send them, the send function reads them; lower case,
 * as API Gateway passes them to a function), the security headers every page and asset is served
 * with, and the Cache-Control of every built file. CloudFront sets the last two in the cloud
 * (infra/constructs/site.ts) and the local server (local/) in the twin, so the two never drift.
 * Plain data: no CDK import.
 */

/** Added by CloudFront (origin request policy): the viewer's `IP:port` as CloudFront saw it. */
export const viewerAddressHeader = 'cloudfront-viewer-address';

/**
 * An origin custom header holding a secret generated at deployment: a request carrying it came
 * through this stack's distribution, so its viewer address was set by CloudFront. (CloudFront
 * refuses custom header names beginning with `X-Amz-` or `X-Edge-`.)
 */
export const originSecretHeader = 'x-origin-secret';

// The security headers: CloudFront's response headers policy, and the local server's.

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

// The Cache-Control of every file of the built site: S3 object metadata that CloudFront passes on.

/** Vite's output folder for files whose names carry a content hash. */
export const hashedAssetsPrefix = 'assets/';

/** Hashed file names change with their content, so browsers may keep them for a year. */
export const hashedAssetsCacheControl = 'public, max-age=31536000, immutable';

/** Everything else (the pages, 404.html, images, robots.txt) is revalidated on every visit. */
export const pagesCacheControl = 'no-cache';

/** The Cache-Control of the built file at `key`, a path relative to the site root (`assets/x.js`). */
export function cacheControlFor(key: string): string {
  return key.replace(/^\/+/, '').startsWith(hashedAssetsPrefix) ? hashedAssetsCacheControl : pagesCacheControl;
}
