/** The cheat sheet's bytes from S3 (s3rver), read once per container. */

import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { loadCheatSheetPdf } from '../../../lambdas/mail/cheat-sheet-pdf';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';

let emulators: HandlerStack;
let s3: S3Client;

beforeAll(async () => {
  emulators = await startHandlerStack();
  s3 = new S3Client({
    endpoint: emulators.stack.endpoints.s3,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
});
afterAll(async () => {
  s3?.destroy();
  await emulators?.stop();
});

// The module keeps what it read per bucket and key: each test reads a key of its own.
let keyNumber = 0;
const newKey = () => `cheat-sheet-${++keyNumber}.pdf`;
const bytes = (text: string) => new TextEncoder().encode(text);
const put = (key: string, body: Uint8Array) =>
  s3.send(new PutObjectCommand({ Bucket: emulators.stack.bucket, Key: key, Body: body }));
const remove = (key: string) => s3.send(new DeleteObjectCommand({ Bucket: emulators.stack.bucket, Key: key }));

test("returns the object's bytes", async () => {
  const key = newKey();
  await put(key, bytes('%PDF-1.7 the cheat sheet'));

  expect(await loadCheatSheetPdf(s3, emulators.stack.bucket, key)).toEqual(bytes('%PDF-1.7 the cheat sheet'));
});

test('reads S3 once: a later call gets the same bytes though the object is gone', async () => {
  const key = newKey();
  await put(key, bytes('%PDF-1.7 first'));
  await loadCheatSheetPdf(s3, emulators.stack.bucket, key);
  await remove(key);

  expect(await loadCheatSheetPdf(s3, emulators.stack.bucket, key)).toEqual(bytes('%PDF-1.7 first'));
});

test('a missing object is cheatSheetUnavailable, and is not remembered: the next call reads S3 again', async () => {
  const key = newKey();

  await expect(loadCheatSheetPdf(s3, emulators.stack.bucket, key)).rejects.toMatchObject({
    kind: 'cheatSheetUnavailable',
  });
  await put(key, bytes('%PDF-1.7 deployed since'));
  expect(await loadCheatSheetPdf(s3, emulators.stack.bucket, key)).toEqual(bytes('%PDF-1.7 deployed since'));
});
