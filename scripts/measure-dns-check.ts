/**
 * What the recipient-domain check adds to a send: the median and 95th percentile of a fresh
 * lookup (a domain with MX records; one with an A record only, which takes a second round of
 * questions), of a cached answer, and of the system resolver's answer for a domain that does not
 * exist. `npx tsx scripts/measure-dns-check.ts [runs]` (default 200). The figures are in
 * docs/abuse.md. Its own loopback DNS server, since scripts import no tests.
 */
import dns2 from 'dns2';
import { createRecipientDomainCheck } from '../lambdas/mail/recipient-domain';

const { Packet } = dns2;
const runs = Number(process.argv[2] ?? 200);

/** mail.example has an MX record, a-only.example an A record only; every other name is NXDOMAIN. */
const server = dns2.createUDPServer((request, send) => {
  const [question] = request.questions;
  if (!question) return;
  const name = question.name.toLowerCase().replace(/\.$/, '');
  const response = Packet.createResponseFromRequest(request);
  const record = { name: question.name, class: Packet.CLASS.IN, ttl: 300 };
  if (name === 'mail.example') {
    if (question.type === Packet.TYPE.MX) {
      response.answers.push({ ...record, type: Packet.TYPE.MX, exchange: 'mx.mail.example', priority: 10 } as never);
    }
  } else if (name === 'a-only.example') {
    if (question.type === Packet.TYPE.A) {
      response.answers.push({ ...record, type: Packet.TYPE.A, address: '192.0.2.25' } as never);
    }
  } else {
    response.header.rcode = 3;
  }
  void send(response);
});
await server.listen(0, '127.0.0.1');
const servers = [`127.0.0.1:${server.address().port}`];

async function measure(label: string, lookup: (run: number) => Promise<unknown>): Promise<void> {
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
  await measure('loopback server, MX, not cached', () => createRecipientDomainCheck({ servers })('mail.example'));
  await measure('loopback server, A only, not cached', () => createRecipientDomainCheck({ servers })('a-only.example'));
  const cached = createRecipientDomainCheck({ servers });
  await cached('mail.example');
  await measure('cached answer', () => cached('mail.example'));
  await measure("system resolver, a domain that doesn't exist", (run) =>
    createRecipientDomainCheck()(`no-such-domain-${run}-${Date.now()}.example`),
  );
} finally {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
