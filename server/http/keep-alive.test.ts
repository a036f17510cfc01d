import { once } from 'node:events';
import http from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

// A balancer keeps its sockets to the server open for reuse (AWS ALB: 60 s idle) and sends the next request on
// one it holds: the server must not be the side that closes it first (Node's default: after 5 s idle), or that
// request meets a closing socket (a 502 at the balancer, ECONNRESET at a client).

let server: TestServer;
beforeAll(async () => {
  // The slow-client timeouts set low: they count from a request's first byte, never an idle socket's wait.
  server = await startTestServer({ env: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' } });
});
afterAll(() => server.close());

/** GET `path` through `agent`: the status, the Keep-Alive header, and whether it went on a socket used before. */
const get = (agent: http.Agent, path: string) =>
  new Promise<{ status: number; keepAlive: unknown; reusedSocket: boolean }>((resolve, reject) => {
    const req = http.get(`${server.url}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode!, keepAlive: res.headers['keep-alive'], reusedSocket: req.reusedSocket }),
      );
    });
    req.on('error', reject);
  });

describe('kept-alive connections', () => {
  it('serve the next request on a socket that sat idle 6 s, past the headers and request timeouts', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(agent, '/healthz');
      expect(first).toEqual({ status: 200, keepAlive: 'timeout=65', reusedSocket: false });
      await sleep(6000);
      expect(await get(agent, '/healthz')).toEqual({ status: 200, keepAlive: 'timeout=65', reusedSocket: true });
    } finally {
      agent.destroy();
    }
  });
});

describe('closing the server', () => {
  it('closes a socket whose request was in flight once it is answered, not after the keep-alive timeout', async () => {
    const closing = await startTestServer();
    const body = JSON.stringify({ client_id: 'nobody', client_secret: 'sfs_wrong' });
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(closing.url).port) });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    const socketClosed = once(socket, 'close');
    const inFlight = once(closing.http, 'request');
    socket.write(
      'POST /v1/oauth/token HTTP/1.1\r\nHost: sitefile.test\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await inFlight;
    const closed = closing.close();
    socket.write(body.slice(10));
    // Kept alive, the socket would hold close() for 65 s, past this test's timeout.
    await Promise.all([closed, socketClosed]);
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
  });
});
