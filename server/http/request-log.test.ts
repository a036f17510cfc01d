import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { requestLog } from './request-log.js';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  route?: string;
  responseTime?: number;
  [key: string]: unknown;
}

let server: Server | undefined;
afterEach(
  () =>
    new Promise<void>((resolve) => {
      server?.closeAllConnections();
      return server ? server.close(() => resolve()) : resolve();
    }),
);

/** A real server on a free port with the request log in front of a few routes; the lines it wrote, parsed. */
async function serve(level: pino.Level | 'silent') {
  const lines: LogLine[] = [];
  /** Responses not closed yet: the log writes a request's line as its response closes. */
  let open = 0;
  const checks = new Set<() => void>();
  const changed = () => {
    for (const check of checks) check();
  };
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
      changed();
    },
  });
  const app = express();
  app.use(requestLog(pino({ level }, sink)));
  // After the log: its listener on close has written the line when this one runs.
  app.use((_req, res, next) => {
    open += 1;
    res.once('close', () => {
      open -= 1;
      changed();
    });
    next();
  });
  app.get('/projects/:id', (req, res) => {
    req.routeTemplate = 'GET /projects/:id';
    res.json({ id: req.params.id });
  });
  app.get('/broken', (req, res) => {
    req.log.error({ detail: 'disk full' }, 'unhandled error');
    res.status(500).json({ error: 'Internal server error' });
  });
  app.get('/slow', () => {
    // Never answers: the client gives up.
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server?.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** The lines, once `count` are written and every response the server began has closed (a line after them too). */
  const settled = (count: number) =>
    new Promise<LogLine[]>((resolve) => {
      const check = () => {
        if (lines.length < count || open > 0) return;
        checks.delete(check);
        resolve(lines);
      };
      checks.add(check);
      check();
    });
  return { base, settled };
}

describe('request log', () => {
  it('writes one short line per request at info: method, url, status, route, time and the request id', async () => {
    const { base, settled } = await serve('info');
    const res = await fetch(`${base}/projects/prj_1?limit=5`, {
      headers: { authorization: 'Bearer secret-token', cookie: 'session=abc' },
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const lines = await settled(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      reqId: id,
      req: { method: 'GET', url: '/projects/prj_1?limit=5' },
      res: { statusCode: 200 },
      route: 'GET /projects/:id',
    });
    expect(lines[0]?.responseTime).toBeGreaterThanOrEqual(0);
    // No headers: they hold credentials.
    expect(JSON.stringify(lines)).not.toMatch(/secret-token|session=abc/);
  });

  it("echoes a well-formed caller's request id and replaces any other", async () => {
    const { base, settled } = await serve('info');
    const given = await fetch(`${base}/projects/p`, { headers: { 'x-request-id': 'trace-42.a:b' } });
    expect(given.headers.get('x-request-id')).toBe('trace-42.a:b');
    const refused = await fetch(`${base}/projects/p`, { headers: { 'x-request-id': 'has space' } });
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await settled(2)).map((line) => line.reqId)).toEqual(['trace-42.a:b', refused.headers.get('x-request-id')]);
  });

  it("logs a 500 as an error, with the handler's own error line carrying the same request id", async () => {
    const { base, settled } = await serve('info');
    const res = await fetch(`${base}/broken`, { headers: { 'x-request-id': 'r-500' } });
    expect(res.status).toBe(500);
    const lines = await settled(2);
    expect(lines.map((line) => [line.level, line.msg, line.reqId])).toEqual([
      [50, 'unhandled error', 'r-500'],
      [50, 'request errored', 'r-500'],
    ]);
    expect(lines[0]?.detail).toBe('disk full');
  });

  it('logs a request the client abandoned as aborted', async () => {
    const { base, settled } = await serve('info');
    const gaveUp = fetch(`${base}/slow`, { signal: AbortSignal.timeout(100) });
    await expect(gaveUp).rejects.toThrow();
    const lines = await settled(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'request aborted', req: { method: 'GET', url: '/slow' } });
  });

  it('writes no per-request lines above info, but still the errors and the request id', async () => {
    const { base, settled } = await serve('warn');
    const ok = await fetch(`${base}/projects/p`);
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await fetch(`${base}/broken`, { headers: { 'x-request-id': 'r-warn' } });
    expect((await settled(1)).map((line) => [line.msg, line.reqId])).toEqual([['unhandled error', 'r-warn']]);
  });
});
