/**
 * Compresses site responses as CloudFront does for the site's behaviour (`compress: true`):
 * Brotli or gzip, by the client's Accept-Encoding, for text types of 1 KB to 10 MB.
 */

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface CompressibleResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

const compressibleType = /^(text\/|application\/(json|javascript|manifest\+json|xml)|image\/svg\+xml)/;
const minBytes = 1024;
const maxBytes = 10 * 1024 * 1024;

function preferredEncoding(acceptEncoding: string): 'br' | 'gzip' | null {
  const accepted = acceptEncoding
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, quality]) => quality === undefined || !/q=0(\.0*)?$/.test(quality.trim()))
    .map(([coding]) => coding.toLowerCase());
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return null;
}

export function compressed<T extends CompressibleResponse>(response: T, acceptEncoding: string | undefined): T {
  const contentType = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const size = response.body.length;
  const withVary = { ...response, headers: { ...response.headers, Vary: 'Accept-Encoding' } };
  if (!contentType || !compressibleType.test(contentType) || size < minBytes || size > maxBytes) return withVary;
  const encoding = preferredEncoding(acceptEncoding ?? '');
  if (encoding === null) return withVary;
  const body =
    encoding === 'br'
      ? brotliCompressSync(response.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
      : gzipSync(response.body, { level: 6 });
  return { ...withVary, headers: { ...withVary.headers, 'Content-Encoding': encoding }, body };
}
