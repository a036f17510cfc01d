import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { ConnectionLimits } from '../config.js';

/** Why a socket was closed: its address's share was full of requests in flight (`address_share`), the instance's
 *  (`full`), or it had no request in flight and made room for a newcomer (`idle_evicted`). */
export type ConnectionClosure = 'address_share' | 'full' | 'idle_evicted';

/**
 * Whose share a peer's socket counts against: an IPv4 address (IPv4-mapped ones too), or an IPv6 address's
 * first 64 bits, the usual allocation of one subscriber, who can pick any address in it.
 */
function shareOf(remoteAddress: string | undefined): string {
  const address = remoteAddress ?? '';
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address counts as its IPv4 address
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}

interface Holder {
  open: number;
  /** Its sockets with no request in flight, longest idle first (a Set keeps insertion order). */
  idle: Set<Socket>;
}

interface Tracked {
  holder: Holder;
  share: string;
  inFlight: number;
}

/**
 * Caps the sockets of `server`, in total and per address, so that one client cannot shut the others out by
 * holding connections open (issue 36): a socket past its address's share or the instance's cap closes, at
 * once, the longest-idle socket — one with no request in flight (never sent a whole request head, or kept
 * alive between two) — of its own address, or at the instance's cap of the address holding the most sockets; only
 * when none is idle is the newcomer closed instead. A request in flight is never cut.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  closed: (reason: ConnectionClosure) => void,
): void {
  const holders = new Map<string, Holder>();
  const tracked = new Map<Socket, Tracked>();

  const forget = (socket: Socket) => {
    const entry = tracked.get(socket);
    if (!entry) return;
    tracked.delete(socket);
    entry.holder.open -= 1;
    entry.holder.idle.delete(socket);
    if (entry.holder.open === 0) holders.delete(entry.share);
  };

  const evictFrom = (holder: Holder | undefined): boolean => {
    const [longestIdle] = holder?.idle ?? [];
    if (!longestIdle) return false;
    forget(longestIdle);
    longestIdle.destroy();
    closed('idle_evicted');
    return true;
  };

  /** The address holding the most sockets among those with one idle: the one to give a socket back. */
  const largestWithIdle = (): Holder | undefined => {
    let largest: Holder | undefined;
    for (const holder of holders.values()) {
      if (holder.idle.size > 0 && holder.open > (largest?.open ?? 0)) largest = holder;
    }
    return largest;
  };

  /** Room for one more socket of `holder`, made by closing an idle one if need be; else why there is none. */
  const roomFor = (holder: Holder): ConnectionClosure | undefined => {
    if (holder.open >= limits.maxConnectionsPerAddress) return evictFrom(holder) ? undefined : 'address_share';
    if (tracked.size >= limits.maxConnections) return evictFrom(largestWithIdle()) ? undefined : 'full';
    return undefined;
  };

  server.on('connection', (socket: Socket) => {
    const share = shareOf(socket.remoteAddress);
    const holder = holders.get(share) ?? { open: 0, idle: new Set<Socket>() };
    const refusal = roomFor(holder);
    if (refusal) {
      socket.destroy();
      closed(refusal);
      return;
    }
    holders.set(share, holder);
    holder.open += 1;
    holder.idle.add(socket);
    tracked.set(socket, { holder, share, inFlight: 0 });
    socket.once('close', () => forget(socket));
  });

  server.on('request', (req, res) => {
    const entry = tracked.get(req.socket as Socket);
    if (!entry) return;
    entry.inFlight += 1;
    entry.holder.idle.delete(req.socket as Socket);
    res.once('close', () => {
      entry.inFlight -= 1;
      if (entry.inFlight === 0 && tracked.get(req.socket as Socket) === entry)
        entry.holder.idle.add(req.socket as Socket);
    });
  });
}
