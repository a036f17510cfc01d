// Every table of the application's schema as COPY text, and back: the embedded mode's backup (`cli backup` /
// `restore`, server/cli/backup.ts) and the import of a data directory of an earlier version (db/import-earlier.ts).
// The rows only: the schema comes from the migrations, so a loaded database is one this build migrated.
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { z } from 'zod';

/** One table's rows in a dump: its columns (generated ones are left out: PostgreSQL makes them again). */
export const TableRows = z.object({ table: z.string(), columns: z.array(z.string()), rows: z.number().int() });
export type TableRows = z.infer<typeof TableRows>;

/** The `public` tables and the columns COPY can write back, in the order the database lists them. */
export const TABLES_QUERY = `
  select c.relname as table, array_agg(a.attname::text order by a.attnum) as columns
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
  where n.nspname = 'public' and c.relkind in ('r', 'p')
  group by c.relname
  order by c.relname`;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const columnList = (columns: readonly string[]) => columns.map(quoted).join(', ');
const fileOf = (dir: string, table: string) => path.join(dir, `${table}.copy`);

/**
 * Writes each table's rows into `dir/<table>.copy` (COPY's text format), all read in one REPEATABLE READ
 * snapshot: the dump is the database at one moment, while the server may go on writing.
 */
export async function dumpTables(pool: pg.Pool, dir: string): Promise<TableRows[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows: tables } = await client.query<{ table: string; columns: string[] }>(TABLES_QUERY);
    const dumped: TableRows[] = [];
    for (const { table, columns } of tables) {
      const copy = client.query(copyTo(`COPY ${quoted(table)} (${columnList(columns)}) TO STDOUT`));
      await pipeline(copy, createWriteStream(fileOf(dir, table), { mode: 0o600 }));
      dumped.push({ table, columns, rows: copy.rowCount ?? 0 });
    }
    await client.query('COMMIT');
    return dumped;
  } finally {
    client.release();
  }
}

/**
 * Loads tables' rows (COPY text, from `source`) into a migrated database whose tables hold nothing of
 * worth: in one transaction, the tables emptied first, with triggers and foreign-key checks off while the
 * rows go in (superuser's `session_replication_role = replica`: the rows were consistent where they came from,
 * and any order of tables works).
 */
export async function loadTables(
  pool: pg.Pool,
  tables: readonly Pick<TableRows, 'table' | 'columns'>[],
  source: (table: string) => Readable | Promise<Readable>,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    const { rows: present } = await client.query<{ table: string }>(TABLES_QUERY);
    if (present.length) await client.query(`TRUNCATE ${present.map((t) => quoted(t.table)).join(', ')}`);
    for (const { table, columns } of tables) {
      await pipeline(
        await source(table),
        client.query(copyFrom(`COPY ${quoted(table)} (${columnList(columns)}) FROM STDIN`)),
      );
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** The source of `loadTables` for a dump written by `dumpTables` into `dir`. */
export const dumpedTable = (dir: string) => (table: string) => createReadStream(fileOf(dir, table));
