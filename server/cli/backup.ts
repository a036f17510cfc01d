// `backup --out FILE` and `restore --from FILE` of the embedded mode: everything in DATA_DIR that is state — the
// database (every table's rows as COPY text, db/table-copy.ts), the blobs and the keys — in one gzipped tar,
// readable by its owner only (it holds the signing keys). PostgreSQL + S3 deployments back up with their own
// tools (docs/operations.md).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import { z } from 'zod';
import type { Config } from '../config.js';
import { appliedMigrations, type Database, migrationCount, openDatabase } from '../db/connection.js';
import { clusterDir, embeddedPostgresInUse } from '../db/embedded-postgres.js';
import { dumpedTable, dumpTables, loadTables, TableRows } from '../db/table-copy.js';
import { CliError } from './seed.js';

const MANIFEST = 'sitefile-backup.json';
/** The folder of the tables' rows (`<table>.copy`). */
const DATABASE_DUMP = 'database';
/** The folders of DATA_DIR a backup carries besides the database (`keys/`: token and download signing keys). */
const FOLDERS = ['blobs', 'keys'] as const;

const Manifest = z.object({
  format: z.literal('sitefile-backup'),
  version: z.literal(2),
  createdAt: z.iso.datetime(),
  /** How many of the migrations the database had: a later build migrates the rows on from there. */
  migrations: z.number().int().min(1),
  tables: z.array(TableRows),
  blobs: z.number().int().min(0),
  keys: z.array(z.string()),
});
type Manifest = z.infer<typeof Manifest>;

export interface BackupSummary {
  file: string;
  bytes: number;
  blobs: number;
  keys: string[];
  createdAt: string;
}

function embeddedOnly(config: Config): void {
  if (config.databaseUrl) {
    throw new CliError(
      'backup and restore cover the embedded mode (DATA_DIR); with DATABASE_URL set, back up PostgreSQL with ' +
        'pg_dump and the blob store with its own tools (docs/operations.md)',
    );
  }
}

/** Files under `dir` (relative paths), none when it does not exist. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

export async function backup(config: Config, out: string, now: Date): Promise<BackupSummary> {
  embeddedOnly(config);
  const { dataDir } = config;
  if (!(await stat(clusterDir(dataDir)).catch(() => undefined))) {
    throw new CliError(`no embedded database in ${dataDir} (DATA_DIR)`);
  }
  if (embeddedPostgresInUse(dataDir)) {
    throw new CliError(
      `the embedded database in ${dataDir} is open: stop the server first (one that stopped without closing it: ` +
        'start it and stop it once)',
    );
  }
  const target = path.resolve(out);
  // Built beside the target and renamed into place: a failed backup leaves no half file under the name.
  const staging = await mkdtemp(path.join(path.dirname(target), '.sitefile-backup-'));
  try {
    await mkdir(path.join(staging, DATABASE_DUMP));
    const database = await openDatabase({ dataDir });
    let dumped: { migrations: number; tables: TableRows[] };
    try {
      dumped = await dumpDatabase(database, path.join(staging, DATABASE_DUMP));
    } finally {
      await database.close();
    }
    const manifest: Manifest = {
      format: 'sitefile-backup',
      version: 2,
      createdAt: now.toISOString(),
      ...dumped,
      blobs: (await filesUnder(path.join(dataDir, 'blobs'))).length,
      keys: (await filesUnder(path.join(dataDir, 'keys'))).sort(),
    };
    await writeFile(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2));
    const entries: string[] = [MANIFEST, DATABASE_DUMP];
    for (const folder of FOLDERS) {
      // Linked, not copied (blobs can be many gigabytes); `follow` packs what the link points at.
      if (await stat(path.join(dataDir, folder)).catch(() => undefined)) {
        await symlink(path.join(dataDir, folder), path.join(staging, folder));
        entries.push(folder);
      }
    }
    const partial = path.join(staging, 'backup.tar.gz');
    await tar.create({ gzip: true, cwd: staging, file: partial, follow: true, portable: true }, entries);
    await chmod(partial, 0o600);
    await rename(partial, target);
    return {
      file: target,
      bytes: (await stat(target)).size,
      blobs: manifest.blobs,
      keys: manifest.keys,
      createdAt: manifest.createdAt,
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function dumpDatabase(database: Database, dir: string): Promise<{ migrations: number; tables: TableRows[] }> {
  return { migrations: await appliedMigrations(database.db), tables: await dumpTables(database.pool, dir) };
}

const sha256Of = async (file: string) => {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
};

const allowedEntry = (entry: string) =>
  entry === MANIFEST || [DATABASE_DUMP, ...FOLDERS].some((folder) => entry.startsWith(`${folder}/`));

export async function restore(config: Config, from: string): Promise<BackupSummary> {
  embeddedOnly(config);
  const { dataDir } = config;
  const source = path.resolve(from);
  if (!(await stat(source).catch(() => undefined))?.isFile()) throw new CliError(`no backup file at ${source}`);
  const present = await readdir(dataDir).catch(() => []);
  if (present.length > 0) {
    throw new CliError(
      `${dataDir} (DATA_DIR) is not empty: restore into an empty or new directory (nothing is overwritten)`,
    );
  }
  await mkdir(dataDir, { recursive: true });
  const unpacked = await mkdtemp(path.join(dataDir, '.restore-'));
  let manifest: Manifest;
  try {
    await tar
      .extract({
        file: source,
        cwd: unpacked,
        strict: true,
        filter: (entry) => allowedEntry(entry.replace(/^\.\//, '')),
      })
      .catch((err: Error) => {
        throw new CliError(`${source} is not a Sitefile backup: ${err.message}`);
      });
    const parsed = Manifest.safeParse(
      JSON.parse(await readFile(path.join(unpacked, MANIFEST), 'utf8').catch(() => 'null')),
    );
    if (!parsed.success) throw new CliError(`${source} is not a Sitefile backup (no valid ${MANIFEST})`);
    manifest = parsed.data;
    if (manifest.migrations > migrationCount())
      throw new CliError(
        `${source} was made by a newer Sitefile (its database is further migrated): restore it with that one`,
      );
    // Blobs are named by their SHA-256: a damaged or truncated archive shows here, before anything is used.
    const blobs = await filesUnder(path.join(unpacked, 'blobs'));
    for (const blob of blobs) {
      if ((await sha256Of(path.join(unpacked, 'blobs', blob))) !== path.basename(blob)) {
        throw new CliError(`blob ${path.basename(blob)} in ${source} is damaged`);
      }
    }
    if (blobs.length !== manifest.blobs) {
      throw new CliError(`${source} holds ${blobs.length} blobs where its manifest lists ${manifest.blobs}`);
    }
    await loadDatabase(dataDir, manifest, path.join(unpacked, DATABASE_DUMP));
    for (const folder of FOLDERS) {
      await rename(path.join(unpacked, folder), path.join(dataDir, folder)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    }
  } catch (err) {
    // Nothing half-restored stays behind: the directory is empty again, ready for another attempt.
    for (const entry of await readdir(dataDir)) await rm(path.join(dataDir, entry), { recursive: true, force: true });
    throw err;
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
  const { blobs, keys, createdAt } = manifest;
  return { file: source, bytes: (await stat(source)).size, blobs, keys, createdAt };
}

/** A new embedded database in `dataDir` with the dump's rows: migrated as far as the backup's database was, loaded,
 *  then migrated on to this build. */
async function loadDatabase(dataDir: string, manifest: Manifest, dump: string): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate({ upTo: manifest.migrations });
    await loadTables(database.pool, manifest.tables, dumpedTable(dump));
    await database.migrate();
  } finally {
    await database.close();
  }
}
