import { createHash } from 'node:crypto';
import { addressDailyCapItemId } from '../../../core/data/address-hash';

test("the per-address cap's item id is the hex SHA-256 of the trimmed, lower-cased address, as Node computes it", () => {
  const expected = createHash('sha256').update('ada@example.com').digest('hex');
  expect(addressDailyCapItemId('  Ada@Example.COM ')).toBe(expected);
});

test('different addresses get different ids', () => {
  expect(addressDailyCapItemId('ada@example.com')).not.toBe(addressDailyCapItemId('grace@example.com'));
});
