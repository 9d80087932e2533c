/**
 * Reads the cheat-sheet PDF from S3 once per container: the first invocation downloads it, later
 * ones reuse the bytes. A failed read is not cached, so the next invocation tries again.
 */

import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { ProductError } from '../runtime/errors';

const cache = new Map<string, Promise<Uint8Array>>();

async function download(s3: S3Client, bucket: string, key: string): Promise<Uint8Array> {
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (!object.Body) throw new Error('S3 returned no body');
    return await object.Body.transformToByteArray();
  } catch (error) {
    throw new ProductError('cheatSheetUnavailable', `Could not read s3://${bucket}/${key}`, { cause: error });
  }
}

export function loadCheatSheetPdf(s3: S3Client, bucket: string, key: string): Promise<Uint8Array> {
  const cacheKey = `${bucket}/${key}`;
  let pdf = cache.get(cacheKey);
  if (!pdf) {
    pdf = download(s3, bucket, key);
    cache.set(cacheKey, pdf);
    pdf.catch(() => cache.delete(cacheKey));
  }
  return pdf;
}
