import { createHash, createHmac } from 'node:crypto';
import {
  addressDailyCapItemId,
  addressHash,
  addressHashKeyFrom,
  legacyAddressHash,
} from '../../../core/data/address-hash';

const key = addressHashKeyFrom('the deployment secret');

test("an address's hash is the hex HMAC-SHA-256 of the trimmed, lower-cased address under a key derived from the secret, as Node computes it", () => {
  const derived = createHmac('sha256', 'the deployment secret').update('cheat-sheet address hashes').digest();
  const expected = createHmac('sha256', derived).update('ada@example.com').digest('hex');

  expect(addressHash('  Ada@Example.COM ', key)).toBe(expected);
  expect(addressDailyCapItemId('ada@example.com', key)).toBe(expected);
});

test('is not the plain SHA-256 anyone holding the address could compute', () => {
  expect(addressHash('ada@example.com', key)).not.toBe(createHash('sha256').update('ada@example.com').digest('hex'));
});

test('another secret gives another hash, and the key is not the secret used directly', () => {
  expect(addressHash('ada@example.com', addressHashKeyFrom('another secret'))).not.toBe(
    addressHash('ada@example.com', key),
  );
  expect(addressHash('ada@example.com', key)).not.toBe(
    createHmac('sha256', 'the deployment secret').update('ada@example.com').digest('hex'),
  );
});

test('different addresses get different ids', () => {
  expect(addressDailyCapItemId('ada@example.com', key)).not.toBe(addressDailyCapItemId('grace@example.com', key));
});

test('an empty secret is refused: it would key nothing', () => {
  expect(() => addressHashKeyFrom('')).toThrow(/empty/);
});

test('the legacy id is the plain SHA-256 of the trimmed, lower-cased address (read and erased, never written)', () => {
  expect(legacyAddressHash(' Ada@Example.com')).toBe(createHash('sha256').update('ada@example.com').digest('hex'));
});
