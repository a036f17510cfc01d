// A real DNS server on a free UDP port of 127.0.0.1 for the domain verification tests (SSO_DNS_SERVERS points at
// it): it answers TXT questions from `txt`, NXDOMAIN for names it does not hold, SERVFAIL for names in `failing`.
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as dnsPacket from 'dns-packet';

export interface DnsServer {
  /** `127.0.0.1:<port>`, as SSO_DNS_SERVERS takes it. */
  address: string;
  /** Name (lower case) → its TXT values. */
  txt: Map<string, string[]>;
  /** Names answered with SERVFAIL, as a broken authoritative server does. */
  failing: Set<string>;
  close(): Promise<void>;
}

const NXDOMAIN = 3;
const SERVFAIL = 2;

export async function startDnsServer(): Promise<DnsServer> {
  const socket = createSocket('udp4');
  const txt = new Map<string, string[]>();
  const failing = new Set<string>();
  socket.on('message', (message, peer) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    const name = question?.name.toLowerCase() ?? '';
    const values = txt.get(name);
    const rcode = failing.has(name) ? SERVFAIL : values ? 0 : NXDOMAIN;
    const answer = dnsPacket.encode({
      type: 'response',
      id: query.id,
      // Authoritative answer + recursion desired/available, with the response code in the low four bits.
      flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | rcode,
      questions: query.questions,
      answers:
        rcode === 0 && question?.type === 'TXT'
          ? (values ?? []).map((data) => ({ type: 'TXT' as const, name: question.name, ttl: 60, data }))
          : [],
    });
    socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    txt,
    failing,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
