import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts `server` on a free loopback port: a stand-in for a service the server under test calls (a webhook
 * receiver, an identity or AI provider). Its idle sockets stay open 120 s: the caller's fetch reuses one for its
 * next request, and Node's default 5 s idle close races that reuse when a loaded machine stalls this process (both
 * ends run in it): the request lands on a socket just closed, ECONNRESET. `close` ends the kept-alive ones too.
 */
export async function listenOnLoopback(server: Server): Promise<{ port: number; close(): Promise<void> }> {
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
