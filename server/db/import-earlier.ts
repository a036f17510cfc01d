// The import of a DATA_DIR written by an earlier version, whose embedded database was PGlite (DATA_DIR/pg),
// into the embedded PostgreSQL on its first start. The keys and blobs stay where they are (DATA_DIR/keys,
// DATA_DIR/blobs); the database's rows are copied table by table, and the old directory is moved aside, not
// deleted (DATA_DIR/pg.imported-<date>). PGlite is loaded here only, and only when there is something to import.
import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Database, migrationsFolder } from './connection.js';
import { selectRows } from './rows.js';
import { loadTables, TABLES_QUERY } from './table-copy.js';

/** Where an earlier version kept the embedded database of `dataDir`. */
export const earlierDatabaseDir = (dataDir: string): string => path.join(dataDir, 'pg');

/** Whether the database holds anything a person made (then nothing is imported over it). */
async function holdsData(database: Database): Promise<boolean> {
  const [row] = await selectRows(
    database.db,
    sql`select (exists (select 1 from organizations) or exists (select 1 from users)) as present`,
    z.object({ present: z.boolean() }),
  );
  return row?.present ?? false;
}

/**
 * Imports the earlier embedded database of `dataDir`, if there is one, into `database` (migrated, and empty:
 * otherwise the import refuses rather than mix two databases). Answers where the old directory was moved, or
 * undefined when there was nothing to import. A failed import changes nothing: the rows go in in one
 * transaction, and the old directory stays where it was for the next start.
 */
export async function importEarlierDatabase(
  dataDir: string,
  database: Database,
  now: Date,
): Promise<string | undefined> {
  const dir = earlierDatabaseDir(dataDir);
  if (!existsSync(path.join(dir, 'PG_VERSION'))) return undefined;
  if (await holdsData(database))
    throw new Error(
      `${dir} holds the database of an earlier version, and the embedded PostgreSQL already holds data: ` +
        'move one of them away before starting',
    );
  const [{ PGlite }, { pg_trgm }, { unaccent }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    // Migration 0020 creates it (the searches' accent folding).
    import('@electric-sql/pglite/contrib/unaccent'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const earlier = await PGlite.create({ dataDir: dir, extensions: { pg_trgm, unaccent } });
  try {
    // The earlier version may be behind this one: its schema is brought to this build's, so the columns match.
    await migrate(drizzle(earlier), { migrationsFolder });
    const { rows: tables } = await earlier.query<{ table: string; columns: string[] }>(TABLES_QUERY);
    await loadTables(database.pool, tables, async (table) => {
      const columns = tables
        .find((t) => t.table === table)!
        .columns.map((c) => `"${c}"`)
        .join(', ');
      const { blob } = await earlier.query(`COPY "${table}" (${columns}) TO '/dev/blob'`);
      // An empty table gives no blob.
      return Readable.from(blob ? [Buffer.from(await blob.arrayBuffer())] : []);
    });
  } finally {
    await earlier.close();
  }
  const aside = `${dir}.imported-${now.toISOString().slice(0, 10)}`;
  renameSync(dir, aside);
  return aside;
}
