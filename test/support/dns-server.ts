/**
 * A DNS server on loopback (UDP, a free port) for the recipient-domain check: each name answers
 * as the test says, every other name is NXDOMAIN (as on the project's CI machines). It counts the
 * questions it was asked, so a test can tell a cached answer from a fresh lookup.
 */

import dns2 from 'dns2';

const { Packet } = dns2;

export type DnsZoneEntry =
  /** MX records; A and AAAA questions get an empty answer (NODATA). */
  | { readonly mx: readonly { readonly exchange: string; readonly priority: number }[] }
  /** No MX (NODATA), but these address records. */
  | { readonly a?: readonly string[]; readonly aaaa?: readonly string[] }
  /** A server failure (RCODE 2) for every question. */
  | { readonly servfail: true }
  /** No answer at all: the question is dropped, as by a dead server or a firewall. */
  | { readonly silent: true };

export interface DnsQuestion {
  readonly name: string;
  /** The record type asked for (`A`, `AAAA`, `MX`, or any other the resolver sends). */
  readonly type: string;
}

export interface LoopbackDnsServer {
  /** `127.0.0.1:<port>`, as `DNS_SERVERS` takes it. */
  readonly address: string;
  /** Every question asked so far, oldest first. */
  readonly questions: () => readonly DnsQuestion[];
  readonly close: () => Promise<void>;
}

const typeNames: Readonly<Record<number, string>> = {
  [Packet.TYPE.A]: 'A',
  [Packet.TYPE.AAAA]: 'AAAA',
  [Packet.TYPE.MX]: 'MX',
};

const nxdomain = 3;
const servfail = 2;

export async function startDnsServer(zone: Readonly<Record<string, DnsZoneEntry>>): Promise<LoopbackDnsServer> {
  const asked: DnsQuestion[] = [];
  const server = dns2.createUDPServer((request, send) => {
    const [question] = request.questions;
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    asked.push({ name, type: typeNames[question.type] ?? String(question.type) });
    const entry = zone[name];
    if (entry !== undefined && 'silent' in entry) return;

    const response = Packet.createResponseFromRequest(request);
    const record = { name: question.name, class: Packet.CLASS.IN, ttl: 300 };
    if (entry === undefined) {
      response.header.rcode = nxdomain;
    } else if ('servfail' in entry) {
      response.header.rcode = servfail;
    } else if ('mx' in entry) {
      if (question.type === Packet.TYPE.MX) {
        for (const mx of entry.mx) response.answers.push({ ...record, type: Packet.TYPE.MX, ...mx } as never);
      }
    } else if (question.type === Packet.TYPE.A) {
      for (const address of entry.a ?? []) response.answers.push({ ...record, type: Packet.TYPE.A, address } as never);
    } else if (question.type === Packet.TYPE.AAAA) {
      for (const address of entry.aaaa ?? []) {
        response.answers.push({ ...record, type: Packet.TYPE.AAAA, address } as never);
      }
    }
    void send(response);
  });
  await server.listen(0, '127.0.0.1');
  const { port } = server.address();
  return {
    address: `127.0.0.1:${port}`,
    questions: () => [...asked],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
