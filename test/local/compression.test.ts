import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressed, type CompressibleResponse } from '../../local/compression';

const page = (body: string, contentType = 'text/html; charset=utf-8'): CompressibleResponse => ({
  statusCode: 200,
  headers: { 'Content-Type': contentType },
  body: Buffer.from(body),
});
const largeHtml = `<p>${'The MPC Framework. '.repeat(200)}</p>`;

describe('compressing site responses', () => {
  test('prefers Brotli when the client accepts it', () => {
    const result = compressed(page(largeHtml), 'gzip, deflate, br');
    expect(result.headers['Content-Encoding']).toBe('br');
    expect(brotliDecompressSync(result.body).toString()).toBe(largeHtml);
    expect(result.body.length).toBeLessThan(largeHtml.length / 4);
  });

  test('falls back to gzip', () => {
    const result = compressed(page(largeHtml), 'gzip');
    expect(result.headers['Content-Encoding']).toBe('gzip');
    expect(gunzipSync(result.body).toString()).toBe(largeHtml);
  });

  test('sends the file as it is to a client that accepts no compression', () => {
    const result = compressed(page(largeHtml), undefined);
    expect(result.headers['Content-Encoding']).toBeUndefined();
    expect(result.body.toString()).toBe(largeHtml);
  });

  test('respects an encoding refused with q=0', () => {
    expect(compressed(page(largeHtml), 'br;q=0, gzip').headers['Content-Encoding']).toBe('gzip');
  });

  test('leaves files under 1 KB and images alone, as CloudFront does', () => {
    expect(compressed(page('<p>small</p>'), 'br').headers['Content-Encoding']).toBeUndefined();
    expect(compressed(page(largeHtml, 'image/png'), 'br').headers['Content-Encoding']).toBeUndefined();
  });

  test('always tells caches that the body varies by Accept-Encoding', () => {
    expect(compressed(page('<p>small</p>'), undefined).headers.Vary).toBe('Accept-Encoding');
  });
});
