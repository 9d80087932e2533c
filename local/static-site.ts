/**
 * Serves the built site the way CloudFront serves it from S3: `/` is the pre-rendered
 * index.html, every other page of `core/site-pages.ts` its own file (as the distribution's
 * CloudFront Function maps it), files are served as they are, and any path that is not a file
 * gets 404.html with status 404. Cache headers are the cloud's (core/config/edge-headers.ts): hashed files under /assets/
 * never change, everything else is revalidated.
 */

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { cacheControlFor, pagesCacheControl } from '../core/config/edge-headers';
import { notFoundFile, sitePageAt } from '../core/site-pages';

export interface StaticResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
};

export function contentTypeFor(filePath: string): string {
  return contentTypes[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file a URL path names inside `siteDir`, or null. Null for anything that could leave the
 * directory or reach a hidden file: '..' or '.' segments (also percent-encoded), backslashes, NUL.
 */
export function resolveSitePath(siteDir: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment.startsWith('.'))) return null;
  if (segments.length === 0) segments.push('index.html');
  const root = path.resolve(siteDir);
  const filePath = path.join(root, ...segments);
  return filePath.startsWith(root + path.sep) ? filePath : null;
}

async function readFileIfExists(filePath: string): Promise<Buffer | null> {
  try {
    if (!(await stat(filePath)).isFile()) return null;
    return await readFile(filePath);
  } catch {
    return null;
  }
}

/** The response to a GET or HEAD of `url` (HEAD's body is dropped by the caller). */
export async function staticSiteResponse(siteDir: string, url: string): Promise<StaticResponse> {
  const urlPath = url.split('?')[0].split('#')[0];
  const page = sitePageAt(urlPath);
  const filePath = resolveSitePath(siteDir, page ? `/${page.file}` : urlPath);
  const body = filePath ? await readFileIfExists(filePath) : null;
  if (filePath && body) {
    // The object key S3 would have: the path inside the site, with forward slashes.
    const key = path.relative(path.resolve(siteDir), filePath).split(path.sep).join('/');
    return {
      statusCode: 200,
      headers: { 'Content-Type': contentTypeFor(filePath), 'Cache-Control': cacheControlFor(key) },
      body,
    };
  }
  return notFoundResponse(siteDir);
}

/**
 * The not-found page with status 404, as CloudFront's error response gives it for any path the
 * bucket or the API does not have: 404.html, or a plain note when the site is not built (or
 * not served, as under `npm run dev`).
 */
export async function notFoundResponse(siteDir: string | null): Promise<StaticResponse> {
  const notFoundPage = siteDir === null ? null : await readFileIfExists(path.join(siteDir, notFoundFile));
  return {
    statusCode: 404,
    headers: {
      'Content-Type': notFoundPage ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
      'Cache-Control': pagesCacheControl,
    },
    body:
      notFoundPage ??
      Buffer.from(
        siteDir === null ? '404 Not Found\n' : '404 Not Found: the site is not built yet (run npm run build).\n',
      ),
  };
}
