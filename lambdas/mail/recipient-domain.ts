/**
 * Does the recipient's domain take mail at all? Asked before any limit is claimed, so a made-up
 * address neither uses a slot nor becomes a bounce that counts against the sender's reputation
 * (SES reviews an account at about 5% bounces).
 *
 * - MX records: the domain takes mail, unless they are a null MX (RFC 7505: `0 .`, "this domain
 *   accepts no mail"). An MX set whose every exchange is the root is read the same way, whatever
 *   its preference: no mail can be delivered to the root.
 * - No MX records (NODATA): RFC 5321 §5.1 falls back to the domain's own address, so an A or an
 *   AAAA record means it takes mail; neither means it does not.
 * - No such domain (NXDOMAIN): it does not.
 * - A name DNS cannot hold (a label over 63 characters, a name over 253, an empty label): no
 *   domain can have it, so it takes no mail. The resolver (c-ares) answers `EBADNAME` without
 *   asking any server: that proves the name cannot exist, so it is refused, never failed open.
 * - Anything else (a server failure, a refused or lost query) or no answer within 1.5 s: unknown,
 *   and the caller lets the send go on (fail open) and counts it. A broken resolver must not
 *   stop every reader; the per-address, per-client and budget limits still hold.
 *
 * Answers are cached in the container: definite ones for 5 minutes (a domain's mail set-up does
 * not change by the minute, and one container serves a burst of requests), an unknown one for
 * 30 s (long enough that an outage does not add 1.5 s to every request, short enough to recover
 * soon). At most 1,000 domains are kept, oldest dropped first, so a script spraying made-up
 * domains cannot grow the container's memory. Knows nothing of HTTP.
 */

import { Resolver } from 'node:dns/promises';
import { domainToASCII } from 'node:url';
import { ProductError } from '../runtime/errors';

export type RecipientDomainResult =
  | { readonly verdict: 'accepts'; readonly by: 'mx' | 'address' }
  | { readonly verdict: 'refuses'; readonly reason: 'null-mx' | 'no-such-domain' | 'no-mail-host' | 'bad-name' }
  | { readonly verdict: 'unknown'; readonly reason: 'timeout' | 'lookup-failed'; readonly code?: string };

export interface RecipientDomainCheckOptions {
  /** DNS servers, `host:port` (or a bare IP, port 53). @default the system's */
  readonly servers?: readonly string[];
  /** The whole check's budget, every lookup included. @default 1500 */
  readonly timeoutMs?: number;
  /** How long a definite answer is kept. @default 300000 (5 minutes) */
  readonly cacheMs?: number;
  /** How long an unknown answer is kept. @default 30000 */
  readonly unknownCacheMs?: number;
  /** @default 1000 */
  readonly maxCachedDomains?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

/** The check's budget: a second and a half is the most a reader should wait for it. */
export const recipientDomainTimeoutMs = 1_500;

/** `DNS_SERVERS`: comma-separated `host:port`; empty or unset means the system's servers. */
export function dnsServersFrom(value: string | undefined): string[] | undefined {
  const servers = (value ?? '')
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
  return servers.length === 0 ? undefined : servers;
}

interface CacheEntry {
  readonly result: RecipientDomainResult;
  readonly expiresAt: number;
}

const codeOf = (error: unknown): string | undefined =>
  typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined;

/** DNS answers that mean "nothing of this type here", as opposed to "could not find out". */
const noRecords = new Set(['ENODATA', 'ENOTFOUND']);

/** c-ares's answer for a name no DNS query can carry (RFC 1035's limits): the name cannot exist. */
const nameCannotExist = new Set(['EBADNAME']);

const isRoot = (exchange: string) => exchange === '' || exchange === '.';

class LookupTimedOut extends Error {}

export type RecipientDomainCheck = (domain: string) => Promise<RecipientDomainResult>;

export function createRecipientDomainCheck(options: RecipientDomainCheckOptions = {}): RecipientDomainCheck {
  const {
    servers,
    timeoutMs = recipientDomainTimeoutMs,
    cacheMs = 5 * 60_000,
    unknownCacheMs = 30_000,
    maxCachedDomains = 1_000,
    now = Date.now,
  } = options;
  const cache = new Map<string, CacheEntry>();

  return async (domain: string) => {
    const name = domainToASCII(domain.trim().toLowerCase().replace(/\.$/, ''));
    // Not a domain name DNS could hold (domainToASCII gives '' for those): nothing can take mail there.
    if (name === '') return { verdict: 'refuses', reason: 'no-such-domain' };

    const cached = cache.get(name);
    if (cached !== undefined && cached.expiresAt > now()) return cached.result;
    cache.delete(name);

    const result = await lookUp(name, servers, timeoutMs);
    if (cache.size >= maxCachedDomains) cache.delete(cache.keys().next().value!);
    cache.set(name, { result, expiresAt: now() + (result.verdict === 'unknown' ? unknownCacheMs : cacheMs) });
    return result;
  };
}

async function lookUp(
  name: string,
  servers: readonly string[] | undefined,
  timeoutMs: number,
): Promise<RecipientDomainResult> {
  // A resolver per check: cancelling it at the deadline stops this check's queries only.
  // c-ares retries a lost UDP question after `timeout` ms; the deadline below bounds the whole.
  const resolver = new Resolver({ timeout: Math.ceil(timeoutMs / 3), tries: 3 });
  if (servers !== undefined) {
    try {
      resolver.setServers([...servers]);
    } catch (error) {
      throw new ProductError(
        'misconfigured',
        `DNS_SERVERS must be comma-separated host:port values (${String(error)})`,
      );
    }
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(new LookupTimedOut());
    }, timeoutMs);
  });
  try {
    return await Promise.race([verdictOf(resolver, name), deadline]);
  } catch (error) {
    if (error instanceof LookupTimedOut) return { verdict: 'unknown', reason: 'timeout' };
    const code = codeOf(error);
    // A query cancelled at the deadline may reject before the deadline's own rejection lands.
    if (code === 'ECANCELLED') return { verdict: 'unknown', reason: 'timeout' };
    if (code !== undefined && nameCannotExist.has(code)) return { verdict: 'refuses', reason: 'bad-name' };
    return { verdict: 'unknown', reason: 'lookup-failed', ...(code === undefined ? {} : { code }) };
  } finally {
    clearTimeout(timer);
  }
}

async function verdictOf(resolver: Resolver, name: string): Promise<RecipientDomainResult> {
  let exchanges: { exchange: string; priority: number }[];
  try {
    exchanges = await resolver.resolveMx(name);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOTFOUND') return { verdict: 'refuses', reason: 'no-such-domain' };
    if (code !== 'ENODATA') throw error;
    exchanges = [];
  }
  if (exchanges.length > 0) {
    return exchanges.every(({ exchange }) => isRoot(exchange))
      ? { verdict: 'refuses', reason: 'null-mx' }
      : { verdict: 'accepts', by: 'mx' };
  }

  // No MX: the implicit MX of RFC 5321 §5.1, the domain's own address (IPv4 or IPv6).
  const addresses = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
  if (addresses.some((lookup) => lookup.status === 'fulfilled' && lookup.value.length > 0)) {
    return { verdict: 'accepts', by: 'address' };
  }
  const failure = addresses.find(
    (lookup): lookup is PromiseRejectedResult =>
      lookup.status === 'rejected' && !noRecords.has(codeOf(lookup.reason) ?? ''),
  );
  if (failure !== undefined) throw failure.reason;
  return { verdict: 'refuses', reason: 'no-mail-host' };
}

let containerCheck: RecipientDomainCheck | undefined;

/**
 * The container's check: servers from `DNS_SERVERS` (read once, on first use), its cache shared
 * by every invocation the container serves.
 */
export function checkRecipientDomain(domain: string): Promise<RecipientDomainResult> {
  containerCheck ??= createRecipientDomainCheck({ servers: dnsServersFrom(process.env.DNS_SERVERS) });
  return containerCheck(domain);
}
