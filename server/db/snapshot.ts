// The embedded database as one file and back, for `npm run cli -- backup` / `restore` (server/cli/backup.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Db, embeddedDatabaseDir, pgliteOf } from './connection.js';

/** Whether a PGlite instance has the embedded database open now (PostgreSQL's lock file, removed on close). */
export const embeddedDatabaseInUse = (dataDir: string): boolean =>
  existsSync(path.join(embeddedDatabaseDir(dataDir), 'postmaster.pid'));

/** PGlite's own dump of its data directory (a gzipped tar), taken from the open database. */
export const dumpEmbeddedDatabase = (db: Db): Promise<Blob> => pgliteOf(db).dumpDataDir('gzip');

/** Makes `dataDir`'s embedded database from a dump; the directory must not hold one. */
export async function loadEmbeddedDatabase(dataDir: string, dump: Blob): Promise<void> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  const client = await PGlite.create({
    dataDir: embeddedDatabaseDir(dataDir),
    loadDataDir: dump,
    extensions: { pg_trgm },
  });
  await client.close();
}
