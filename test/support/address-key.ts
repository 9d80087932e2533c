/** The key the local stack's handlers hash addresses under, as they derive it from the run's `CLIENT_ADDRESS_KEY`. */

import { addressDailyCapItemId, addressHashKeyFrom, type AddressHashKey } from '../../core/data/address-hash';

/** Call after the local stack started: it sets (or keeps) `CLIENT_ADDRESS_KEY`. */
export function localAddressKey(): AddressHashKey {
  const secret = process.env.CLIENT_ADDRESS_KEY;
  if (!secret) throw new Error('CLIENT_ADDRESS_KEY is not set: start the local stack first');
  return addressHashKeyFrom(secret);
}

/** The daily cap's item id of `email` in the running local stack. */
export const localDailyCapId = (email: string) => addressDailyCapItemId(email, localAddressKey());
