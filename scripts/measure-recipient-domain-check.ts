/**
 * What the recipient-domain check adds to a send: the median and 95th percentile of a fresh
 * lookup (a domain with MX records; one with an A record only, which takes a second round of
 * questions), of a cached answer, and of the system resolver's answer for a domain that does
 * not exist. `npx tsx scripts/measure-recipient-domain-check.ts [runs]` (default 200).
 */
import { createRecipientDomainCheck } from '../lambdas/send-cheat-sheet/recipient-domain';
import { startDnsServer } from '../test/support/dns-server';

const runs = Number(process.argv[2] ?? 200);

const dns = await startDnsServer({
  'mail.example': { mx: [{ exchange: 'mx.mail.example', priority: 10 }] },
  'a-only.example': { a: ['192.0.2.25'] },
});

async function measure(label: string, lookup: (run: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await lookup(run);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))].toFixed(2);
  console.log(`${label.padEnd(44)} median ${at(0.5)} ms, p95 ${at(0.95)} ms (${runs} runs)`);
}

try {
  // A fresh check per run: nothing cached.
  await measure('loopback server, MX, not cached', () =>
    createRecipientDomainCheck({ servers: [dns.address] })('mail.example'),
  );
  await measure('loopback server, A only, not cached', () =>
    createRecipientDomainCheck({ servers: [dns.address] })('a-only.example'),
  );
  const cached = createRecipientDomainCheck({ servers: [dns.address] });
  await cached('mail.example');
  await measure('cached answer', () => cached('mail.example'));
  await measure("system resolver, a domain that doesn't exist", (run) =>
    createRecipientDomainCheck()(`no-such-domain-${run}-${Date.now()}.example`),
  );
} finally {
  await dns.close();
}
