import '@testing-library/jest-dom';
import { webcrypto } from 'node:crypto';

// jsdom's crypto has no SubtleCrypto, which every browser the page targets has (the proof of
// work's SHA-256): Node's own stands in for it.
if (globalThis.crypto && !globalThis.crypto.subtle) {
  Object.defineProperty(globalThis.crypto, 'subtle', { value: webcrypto.subtle, configurable: true });
}
