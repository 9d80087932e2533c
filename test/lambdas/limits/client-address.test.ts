/** Who the client is: the trusted address, its network, and the client keys the caps count under. */

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import {
  clientKeysOf,
  clientNetwork,
  clientNetworksOf,
  hashKeyFromOriginSecret,
  hashNetwork,
  originSecretMatches,
  sharedNetwork,
  viewerIpOf,
} from '../../../lambdas/limits/client-address';
import { readApiRequest, type ClientOrigin } from '../../../lambdas/http/http-request';
import { postEvent, sendRoute } from '../support/http-api-events';

const secret = 'a'.repeat(64);
const behindCloudFront = { source: 'cloudfront-viewer-address', originSecret: secret } as const;

/** A request as API Gateway passes it on from CloudFront: an edge server's address, and the headers. */
function fromCloudFront(headers: Record<string, string>): APIGatewayProxyEventV2 {
  return postEvent(sendRoute, { name: 'Ada', email: 'ada@example.com' }, { sourceIp: '130.176.0.10', headers });
}

/** The client origin as the handler reads it from the event. */
function originOf(event: APIGatewayProxyEventV2): ClientOrigin {
  return readApiRequest(event).client;
}

describe('clientNetwork', () => {
  test('is an IPv4 address itself', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
  });

  test('is the IPv4 address of an IPv4-mapped IPv6 address, as a dual-stack socket reports it', () => {
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  test('is the /64 of an IPv6 address, whatever the last 64 bits or their spelling', () => {
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  test.each(['', 'localhost', '203.0.113', '0x7f.1', '203.0.113.7, 198.51.100.1'])('is undefined for %p', (text) => {
    expect(clientNetwork(text)).toBeUndefined();
  });
});

describe('sharedNetwork', () => {
  test('is the /24 of an IPv4 address', () => {
    expect(sharedNetwork('203.0.113.7')).toBe('203.0.113.0/24');
    expect(sharedNetwork('203.0.113.255')).toBe('203.0.113.0/24');
    expect(sharedNetwork('203.0.114.7')).toBe('203.0.114.0/24');
  });

  test('is the /24 of the IPv4 address of an IPv4-mapped IPv6 address', () => {
    expect(sharedNetwork('::ffff:203.0.113.7')).toBe('203.0.113.0/24');
  });

  test('is the /48 of an IPv6 address, whatever the other 80 bits or their spelling', () => {
    expect(sharedNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1::/48');
    expect(sharedNetwork('2001:0DB8:0001:ffff:ffff:ffff:ffff:ffff')).toBe('2001:db8:1::/48');
    expect(sharedNetwork('2001:db8:2::1')).toBe('2001:db8:2::/48');
  });

  test("puts every /64 of one /48 (a tunnel broker's free allocation) in one network", () => {
    const networks = new Set(['2001:db8:5:0::1', '2001:db8:5:1::1', '2001:db8:5:ffff::1'].map(sharedNetwork));
    expect([...networks]).toEqual(['2001:db8:5::/48']);
  });

  test.each(['', 'localhost', '203.0.113', '0x7f.1', '203.0.113.7, 198.51.100.1'])('is undefined for %p', (text) => {
    expect(sharedNetwork(text)).toBeUndefined();
  });
});

describe('viewerIpOf (CloudFront-Viewer-Address)', () => {
  test.each([
    ['198.51.100.10:46532', '198.51.100.10'],
    ['2001:db8::1:46532', '2001:db8::1'],
    ['[2001:db8::1]:46532', '2001:db8::1'],
  ])('reads %p as %p', (value, ip) => {
    expect(viewerIpOf(value)).toBe(ip);
  });

  test.each(['198.51.100.10', '198.51.100.10:port', '198.51.100.10:1, 203.0.113.7:2', 'evil:80', ''])(
    'refuses %p',
    (value) => {
      expect(viewerIpOf(value)).toBeUndefined();
    },
  );
});

describe('originSecretMatches', () => {
  test('holds for the secret only', () => {
    expect(originSecretMatches(secret, secret)).toBe(true);
    expect(originSecretMatches(`${secret}x`, secret)).toBe(false);
    expect(originSecretMatches('', secret)).toBe(false);
    expect(originSecretMatches(undefined, secret)).toBe(false);
  });
});

describe('clientNetworksOf: the client', () => {
  test('locally, takes the source address and ignores every forwarding header', () => {
    const event = postEvent(
      sendRoute,
      {},
      {
        sourceIp: '127.0.0.1',
        headers: {
          'X-Forwarded-For': '203.0.113.7',
          'X-Real-IP': '203.0.113.8',
          Forwarded: 'for=203.0.113.9',
          'CloudFront-Viewer-Address': '203.0.113.10:443',
        },
      },
    );

    expect(clientNetworksOf(originOf(event), { source: 'source-ip' }).client).toBe('127.0.0.1');
  });

  test('behind CloudFront, takes the viewer address of a request carrying the origin secret', () => {
    const event = fromCloudFront({ 'x-origin-secret': secret, 'cloudfront-viewer-address': '198.51.100.10:46532' });

    expect(clientNetworksOf(originOf(event), behindCloudFront).client).toBe('198.51.100.10');
  });

  test('behind CloudFront, ignores X-Forwarded-For, X-Real-IP and Forwarded', () => {
    const event = fromCloudFront({
      'x-origin-secret': secret,
      'cloudfront-viewer-address': '198.51.100.10:46532',
      'x-forwarded-for': '203.0.113.7, 198.51.100.10',
      'x-real-ip': '203.0.113.8',
      forwarded: 'for=203.0.113.9',
    });

    expect(clientNetworksOf(originOf(event), behindCloudFront).client).toBe('198.51.100.10');
  });

  test.each([
    ['no origin secret', { 'cloudfront-viewer-address': '198.51.100.10:46532' }],
    ['a wrong origin secret', { 'x-origin-secret': 'guess', 'cloudfront-viewer-address': '198.51.100.10:46532' }],
  ])('refuses a request with %s (a direct call to the API) as untrusted', (_, headers) => {
    expect(() => clientNetworksOf(originOf(fromCloudFront(headers)), behindCloudFront)).toThrow(
      expect.objectContaining({ kind: 'untrustedOrigin' }),
    );
  });

  test('treats a proven request without a usable viewer address as a configuration fault', () => {
    expect(() => clientNetworksOf(originOf(fromCloudFront({ 'x-origin-secret': secret })), behindCloudFront)).toThrow(
      expect.objectContaining({ kind: 'misconfigured' }),
    );
  });
});

describe('clientNetworksOf', () => {
  test('gives the client and its wider network from the source address locally', () => {
    const event = postEvent(sendRoute, {}, { sourceIp: '203.0.113.7', headers: { 'X-Forwarded-For': '198.51.100.1' } });

    expect(clientNetworksOf(originOf(event), { source: 'source-ip' })).toEqual({
      client: '203.0.113.7',
      network: '203.0.113.0/24',
    });
  });

  test('gives the client and its wider network from the viewer address behind CloudFront', () => {
    const event = fromCloudFront({ 'x-origin-secret': secret, 'cloudfront-viewer-address': '2001:db8:7:8::5:443' });

    expect(clientNetworksOf(originOf(event), behindCloudFront)).toEqual({
      client: '2001:db8:7:8::/64',
      network: '2001:db8:7::/48',
    });
  });

  test('refuses a request without the origin secret behind CloudFront', () => {
    const event = fromCloudFront({ 'cloudfront-viewer-address': '198.51.100.10:46532' });

    expect(() => clientNetworksOf(originOf(event), behindCloudFront)).toThrow(
      expect.objectContaining({ kind: 'untrustedOrigin' }),
    );
  });
});

describe('clientKeysOf', () => {
  test('keys the client and its network apart, each an HMAC-SHA-256 under the same key', async () => {
    const event = postEvent(sendRoute, {}, { sourceIp: '203.0.113.7' });

    const keys = await clientKeysOf(originOf(event), { source: 'source-ip', key: 'local-key' }, async () => {
      throw new Error('no secret locally');
    });

    expect(keys).toEqual({
      client: hashNetwork('203.0.113.7', 'local-key'),
      network: hashNetwork('203.0.113.0/24', 'local-key'),
    });
    expect(keys.network).not.toBe(keys.client);
  });

  test('gives two clients of one /24 different client keys and the same network key', async () => {
    const keysOf = (sourceIp: string) =>
      clientKeysOf(originOf(postEvent(sendRoute, {}, { sourceIp })), { source: 'source-ip', key: 'k' }, async () => '');

    const [first, second] = await Promise.all([keysOf('198.51.100.1'), keysOf('198.51.100.200')]);

    expect(first.client).not.toBe(second.client);
    expect(first.network).toBe(second.network);
  });

  test('behind CloudFront, keys both with the key derived from the origin secret', async () => {
    const event = fromCloudFront({ 'x-origin-secret': secret, 'cloudfront-viewer-address': '198.51.100.10:46532' });

    const keys = await clientKeysOf(
      originOf(event),
      { source: 'cloudfront-viewer-address', originSecretArn: 'arn:secret' },
      async () => secret,
    );

    expect(keys.network).toBe(hashNetwork('198.51.100.0/24', hashKeyFromOriginSecret(secret)));
  });
});

describe('clientKeysOf: the client key', () => {
  test('is an HMAC-SHA-256 of the network under the local key, holding no address', async () => {
    const event = postEvent(sendRoute, {}, { sourceIp: '203.0.113.7' });

    const { client: key } = await clientKeysOf(originOf(event), { source: 'source-ip', key: 'local-key' }, async () => {
      throw new Error('no secret locally');
    });

    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).toBe(hashNetwork('203.0.113.7', 'local-key'));
    expect(key).not.toBe(hashNetwork('203.0.113.7', 'another-key'));
  });

  test('behind CloudFront, reads the secret by its ARN and keys the hash with a key derived from it', async () => {
    const arns: string[] = [];
    const event = fromCloudFront({ 'x-origin-secret': secret, 'cloudfront-viewer-address': '2001:db8::5:443' });

    const { client: key } = await clientKeysOf(
      originOf(event),
      { source: 'cloudfront-viewer-address', originSecretArn: 'arn:secret' },
      async (arn) => (arns.push(arn), secret),
    );

    expect(arns).toEqual(['arn:secret']);
    expect(key).toBe(hashNetwork('2001:db8::/64', hashKeyFromOriginSecret(secret)));
    expect(hashKeyFromOriginSecret(secret)).not.toBe(secret);
  });
});
