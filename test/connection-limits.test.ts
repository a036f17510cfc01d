import { once } from 'node:events';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { server } from './fixture-server.js';

// Issue 36: one client holding the instance's sockets (about 1,000 idle ones) shut every other client out. The
// server runs on the defaults (HTTP_MAX_CONNECTIONS 1000, a tenth of them per address); the attackers connect
// from other loopback addresses (127.0.0.2 …) than the clients they must not shut out (127.0.0.1).
const MAX_CONNECTIONS = 1000;
const PER_ADDRESS = 100;
/** As many fresh connections as the probe tried (0 of 148 were served). */
const FRESH = 148;

interface Held {
  socket: Socket;
  /** Set when the connection ended (the server closed it). */
  closed: boolean;
  /** Its address and port once connected: how the server's end names its peer. */
  peer?: string;
}

/** The server's end of each connection it accepted in this test, by its peer's address and port. */
const accepted = new Map<string, Socket>();
beforeAll(() => {
  // After the server's own listener (limitConnections): the socket is kept or already closed when this runs.
  server.http.on('connection', (socket: Socket) =>
    accepted.set(`${socket.remoteAddress}:${socket.remotePort}`, socket),
  );
});

const held: Held[] = [];
afterEach(async () => {
  for (const { socket } of held.splice(0)) socket.destroy();
  // The server has seen them go before the next test counts sockets.
  await Promise.all([...accepted.values()].map((end) => !end.destroyed && once(end, 'close')));
  accepted.clear();
});

/** `count` connections from `localAddress` that send nothing, opened one after the other. */
async function holdIdle(localAddress: string, count: number): Promise<Held[]> {
  const { port } = new URL(server.url);
  const opened: Held[] = [];
  for (let i = 0; i < count; i += 1) {
    const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress });
    const entry: Held = { socket, closed: false };
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      entry.peer = `${socket.localAddress}:${socket.localPort}`;
    });
    socket.once('close', () => {
      entry.closed = true;
    });
    held.push(entry);
    opened.push(entry);
    await new Promise((resolve) => socket.once('connect', resolve).once('close', resolve));
  }
  // 'connect' is the kernel's handshake: the server accepts (and keeps or closes) each one after it. Each the
  // server closed (a newcomer past a cap, or the idle one it made room by) is closed at the client too.
  for (const { peer } of opened) {
    while (peer && !accepted.has(peer)) await once(server.http, 'connection');
  }
  await Promise.all(
    opened.map((h) => h.peer && accepted.get(h.peer)?.destroyed && !h.closed && once(h.socket, 'close')),
  );
  return opened;
}

/** The status of `GET /healthz` on a connection of its own from 127.0.0.1 (0: the connection was closed). */
const freshGet = () =>
  new Promise<number>((resolve) => {
    const req = request(`${server.url}/healthz`, { agent: false, localAddress: '127.0.0.1' }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', () => resolve(0));
    req.end();
  });

/** FRESH fresh connections, four at a time, as a handful of other clients would open them. */
async function freshStatuses(): Promise<number[]> {
  const statuses: number[] = [];
  const lane = async () => {
    while (statuses.length < FRESH) statuses.push(await freshGet());
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  return statuses.slice(0, FRESH);
}

const stillOpen = (sockets: Held[]) => sockets.filter((s) => !s.closed).length;

describe('the connection cap cannot be held by one client (issue 36)', () => {
  it('1,000 idle sockets from one address: it keeps its share of 100, every other client is served', async () => {
    const attacker = await holdIdle('127.0.0.2', MAX_CONNECTIONS);
    expect(await freshStatuses()).toEqual(Array(FRESH).fill(200));
    expect(stillOpen(attacker)).toBe(PER_ADDRESS);
    // The ones kept are its newest: each socket past the share closed its address's longest-idle one.
    expect(attacker.slice(-PER_ADDRESS).every((s) => !s.closed)).toBe(true);
  }, 60_000);

  it('ten addresses filling the instance with idle sockets: newcomers are served, closing the longest-idle socket of the address holding most', async () => {
    const attackers: Held[][] = [];
    for (let i = 2; i < 12; i += 1) attackers.push(await holdIdle(`127.0.0.${i}`, PER_ADDRESS));
    expect(await freshStatuses()).toEqual(Array(FRESH).fill(200));
    const closed = attackers.map((sockets) => sockets.length - stillOpen(sockets));
    // Idle sockets gave way for the newcomers (and for the few the test's own client had open), spread over the
    // ten: each address's oldest ones, never more than one more from one address than from another.
    expect(closed.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);
    expect(Math.max(...closed) - Math.min(...closed)).toBeLessThanOrEqual(1);
    attackers.forEach((sockets, i) => {
      expect(sockets.slice(0, closed[i]).every((s) => s.closed)).toBe(true);
    });
  }, 60_000);
});
