import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, testServerUrl } from '../test/harness.js';
import { repoRoot } from './paths.js';

// The server started as `npm start` does (the bundle) against a PostgreSQL server that is not there yet: the
// test's own TCP port, where a proxy to the test run's server is started only later.

/** A TCP proxy on `port` to the real PostgreSQL server: "the database comes up". */
function startProxy(port: number, target: URL): Promise<Server> {
  const proxy = createServer((client) => {
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return new Promise((resolve) => proxy.listen(port, '127.0.0.1', () => resolve(proxy)));
}

interface Started {
  child: ChildProcess;
  port: number;
  /** Everything printed so far (pino's JSON lines, the banner). */
  output: () => string;
  exited: Promise<number | null>;
}

async function startBundle(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-wait-'));
  const child = spawn(process.execPath, ['dist/server/main.mjs'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
      JWT_SIGNING_KEY: 'startup-wait-test-signing-key-0123456789',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => rm(dataDir, { recursive: true, force: true }));
  return { child, port, output: () => output, exited };
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const statusOf = async (port: number, pathname: string) =>
  (await fetch(`http://127.0.0.1:${port}${pathname}`).catch(() => undefined))?.status;

const retryLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.includes('database not reachable yet'))
    .map((line) => JSON.parse(line) as { attempt: number; retryInMs: number; reason: string });

describe('start-up waits for PostgreSQL', () => {
  const database = `sitefile_wait_${randomBytes(6).toString('hex')}`;
  const serverUrl = testServerUrl();
  const target = new URL(serverUrl);
  const admin = () => new pg.Client({ connectionString: serverUrl });
  const urlThrough = (port: number) => {
    const url = new URL(target);
    url.host = `127.0.0.1:${port}`;
    url.pathname = `/${database}`;
    return url.toString();
  };

  beforeAll(async () => {
    execFileSync(process.execPath, ['tools/build.mjs', 'server', '--if-changed'], { cwd: repoRoot });
    const client = admin();
    await client.connect();
    await client.query(`CREATE DATABASE ${database}`);
    await client.end();
  }, 180_000);
  afterAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.end();
  });

  it('retries with backoff, one line per attempt, answers 503 meanwhile, and is ready once the database is', async () => {
    const proxyPort = await freePort();
    const started = await startBundle({ DATABASE_URL: urlThrough(proxyPort), DATABASE_WAIT_SECONDS: '120' });
    let proxy: Server | undefined;
    try {
      await until(() => retryLines(started.output()).length >= 3, 'three failed attempts');
      expect(await statusOf(started.port, '/healthz')).toBe(200);
      expect(await statusOf(started.port, '/readyz')).toBe(503);
      const refused = await fetch(`http://127.0.0.1:${started.port}/v1/organization`);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toMatchObject({ errorCode: 'service_unavailable' });

      proxy = await startProxy(proxyPort, target);
      await until(async () => (await statusOf(started.port, '/readyz')) === 200, '/readyz 200');
      await until(() => started.output().includes('Sitefile is running at'), 'the banner');
      // Unauthenticated now reaches the API (401), where it was refused as not ready (503).
      expect(await statusOf(started.port, '/v1/organization')).toBe(401);

      const attempts = retryLines(started.output());
      expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));
      expect(attempts[0]).toMatchObject({ retryInMs: 500, reason: expect.stringContaining('ECONNREFUSED') });
      expect(attempts[1]?.retryInMs).toBe(1000);
      expect(attempts[2]?.retryInMs).toBe(2000);
      expect(started.output()).not.toMatch(/\n\s+at /); // no stack trace
    } finally {
      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      proxy?.close();
    }
  }, 90_000);

  it('gives up after DATABASE_WAIT_SECONDS with one line and exit code 1', async () => {
    // 4 s: time for at least two retries (after 0.5 s and 1 s) also when a loaded machine slows each attempt.
    const started = await startBundle({ DATABASE_URL: urlThrough(await freePort()), DATABASE_WAIT_SECONDS: '4' });
    expect(await started.exited).toBe(1);
    const failure = started
      .output()
      .split('\n')
      .filter((line) => line.startsWith('Start-up failed'));
    expect(failure).toEqual([
      expect.stringMatching(/^Start-up failed: database unreachable after 4 s \(\d+ attempts\): .*ECONNREFUSED/),
    ]);
    expect(retryLines(started.output()).length).toBeGreaterThanOrEqual(2);
  }, 30_000);
});
