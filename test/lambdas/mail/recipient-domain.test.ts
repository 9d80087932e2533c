/** The recipient-domain check against a DNS server on loopback (test/support/dns-server.ts). */

import {
  checkRecipientDomain,
  createRecipientDomainCheck,
  dnsServersFrom,
  recipientDomainTimeoutMs,
} from '../../../lambdas/mail/recipient-domain';
import { startDnsServer, type LoopbackDnsServer } from '../../support/dns-server';

let dns: LoopbackDnsServer;

beforeAll(async () => {
  dns = await startDnsServer({
    'mail.example': { mx: [{ exchange: 'mx1.mail.example', priority: 10 }] },
    'two-mx.example': {
      mx: [
        { exchange: 'mx1.two-mx.example', priority: 10 },
        { exchange: 'mx2.two-mx.example', priority: 20 },
      ],
    },
    'a-only.example': { a: ['192.0.2.25'] },
    'aaaa-only.example': { aaaa: ['2001:db8::25'] },
    'null-mx.example': { mx: [{ exchange: '', priority: 0 }] },
    'no-host.example': {},
    'broken.example': { servfail: true },
    'silent.example': { silent: true },
  });
});

afterAll(() => dns.close());

const checkWith = (options = {}) => createRecipientDomainCheck({ servers: [dns.address], ...options });

test('accepts a domain with MX records', async () => {
  expect(await checkWith()('mail.example')).toEqual({ verdict: 'accepts', by: 'mx' });
});

test('accepts a domain with several MX records', async () => {
  expect(await checkWith()('two-mx.example')).toEqual({ verdict: 'accepts', by: 'mx' });
});

test('accepts a domain with no MX record but an A record (the implicit MX of RFC 5321)', async () => {
  expect(await checkWith()('a-only.example')).toEqual({ verdict: 'accepts', by: 'address' });
});

test('accepts a domain with no MX record but an AAAA record', async () => {
  expect(await checkWith()('aaaa-only.example')).toEqual({ verdict: 'accepts', by: 'address' });
});

test('refuses a domain that publishes a null MX (RFC 7505)', async () => {
  expect(await checkWith()('null-mx.example')).toEqual({ verdict: 'refuses', reason: 'null-mx' });
});

test('refuses a domain that does not exist (NXDOMAIN)', async () => {
  expect(await checkWith()('no-such-name.example')).toEqual({ verdict: 'refuses', reason: 'no-such-domain' });
});

test('refuses a domain that exists but has no MX, A or AAAA record', async () => {
  expect(await checkWith()('no-host.example')).toEqual({ verdict: 'refuses', reason: 'no-mail-host' });
});

test('reads the domain case-insensitively and without its trailing dot', async () => {
  expect(await checkWith()('Mail.Example.')).toEqual({ verdict: 'accepts', by: 'mx' });
});

test('fails open when the server fails (SERVFAIL)', async () => {
  expect(await checkWith()('broken.example')).toEqual({
    verdict: 'unknown',
    reason: 'lookup-failed',
    code: 'ESERVFAIL',
  });
});

test('fails open when no server listens', async () => {
  const result = await createRecipientDomainCheck({ servers: ['127.0.0.1:9'] })('mail.example');

  expect(result.verdict).toBe('unknown');
});

test(`fails open within about ${recipientDomainTimeoutMs} ms when the server never answers`, async () => {
  const started = performance.now();

  const result = await checkWith()('silent.example');

  const elapsed = performance.now() - started;
  expect(result).toEqual({ verdict: 'unknown', reason: 'timeout' });
  expect(elapsed).toBeGreaterThanOrEqual(recipientDomainTimeoutMs - 50);
  expect(elapsed).toBeLessThan(recipientDomainTimeoutMs + 500);
});

test('answers a domain asked again within the cache time from the cache, without asking the server', async () => {
  const check = checkWith();
  await check('mail.example');
  const asked = dns.questions().length;

  expect(await check('MAIL.example')).toEqual({ verdict: 'accepts', by: 'mx' });
  expect(dns.questions()).toHaveLength(asked);
});

test('asks the server again once the cached answer has expired', async () => {
  let clock = 0;
  const check = checkWith({ cacheMs: 1_000, now: () => clock });
  await check('null-mx.example');
  const asked = dns.questions().length;

  clock = 1_001;
  expect(await check('null-mx.example')).toEqual({ verdict: 'refuses', reason: 'null-mx' });
  expect(dns.questions().length).toBeGreaterThan(asked);
});

test('keeps an unknown answer for a shorter time than a definite one', async () => {
  let clock = 0;
  const check = checkWith({ cacheMs: 10_000, unknownCacheMs: 1_000, now: () => clock });
  await check('broken.example');
  await check('mail.example');
  const asked = dns.questions().length;

  clock = 1_001;
  await check('mail.example');
  expect(dns.questions()).toHaveLength(asked);
  await check('broken.example');
  expect(dns.questions().length).toBeGreaterThan(asked);
});

test('keeps at most the given number of domains, dropping the oldest', async () => {
  const check = checkWith({ maxCachedDomains: 1 });
  await check('mail.example');
  await check('a-only.example');
  const asked = dns.questions().length;

  await check('mail.example');

  expect(dns.questions().length).toBeGreaterThan(asked);
});

test('refuses what no DNS name can be without asking', async () => {
  const asked = dns.questions().length;

  expect(await checkWith()('exa mple.com')).toEqual({ verdict: 'refuses', reason: 'no-such-domain' });
  expect(dns.questions()).toHaveLength(asked);
});

test.each([
  ['a label over 63 characters', `${'a'.repeat(64)}.example`],
  ['more than 253 characters in all', `${'a'.repeat(60)}.`.repeat(5) + 'example'],
  ['an empty label', 'mail..example'],
])(
  "refuses a name with %s as one that cannot exist (the resolver's EBADNAME), without asking a server",
  async (_, domain) => {
    const asked = dns.questions().length;

    expect(await checkWith()(domain)).toEqual({ verdict: 'refuses', reason: 'bad-name' });
    expect(dns.questions()).toHaveLength(asked);
  },
);

test('treats a malformed server setting as a configuration fault', async () => {
  await expect(createRecipientDomainCheck({ servers: ['not a server'] })('mail.example')).rejects.toMatchObject({
    kind: 'misconfigured',
  });
});

describe('dnsServersFrom (DNS_SERVERS)', () => {
  test('splits comma-separated host:port values', () => {
    expect(dnsServersFrom('127.0.0.1:5353, [::1]:5353')).toEqual(['127.0.0.1:5353', '[::1]:5353']);
  });

  test.each([undefined, '', ' , '])('means the system servers for %p', (value) => {
    expect(dnsServersFrom(value)).toBeUndefined();
  });
});

test('checkRecipientDomain asks the servers of DNS_SERVERS', async () => {
  const before = process.env.DNS_SERVERS;
  process.env.DNS_SERVERS = dns.address;
  try {
    expect(await checkRecipientDomain('a-only.example')).toEqual({ verdict: 'accepts', by: 'address' });
    expect(dns.questions()).toContainEqual({ name: 'a-only.example', type: 'A' });
  } finally {
    if (before === undefined) delete process.env.DNS_SERVERS;
    else process.env.DNS_SERVERS = before;
  }
});
