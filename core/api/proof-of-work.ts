/**
 * The proof of work the page's form solves before a send (ALTCHA's scheme, `altcha-lib`): what the
 * page and the functions share. The functions issue a challenge signed with the deployment's
 * secret; the page finds the counter whose SHA-256 key has the challenge's prefix and sends the
 * solution with the send, in the `proofOfWorkHeader`; the send function checks the signature, the
 * key and the expiry, and spends the challenge (one use).
 */

/** Where the page fetches a challenge (`GET`, JSON: the challenge's parameters and signature). */
export const proofOfWorkChallengePath = '/api/cheat-sheet-challenge';

/** The request header that carries the solved challenge: base64 of ALTCHA's JSON payload. */
export const proofOfWorkHeader = 'X-Cheat-Sheet-Proof';

/** The key derivation the page repeats: one SHA-256 a counter, which every browser's Web Crypto has. */
export const proofOfWorkAlgorithm = 'SHA-256';

/**
 * The largest counter a challenge hides, the work's upper bound: the page tries counters from 0
 * until it finds it, so it hashes at most this many times and half as many on average. Measured
 * in Chromium with the CPU slowed 4× (`Emulation.setCPUThrottlingRate`, the usual stand-in for
 * a mid-range phone): 10,000 hashes took 260 to 440 ms warm and 950 ms on a cold page, so the
 * worst case stays under a second (docs/abuse.md, 'The proof of work').
 */
export const proofOfWorkMaxCounter = 10_000;

/** How long a challenge may be solved and sent: time to fill in the form after fetching it, not a day's stock. */
export const proofOfWorkLifetimeSeconds = 10 * 60;
