/**
 * The Cache-Control of every file of the built site: set by the site deployment in the cloud
 * (infra/constructs/site.ts, as S3 object metadata that CloudFront passes on) and by the local
 * server (local/static-site.ts), so the two never drift. Plain data: no CDK import.
 */

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
