import type { ChildProcess } from 'node:child_process';
import type { ManualClock } from '../server/clock.js';
import type { PoolLimits } from '../server/config.js';
import { type Database, openDatabase } from '../server/db/connection.js';
import {
  createFixtures,
  createPostgresDatabase,
  type Fixtures,
  freePort,
  startTestServer,
  type TestServer,
  testConfig,
} from './harness.js';
import { killHard, startRedis } from './redis-server.js';

export interface TwoInstances {
  a: TestServer;
  b: TestServer;
  f: Fixtures;
  /** Instance A's database. */
  database: Database;
  /** The database both share, for a server in a process of its own beside them (test/server-process.ts). */
  databaseUrl: string;
  /** What both instances have in their environment beyond the tests' defaults (the shared Redis). */
  env: Record<string, string>;
  redisPort: number;
  /** The Redis of this pair: a test that kills it and starts another puts the new one here, for `close()`. */
  redis: ChildProcess;
  close(): Promise<void>;
}

/**
 * Two instances of the server sharing one database and a Redis of the test's own (own port, own process, no
 * persistence). Each instance has its own pool, as on two machines. Fixtures are made through A.
 */
export async function startTwoInstances(
  options: { env?: Record<string, string>; clock?: ManualClock } = {},
): Promise<TwoInstances> {
  const redisPort = await freePort();
  const redis = await startRedis(redisPort);
  const env = {
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    RATE_LIMIT_KEY_PREFIX: `two-instances-${redisPort}:`,
    ...options.env,
  };
  const [databaseA, databaseB, shared] = await openSharedDatabase(testConfig(env).pool);
  const a = await startTestServer({ database: databaseA, clock: options.clock, env });
  const b = await startTestServer({ database: databaseB, clock: options.clock, env });
  const pair: TwoInstances = {
    a,
    b,
    f: await createFixtures(a),
    database: databaseA,
    databaseUrl: shared.url,
    env,
    redisPort,
    redis,
    async close() {
      await a.close();
      await b.close();
      await databaseA.close();
      if (databaseB !== databaseA) await databaseB.close();
      await shared.drop();
      await killHard(pair.redis);
    },
  };
  return pair;
}

/** The two instances' databases: two pools on one new PostgreSQL database. */
async function openSharedDatabase(
  pool: PoolLimits,
): Promise<[Database, Database, Awaited<ReturnType<typeof createPostgresDatabase>>]> {
  const created = await createPostgresDatabase();
  const [first, second] = await Promise.all(
    [1, 2].map(async () => {
      const database = await openDatabase({ databaseUrl: created.url, pool });
      await database.migrate();
      return database;
    }),
  );
  return [first!, second!, created];
}
