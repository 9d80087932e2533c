/**
 * Who the client is, for the per-client limit: the address it connects from, reduced to its
 * network and keyed-hashed, so no address is ever stored (README, 'Limits and abuse').
 *
 * - `source-ip` (the local twin): API Gateway's `requestContext.http.sourceIp`, the TCP peer,
 *   which no header can change.
 * - `cloudfront-viewer-address` (the cloud): the API's TCP peer is a CloudFront edge server, so
 *   the viewer's address comes from the `CloudFront-Viewer-Address` header that CloudFront sets.
 *   A caller of the execute-api address could send that header itself, so it is trusted only on
 *   a request that also carries the origin secret, which CloudFront adds and no visitor knows;
 *   any other request is refused (UntrustedOriginError, 403).
 *
 * `X-Forwarded-For`, `X-Real-IP` and `Forwarded` are never read: any client can write them.
 */

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import ipaddr from 'ipaddr.js';
import { originSecretHeader, viewerAddressHeader } from '../../core/config/edge-headers';
import type { ClientAddressSettings } from './config';
import { ConfigurationError, UntrustedOriginError } from './errors';
import { headerValue } from './http-request';

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
 * The counters' key, derived from the origin secret (its own purpose string, so the key is not
 * the value CloudFront sends).
 */
export function counterKeyFromOriginSecret(secret: string): string {
  return createHmac('sha256', secret).update('cheat-sheet client counters').digest('hex');
}

/** HMAC-SHA-256 of the network: without the key, no one can match it to an address, even by trying every IPv4 one. */
export function clientCounterKey(network: string, key: string): string {
  return createHmac('sha256', key).update(network).digest('hex');
}

/** The client's network, from the trusted source only. */
export function clientNetworkOf(
  event: APIGatewayProxyEventV2,
  trust:
    { readonly source: 'source-ip' } | { readonly source: 'cloudfront-viewer-address'; readonly originSecret: string },
): string {
  if (trust.source === 'source-ip') {
    const network = clientNetwork(event.requestContext?.http?.sourceIp ?? '');
    if (network === undefined) throw new ConfigurationError('The request has no usable source IP address');
    return network;
  }
  if (!originSecretMatches(headerValue(event, originSecretHeader), trust.originSecret)) {
    throw new UntrustedOriginError('The request did not come through the CloudFront distribution');
  }
  // CloudFront sets this header on every request it forwards (infra/constructs/site.ts).
  const network = clientNetwork(viewerIpOf(headerValue(event, viewerAddressHeader)) ?? '');
  if (network === undefined) {
    throw new ConfigurationError(`CloudFront forwarded no usable ${viewerAddressHeader} header`);
  }
  return network;
}

/**
 * The id the client's counters are kept under: the keyed hash of its network. `loadOriginSecret`
 * is called behind CloudFront only.
 */
export async function clientCounterKeyOf(
  event: APIGatewayProxyEventV2,
  settings: ClientAddressSettings,
  loadOriginSecret: (arn: string) => Promise<string>,
): Promise<string> {
  if (settings.source === 'source-ip') {
    return clientCounterKey(clientNetworkOf(event, { source: 'source-ip' }), settings.key);
  }
  const originSecret = await loadOriginSecret(settings.originSecretArn);
  const network = clientNetworkOf(event, { source: 'cloudfront-viewer-address', originSecret });
  return clientCounterKey(network, counterKeyFromOriginSecret(originSecret));
}
