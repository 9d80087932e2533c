import { normalizedAddress, sameMailbox } from '../../../core/data/address-normalization';

describe('normalizedAddress', () => {
  test('lower-cases and trims the address', () => {
    expect(normalizedAddress('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
  });

  test('drops the +tag of the local part', () => {
    expect(normalizedAddress('v+1@example.com')).toBe('v@example.com');
    expect(normalizedAddress('v+news+2@example.com')).toBe('v@example.com');
  });

  test('keeps the dots of the local part outside Gmail, where they tell two mailboxes apart', () => {
    expect(normalizedAddress('j.smith@example.com')).toBe('j.smith@example.com');
  });

  test('ignores the dots of the local part at gmail.com', () => {
    expect(normalizedAddress('A.d.A.Lovelace@gmail.com')).toBe('adalovelace@gmail.com');
  });

  test('reads googlemail.com as gmail.com, dots and tag ignored', () => {
    expect(normalizedAddress('ada.lovelace+x@googlemail.com')).toBe('adalovelace@gmail.com');
  });

  test('keeps a local part that is only a +tag whole, rather than fold it into nothing', () => {
    expect(normalizedAddress('+promo@example.com')).toBe('+promo@example.com');
  });

  test('splits at the last @, as the domain never holds one', () => {
    expect(normalizedAddress('"a@b"+x@example.com')).toBe('"a@b"@example.com');
  });

  test('only trims and lower-cases what has no @', () => {
    expect(normalizedAddress(' Not-An-Address ')).toBe('not-an-address');
  });
});

describe('sameMailbox', () => {
  test('holds for +tag and gmail-dot variants of one mailbox', () => {
    expect(sameMailbox('v@example.com', 'V+4@example.com')).toBe(true);
    expect(sameMailbox('ada.lovelace@gmail.com', 'adalovelace+news@googlemail.com')).toBe(true);
  });

  test('does not hold for two mailboxes of one domain', () => {
    expect(sameMailbox('v@example.com', 'w@example.com')).toBe(false);
    expect(sameMailbox('j.smith@example.com', 'jsmith@example.com')).toBe(false);
  });
});
