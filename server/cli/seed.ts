import { SingleBar } from 'cli-progress';
import type { BlobStore } from '../blobs/store.js';
import type { Db } from '../db/connection.js';
import { hasOrganizations } from '../seed/queries.js';
import { type SeedScale, type SeedSummary, seedDatabase } from '../seed/seed.js';

/** A failure the CLI reports as one line (bad arguments, nothing to act on). */
export class CliError extends Error {}

function summaryLine(summary: SeedSummary, ms: number): string {
  const c = summary.counts;
  const n = (table: string) => (c[table] ?? 0).toLocaleString('en-US');
  return (
    `Seeded ${summary.scale} (seed ${summary.seed}): ${n('organizations')} organizations, ${n('projects')} projects, ` +
    `${n('users')} users, ${n('documents')} documents, ${n('activity')} activity rows, ${n('email_messages')} e-mails, ` +
    `${n('drawings')} drawings, ${n('reports')} reports; ${summary.totalRows.toLocaleString('en-US')} rows in ` +
    `${(ms / 1000).toFixed(1)} s (${Math.round((summary.totalRows / ms) * 1000).toLocaleString('en-US')} rows/s)`
  );
}

/** Seeds an empty database with a progress bar on stderr and a summary line at the end. */
export async function runSeed(
  db: Db,
  blobs: BlobStore,
  options: { scale: SeedScale; seed: number; now?: Date },
): Promise<SeedSummary & { ms: number }> {
  const { scale, seed } = options;
  if (await hasOrganizations(db)) throw new CliError('The database already has data; seed needs an empty database');
  const bar = new SingleBar({
    stream: process.stderr,
    format: `Seeding ${scale} [{bar}] {value}/{total} steps | {phase} | {rows} rows | {duration_formatted}`,
    hideCursor: true,
  });
  bar.start(1, 0, { rows: 0, phase: 'loading' });
  const started = performance.now();
  const summary = await seedDatabase(db, blobs, {
    scale,
    seed,
    now: options.now ?? new Date(),
    onProgress: ({ phase, done, total, rows }) => {
      bar.setTotal(total);
      bar.update(done, {
        phase: phase === 'indexing' ? 'building indexes' : phase,
        rows: rows.toLocaleString('en-US'),
      });
    },
  });
  bar.stop();
  const ms = performance.now() - started;
  process.stderr.write(`${summaryLine(summary, ms)}\n`);
  return { ...summary, ms };
}
