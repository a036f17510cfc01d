import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { ManualClock } from '../server/clock.js';
import type { Database } from '../server/db/connection.js';
import {
  createFixtures,
  type Fixtures,
  freePort,
  openTestDatabase,
  startTestServer,
  type TestServer,
} from './harness.js';

/** A Redis of a test's own, on its own port, without persistence: the test kills it, never the shared one. */
export function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve(child);
    });
  });
}

/** SIGKILL, by the child's own pid; resolves once it has exited. */
export const killHard = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    process.kill(child.pid!, 'SIGKILL');
  });

/**
 * Two instances sharing one database and a Redis of the test's own, started before the tests of the describe
 * block that calls this and stopped after them; the fixtures are made on `a`. The fields are filled when the
 * block's first test runs; a test that restarts the Redis sets `redis` to the new process.
 */
export function twoInstancesWithRedis(settings: { authCacheTtlSeconds: number; name: string }) {
  const pair = { clock: new ManualClock() } as {
    clock: ManualClock;
    redis: ChildProcess;
    redisPort: number;
    database: Database;
    a: TestServer;
    b: TestServer;
    f: Fixtures;
  };
  beforeAll(async () => {
    pair.redisPort = await freePort();
    pair.redis = await startRedis(pair.redisPort);
    pair.database = await openTestDatabase();
    const env = {
      REDIS_URL: `redis://127.0.0.1:${pair.redisPort}`,
      AUTH_CACHE_TTL_SECONDS: String(settings.authCacheTtlSeconds),
      RATE_LIMIT_KEY_PREFIX: `${settings.name}-${pair.redisPort}:`,
    };
    const { database, clock } = pair;
    pair.a = await startTestServer({ database, clock, env });
    pair.b = await startTestServer({ database, clock, env });
    pair.f = await createFixtures(pair.a);
  });
  afterAll(async () => {
    await pair.a?.close();
    await pair.b?.close();
    await pair.database?.close();
    if (pair.redis) await killHard(pair.redis);
  });
  return pair;
}
