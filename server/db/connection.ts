import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { z } from 'zod';
import type { PoolLimits } from '../config.js';
import { repoRoot } from '../paths.js';
import { EmbeddedTurns } from './embedded-turns.js';
import { selectRows } from './rows.js';
import * as schema from './schema.js';

/** The one database type the code is written against: PGlite and node-postgres both satisfy it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** The node-postgres pool behind `db` when it is on a PostgreSQL server (a `COPY … TO STDOUT` needs a
 *  connection of its own); undefined on PGlite. */
export const poolOf = (db: Db): pg.Pool | undefined => pools.get(db);

/** The PGlite instance behind `db`, on PGlite (PGlite's own API: its data directory's dump). */
export function pgliteOf(db: Db): PGlite {
  const embedded = embeddedOf.get(db);
  if (!embedded) throw new Error('Not a PGlite database');
  return embedded.client;
}

/**
 * On PGlite, runs one short statement on `raw` (the same database) as background work: when no ordinary
 * statement is waiting (db/embedded-turns.ts). For work cut into many short statements.
 */
export function backgroundStatement<T>(db: Db, statement: (raw: Db) => Promise<T>): Promise<T> {
  const embedded = embeddedOf.get(db);
  if (!embedded) throw new Error('Not a PGlite database');
  return embedded.turns.backgroundStatement(() => statement(embedded.raw));
}

/** On PGlite, the processor time of the last background statements (db/embedded-turns.ts). */
export function recentBackgroundCpuMsOf(db: Db): readonly number[] {
  const embedded = embeddedOf.get(db);
  if (!embedded) throw new Error('Not a PGlite database');
  return embedded.turns.recentBackgroundCpuMs;
}

/** Per PGlite `Db`: its instance (whose queries take ordinary turns), its turns, and a `Db` on the instance
 *  that takes none. */
const embeddedOf = new WeakMap<Db, { client: PGlite; turns: EmbeddedTurns; raw: Db }>();

/** The PGlite instance as drizzle sees it: every query and transaction an ordinary turn. */
function takingOrdinaryTurns(client: PGlite, turns: EmbeddedTurns): PGlite {
  const query: PGlite['query'] = (...args) => turns.ordinaryStatement(() => client.query(...args));
  const transaction: PGlite['transaction'] = (callback) => turns.ordinaryStatement(() => client.transaction(callback));
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      if (property === 'transaction') return transaction;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The pool of each PostgreSQL `Db` made here (a WeakMap rather than `instanceof pg.Pool`, so that a
 *  PGlite process never loads node-postgres: each driver is imported only when it is used). */
const pools = new WeakMap<Db, pg.Pool>();

/** Resolves when the database answers a trivial statement; rejects when it cannot be reached. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/**
 * Runs `work` holding the PostgreSQL advisory lock `name`, so that instances starting together do one-time work
 * (migrations, the demo data) one after another. PGlite serves one process: `work` just runs.
 */
export async function withAdvisoryLock<T>(db: Db, name: string, work: () => Promise<T>): Promise<T> {
  const pool = poolOf(db);
  return pool ? holdingAdvisoryLock(pool, name, work) : work();
}

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

/** Embedded PGlite: single-threaded WebAssembly, where timer-driven settings such as statement_timeout do nothing. */
export const isPglite = (db: Db): boolean => poolOf(db) === undefined;

const migrationsFolder = path.join(repoRoot, 'server/db/migrations');

/**
 * Whether the database lacks a migration of this build. drizzle applies every migration newer than the last
 * one it recorded; when the newest in the journal is already recorded, two small queries say so, where the
 * migrator would read and hash every migration file and take its locks.
 */
async function hasPendingMigrations(db: Db): Promise<boolean> {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  const [table] = await selectRows(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
    z.object({ present: z.boolean() }),
  );
  if (!table?.present) return true;
  // created_at is a bigint: text on node-postgres, a number or a bigint on PGlite.
  const [last] = await selectRows(
    db,
    sql`select max(created_at) as applied from drizzle.__drizzle_migrations`,
    z.object({ applied: z.union([z.string(), z.number(), z.bigint(), z.null()]) }),
  );
  return Number(last?.applied ?? 0) < newest;
}

/** Where the embedded database of `dataDir` lives. */
export const embeddedDatabaseDir = (dataDir: string): string => path.join(dataDir, 'pg');

/** `databaseUrl` set: a PostgreSQL server; otherwise embedded PGlite in `dataDir/pg` (or in memory). */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string | 'memory';
  pool?: PoolLimits;
}): Promise<Database> {
  if (options.databaseUrl) {
    const [{ default: pg }, { drizzle: drizzleNodePg }, { migrate: migrateNodePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    // The server's budget on the shared pool (`pool`): a bounded wait for a connection, and statements and
    // idle transactions that cannot hold one for ever. Without it (the CLI: bulk loads, index builds) only
    // the size. Migrations run on a connection of their own without timeouts.
    const limits = options.pool;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
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
    return {
      db,
      kind: 'postgres',
      migrate: async () => {
        if (!(await hasPendingMigrations(db))) return;
        // Migrations run on connections of their own without the server's timeouts; instances starting together:
        // one migrates while the others wait on the lock, then find nothing to do.
        const migrator = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
        try {
          await holdingAdvisoryLock(migrator, 'sitefile:migrate', async () => {
            if (await hasPendingMigrations(db)) await migrateNodePg(drizzleNodePg(migrator), { migrationsFolder });
          });
        } finally {
          await migrator.end();
        }
      },
      close: () => pool.end(),
    };
  }
  const [{ PGlite: PGliteClass }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] =
    await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
  const dataDir = options.dataDir ?? 'memory';
  let client: PGlite;
  if (dataDir === 'memory') {
    client = await PGliteClass.create({ extensions: { pg_trgm } });
  } else {
    const dir = embeddedDatabaseDir(dataDir);
    mkdirSync(dir, { recursive: true });
    client = await PGliteClass.create({ dataDir: dir, extensions: { pg_trgm } });
  }
  const turns = new EmbeddedTurns();
  const ordinary = takingOrdinaryTurns(client, turns);
  const db = drizzlePglite(ordinary, { schema }) as unknown as Db;
  embeddedOf.set(db, { client: ordinary, turns, raw: drizzlePglite(client, { schema }) as unknown as Db });
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      if (await hasPendingMigrations(db)) await migratePglite(drizzlePglite(client), { migrationsFolder });
    },
    close: () => client.close(),
  };
}
