import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { z } from 'zod';
import type { PoolLimits } from '../config.js';
import { repoRoot } from '../paths.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { selectRows } from './rows.js';
import * as schema from './schema.js';

/** The one database type the code is written against: drizzle on node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  /** The node-postgres pool behind `db`. */
  pool: pg.Pool;
  /** Applies this build's migrations (with `upTo`, only the first `upTo` of them: to load rows of that schema). */
  migrate(options?: { upTo?: number }): Promise<void>;
  close(): Promise<void>;
}

/** The node-postgres pool behind `db` (a `COPY … TO STDOUT` needs a connection of its own). */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('Not a database opened by openDatabase');
  return pool;
}

/** The pool of each `Db` made here. */
const pools = new WeakMap<Db, pg.Pool>();

/** Resolves when the database answers a trivial statement; rejects when it cannot be reached. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/**
 * Runs `work` holding the PostgreSQL advisory lock `name`, so that instances starting together do one-time work
 * (migrations, the demo data) one after another.
 */
export const withAdvisoryLock = <T>(db: Db, name: string, work: () => Promise<T>): Promise<T> =>
  holdingAdvisoryLock(poolOf(db), name, work);

/** The lock is session-level, on a connection of `pool` that waits for it with no statement timeout (another
 *  instance may take minutes to migrate or seed) and is closed afterwards, which releases it. */
async function holdingAdvisoryLock<T>(pool: pg.Pool, name: string, work: () => Promise<T>): Promise<T> {
  const session = await pool.connect();
  try {
    await session.query("select set_config('statement_timeout', '0', false)");
    await session.query('select pg_advisory_lock(hashtext($1))', [name]);
    return await work();
  } finally {
    session.release(true);
  }
}

export const migrationsFolder = path.join(repoRoot, 'server/db/migrations');

interface Journal {
  entries: { when: number }[];
}
const journalOf = (folder: string): Journal =>
  JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as Journal;

/** How many migrations this build has. */
export const migrationCount = (): number => journalOf(migrationsFolder).entries.length;

/** How many migrations the database has applied. */
export async function appliedMigrations(db: Db): Promise<number> {
  const [row] = await selectRows(
    db,
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    z.object({ count: z.number() }),
  );
  return row?.count ?? 0;
}

/**
 * A migrations folder of this build's first `upTo` migrations (their files linked, the journal cut), in a new
 * temporary directory that `done` removes.
 */
function firstMigrations(upTo: number): { folder: string; done(): void } {
  const folder = mkdtempSync(path.join(tmpdir(), 'sitefile-migrations-'));
  mkdirSync(path.join(folder, 'meta'));
  const journal = journalOf(migrationsFolder);
  writeFileSync(
    path.join(folder, 'meta/_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }),
  );
  for (const file of readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql')))
    symlinkSync(path.join(migrationsFolder, file), path.join(folder, file));
  return { folder, done: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * Whether the database lacks a migration of `folder`. drizzle applies every migration newer than the last
 * one it recorded; when the newest in the journal is already recorded, two small queries say so, where the
 * migrator would read and hash every migration file and take its locks.
 */
async function hasPendingMigrations(db: Db, folder = migrationsFolder): Promise<boolean> {
  const newest = Math.max(...journalOf(folder).entries.map((entry) => entry.when));
  const [table] = await selectRows(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
    z.object({ present: z.boolean() }),
  );
  if (!table?.present) return true;
  // created_at is a bigint: text on node-postgres.
  const [last] = await selectRows(
    db,
    sql`select max(created_at) as applied from drizzle.__drizzle_migrations`,
    z.object({ applied: z.string().nullable() }),
  );
  return Number(last?.applied ?? 0) < newest;
}

/**
 * `databaseUrl` set: that PostgreSQL server (the operator's); otherwise the embedded PostgreSQL of `dataDir`
 * (db/embedded-postgres.ts), started here and stopped by `close()`.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  pool?: PoolLimits;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.pool);
  if (!options.dataDir) throw new Error('openDatabase needs a DATABASE_URL or a DATA_DIR');
  const embedded = await startEmbeddedPostgres(options.dataDir);
  try {
    const database = await openPostgres(embedded.url, options.pool);
    return {
      ...database,
      async close() {
        // The server stops even when the pool's end fails (ended twice, a connection already lost).
        try {
          await database.close();
        } finally {
          await embedded.stop();
        }
      },
    };
  } catch (err) {
    await embedded.stop();
    throw err;
  }
}

async function openPostgres(databaseUrl: string, limits: PoolLimits | undefined): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzleNodePg }, { migrate: migrateNodePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  // The server's budget on the shared pool (`limits`): a bounded wait for a connection, and statements and
  // idle transactions that cannot hold one for ever. Without it (the CLI: bulk loads, index builds) only
  // the size. Migrations run on a connection of their own without timeouts.
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: limits?.max ?? 10,
    ...(limits && {
      connectionTimeoutMillis: limits.waitMs,
      statement_timeout: limits.statementTimeoutMs,
      idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs,
    }),
  });
  // A client that loses its connection (a server restart, a failover, pg_terminate_backend, an idle-in-
  // transaction timeout) emits 'error', and an 'error' without a listener ends the process. The pool listens
  // while a client is idle; a checked-out client needs its own listener for as long as it lives. Its pending
  // and later queries fail (503, http/errors.ts), and the pool discards it when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  pools.set(db, pool);
  const migrateFrom = async (folder: string) => {
    if (!(await hasPendingMigrations(db, folder))) return;
    // Migrations run on connections of their own without the server's timeouts; instances starting together:
    // one migrates while the others wait on the lock, then find nothing to do.
    const migrator = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    try {
      await holdingAdvisoryLock(migrator, 'sitefile:migrate', async () => {
        if (await hasPendingMigrations(db, folder))
          await migrateNodePg(drizzleNodePg(migrator), { migrationsFolder: folder });
      });
    } finally {
      await migrator.end();
    }
  };
  return {
    db,
    pool,
    migrate: async (options = {}) => {
      if (options.upTo === undefined) return migrateFrom(migrationsFolder);
      const first = firstMigrations(options.upTo);
      try {
        await migrateFrom(first.folder);
      } finally {
        first.done();
      }
    },
    close: () => pool.end(),
  };
}
