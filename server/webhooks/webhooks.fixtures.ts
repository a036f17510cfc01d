// A webhook receiver for the tests: a real HTTP server on a free port that records every request and answers
// the statuses it is told to, in order (200 once they run out).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect } from 'vitest';
import { listenOnLoopback } from '../../test/loopback-server.js';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver not yet listening (its `url` is known once `listen` resolved). */
function receiverServer() {
  const received: Received[] = [];
  const statuses: number[] = [];
  const waiters: Array<() => void> = [];
  /** While true, requests are held open without an answer (a receiver that hangs). */
  let hanging = false;
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const wake of waiters.splice(0)) wake();
      if (hanging) return;
      res.statusCode = statuses.shift() ?? 200;
      res.end('ok');
    });
  });
  let url = '';
  let close = async () => {};
  return {
    listen: async () => {
      const listening = await listenOnLoopback(http);
      url = `http://127.0.0.1:${listening.port}/hooks`;
      close = listening.close;
    },
    get url() {
      return url;
    },
    received,
    /** The next answers, in order. */
    answer: (...codes: number[]) => statuses.push(...codes),
    hang: (on: boolean) => {
      hanging = on;
    },
    /** Resolves once `count` requests have arrived (each arrival wakes it, no timed sleeps). */
    async waitForRequests(count: number): Promise<Received[]> {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return received.slice(0, count);
    },
    close: () => close(),
  };
}

export type Receiver = Omit<ReturnType<typeof receiverServer>, 'listen'>;

export async function startReceiver(): Promise<Receiver> {
  const receiver = receiverServer();
  await receiver.listen();
  return receiver;
}

/** One receiver for a test file: listening before its first test, closed after its last. */
export function receiverForFile(): Receiver {
  const receiver = receiverServer();
  beforeAll(receiver.listen);
  afterAll(receiver.close);
  return receiver;
}

/** The payload of a request, after the `standardwebhooks` verifier accepted its signature with `secret`. */
export function verified(secret: string, request: Received): { type: string; timestamp: string; data: unknown } {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
  const payload = new Webhook(secret).verify(request.body, headers) as {
    type: string;
    timestamp: string;
    data: unknown;
  };
  expect(Object.keys(payload).sort()).toEqual(['data', 'timestamp', 'type']);
  return payload;
}
