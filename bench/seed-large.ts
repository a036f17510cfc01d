// The large seed on the embedded PostgreSQL (a temp DATA_DIR) and on an operator's PostgreSQL (a fresh
// database, dropped afterwards): total time and rows/s for each.
//   npx tsx bench/seed-large.ts [--pg postgres://postgres@127.0.0.1:5432/postgres] [--only pg|embedded]
//                               [--scale large|demo] [--seed N]
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createFsBlobStore } from '../server/blobs/store.js';
import { runSeed } from '../server/cli/seed.js';
import { type Database, openDatabase } from '../server/db/connection.js';
import type { SeedScale } from '../server/seed/seed.js';
import { createPostgresDatabase } from '../test/harness.js';

const { values: args } = parseArgs({
  options: {
    pg: { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    only: { type: 'string' },
    scale: { type: 'string', default: 'large' },
    seed: { type: 'string', default: '1' },
  },
});
if (args.scale !== 'large' && args.scale !== 'demo') throw new Error('--scale must be large or demo');
if (args.only !== undefined && args.only !== 'pg' && args.only !== 'embedded')
  throw new Error('--only must be pg or embedded');
const scale = args.scale as SeedScale;
const seed = Number(args.seed);

interface Result {
  target: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  documents: number;
  activity: number;
  emails: number;
}

async function measure(target: string, database: Database, dataDir: string): Promise<Result> {
  try {
    await database.migrate();
    const summary = await runSeed(database.db, createFsBlobStore(path.join(dataDir, 'blobs')), { scale, seed });
    return {
      target,
      rows: summary.totalRows,
      seconds: Math.round(summary.ms / 100) / 10,
      rowsPerSecond: Math.round((summary.totalRows / summary.ms) * 1000),
      documents: summary.counts.documents ?? 0,
      activity: summary.counts.activity ?? 0,
      emails: summary.counts.email_messages ?? 0,
    };
  } finally {
    await database.close();
  }
}

async function onEmbedded(): Promise<Result> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-seed-bench-'));
  try {
    return await measure('embedded PostgreSQL', await openDatabase({ dataDir }), dataDir);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(serverUrl: string): Promise<Result> {
  const scratch = await createPostgresDatabase({ serverUrl });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-seed-bench-'));
  try {
    return await measure('PostgreSQL', await openDatabase({ databaseUrl: scratch.url }), dataDir);
  } finally {
    await scratch.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const results: Result[] = [];
if (args.only !== 'embedded') results.push(await onPostgres(args.pg));
if (args.only !== 'pg') results.push(await onEmbedded());

process.stdout.write(`\nSeed ${scale} (seed ${seed})\n`);
process.stdout.write(
  '| Database | Rows | Documents | Activity | E-mails | Time | Rows/s |\n|---|---|---|---|---|---|---|\n',
);
for (const r of results) {
  process.stdout.write(
    `| ${r.target} | ${r.rows.toLocaleString('en-US')} | ${r.documents.toLocaleString('en-US')} | ` +
      `${r.activity.toLocaleString('en-US')} | ${r.emails.toLocaleString('en-US')} | ${r.seconds} s | ` +
      `${r.rowsPerSecond.toLocaleString('en-US')} |\n`,
  );
}
if (results.length === 2) {
  process.stdout.write(
    `embedded/operator's PostgreSQL time ratio: ${(results[1]!.seconds / results[0]!.seconds).toFixed(2)}\n`,
  );
}
