/**
 * Who the client is, for the client and network caps (its client keys), from the request's client
 * origin (`ApiRequest.client`, read once at the handler): the address it connects from,
 * reduced to its network (IPv4 address, IPv6 /64) and to its wider network (IPv4 /24, IPv6 /48),
 * each keyed-hashed, so no address is ever stored (docs/abuse.md).
 *
 * - `source-ip` (the local twin): API Gateway's `requestContext.http.sourceIp`, the TCP peer,
 *   which no header can change.
 * - `cloudfront-viewer-address` (the cloud): the API's TCP peer is a CloudFront edge server, so
 *   the viewer's address comes from the `CloudFront-Viewer-Address` header that CloudFront sets.
 *   A caller of the execute-api address could send that header itself, so it is trusted only on
 *   a request that also carries the origin secret, which CloudFront adds and no visitor knows;
 *   any other request is refused (an `untrustedOrigin` ProductError, 403).
 *
 * `X-Forwarded-For`, `X-Real-IP` and `Forwarded` are never read: any client can write them.
 */

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { viewerAddressHeader } from '../../core/config/edge-headers';
import type { ClientAddressSettings } from '../runtime/config';
import { ProductError } from '../runtime/errors';
import type { ClientOrigin } from '../http/http-request';

/**
 * The network an address stands for: an IPv4 address itself; an IPv6 address its /64, the block
 * one household or server is given, since a client may use any of its 2^64 addresses. An
 * IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, as a dual-stack socket reports IPv4 peers) is
 * its IPv4 address. Undefined for anything that is not an IP address.
 */
export function clientNetwork(address: string): string | undefined {
  if (isIP(address) === 0) return undefined;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = new ipaddr.IPv6([...(parsed as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0]);
  return `${network.toString()}/64`;
}

/**
 * The wider network an address belongs to, for the per-network limit above the per-client one:
 * an IPv4 /24, an IPv6 /48. A /24 is the smallest block routed between networks on the
 * Internet, so one operator's neighbouring addresses share it; a /48 is what RIPE and ARIN
 * advise giving one site, and what tunnel brokers hand out for free. An attacker rotating
 * addresses inside either stays inside one network. An IPv4-mapped IPv6 address counts as its
 * IPv4 address. Undefined for anything that is not an IP address.
 */
export function sharedNetwork(address: string): string | undefined {
  if (isIP(address) === 0) return undefined;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') {
    const [a, b, c] = (parsed as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0/24`;
  }
  const network = new ipaddr.IPv6([...(parsed as ipaddr.IPv6).parts.slice(0, 3), 0, 0, 0, 0, 0]);
  return `${network.toString()}/48`;
}

/**
 * The IP address of a `CloudFront-Viewer-Address` value, `IP:port`: `198.51.100.10:46532`, or
 * IPv6 without brackets, `2001:db8::1:46532` (a bracketed form is accepted too). Undefined for
 * anything else, two values joined by a comma included.
 */
export function viewerIpOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const bracketed = /^\[([^\]]+)\]:\d{1,5}$/.exec(text);
  let address: string;
  if (bracketed) {
    address = bracketed[1]!;
  } else {
    const colon = text.lastIndexOf(':');
    if (colon <= 0 || !/^\d{1,5}$/.test(text.slice(colon + 1))) return undefined;
    address = text.slice(0, colon);
  }
  return isIP(address) === 0 ? undefined : address;
}

/** Compares digests, so the comparison takes the same time whatever the header holds. */
export function originSecretMatches(received: string | undefined, secret: string): boolean {
  if (received === undefined || secret === '') return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(received), digest(secret));
}

/**
 * The key the client keys are hashed under, derived from the origin secret (its own purpose
 * string, so the key is not the value CloudFront sends).
 */
export function hashKeyFromOriginSecret(secret: string): string {
  return createHmac('sha256', secret).update('cheat-sheet client counters').digest('hex');
}

/** HMAC-SHA-256 of the network: without the key, no one can match it to an address, even by trying every IPv4 one. */
export function hashNetwork(network: string, key: string): string {
  return createHmac('sha256', key).update(network).digest('hex');
}

/** Which source of the client's address is trusted, and the secret that proves CloudFront sent it. */
export type ClientTrust =
  | { readonly source: 'source-ip' }
  | { readonly source: 'cloudfront-viewer-address'; readonly originSecret: string };

/** The client's IP address, from the trusted source only. */
function clientIpOf(client: ClientOrigin, trust: ClientTrust): string {
  if (trust.source === 'source-ip') {
    const ip = client.sourceIp ?? '';
    if (isIP(ip) === 0) throw new ProductError('misconfigured', 'The request has no usable source IP address');
    return ip;
  }
  if (!originSecretMatches(client.originSecret, trust.originSecret)) {
    throw new ProductError('untrustedOrigin', 'The request did not come through the CloudFront distribution');
  }
  // CloudFront sets this header on every request it forwards (infra/constructs/site.ts).
  const ip = viewerIpOf(client.viewerAddress);
  if (ip === undefined)
    throw new ProductError('misconfigured', `CloudFront forwarded no usable ${viewerAddressHeader} header`);
  return ip;
}

/** The client (its IPv4 address or IPv6 /64) and its wider network (IPv4 /24, IPv6 /48), from the trusted source only. */
export function clientNetworksOf(
  client: ClientOrigin,
  trust: ClientTrust,
): { readonly client: string; readonly network: string } {
  // clientIpOf returned an IP address, so both reductions are defined.
  const ip = clientIpOf(client, trust);
  return { client: clientNetwork(ip)!, network: sharedNetwork(ip)! };
}

/** What the client and network caps count under: keyed hashes, never an address. */
export interface ClientKeys {
  /** Of the client: its IPv4 address or IPv6 /64. */
  readonly client: string;
  /** Of its wider network: the IPv4 /24 or IPv6 /48 (the text hashed ends in `/24` or `/48`, so it never equals a client's). */
  readonly network: string;
}

/**
 * The client keys: the keyed hashes of the client's network and of its wider network, from the
 * request's client origin. `loadOriginSecret` is called behind CloudFront only.
 */
export async function clientKeysOf(
  client: ClientOrigin,
  settings: ClientAddressSettings,
  loadOriginSecret: (arn: string) => Promise<string>,
): Promise<ClientKeys> {
  let networks: { readonly client: string; readonly network: string };
  let key: string;
  if (settings.source === 'source-ip') {
    networks = clientNetworksOf(client, { source: 'source-ip' });
    key = settings.key;
  } else {
    const originSecret = await loadOriginSecret(settings.originSecretArn);
    networks = clientNetworksOf(client, { source: 'cloudfront-viewer-address', originSecret });
    key = hashKeyFromOriginSecret(originSecret);
  }
  return { client: hashNetwork(networks.client, key), network: hashNetwork(networks.network, key) };
}

/**
 * The client's network (IPv4 address, IPv6 /64) from the trusted source alone, for a hash that
 * lives a day (the funnel's unique visitors). `loadOriginSecret` is called behind CloudFront only.
 */
export async function trustedClientNetworkOf(
  client: ClientOrigin,
  settings: ClientAddressSettings,
  loadOriginSecret: (arn: string) => Promise<string>,
): Promise<string> {
  const trust: ClientTrust =
    settings.source === 'source-ip'
      ? { source: 'source-ip' }
      : { source: 'cloudfront-viewer-address', originSecret: await loadOriginSecret(settings.originSecretArn) };
  return clientNetworksOf(client, trust).client;
}
