import { randomBytes } from 'node:crypto';
import { hashSecret, newClientSecret } from '../auth/secrets.js';
import type { BlobStore } from '../blobs/store.js';
import type { Db } from '../db/connection.js';
import { relearnOrganization } from '../filing/service.js';
import { PdfCache } from './pdf.js';
import { generateIntegrations, generatePlatform } from './platform.js';
import { generateProject } from './project.js';
import { createIndexes, dropIndexes, secondaryIndexes } from './queries.js';
import { Rng } from './random.js';
import { type RowSet, seededTables } from './rows.js';
import { type SeedAccount, type SeedPasswords, type SeedScale, scales } from './shapes.js';

export type { SeedAccount, SeedScale };

export interface SeedProgress {
  phase: 'loading' | 'indexing' | 'done';
  /** Steps done: one per project, then one for rebuilding the indexes. */
  done: number;
  total: number;
  rows: number;
}

export interface SeedOptions {
  scale: SeedScale;
  seed: number;
  /** Every generated date is relative to this instant, so runs are reproducible. */
  now: Date;
  /** The sign-in accounts' passwords; new random ones when not given (the data stays deterministic). */
  passwords?: SeedPasswords;
  onProgress?: (progress: SeedProgress) => void;
}

export interface SeedSummary {
  scale: SeedScale;
  seed: number;
  organizations: { id: string; name: string; projects: { id: string; name: string; code: string }[] }[];
  accounts: SeedAccount[];
  /** Rows written per table. */
  counts: Record<string, number>;
  totalRows: number;
}

/** Passwords for one seeded database: random, so no two deployments share a sign-in. */
export const newSeedPasswords = (): SeedPasswords => ({
  admin: `admin-${randomBytes(9).toString('base64url')}`,
  member: `member-${randomBytes(9).toString('base64url')}`,
});

/**
 * Fills an empty database with plausible construction data, deterministic from `seed`. Rows go in
 * as multi-row inserts in batches, one transaction for the platform rows and one per project.
 */
export async function seedDatabase(db: Db, blobs: BlobStore, options: SeedOptions): Promise<SeedSummary> {
  const shape = scales[options.scale];
  const rng = new Rng(options.seed);
  const passwords = options.passwords ?? newSeedPasswords();
  const passwordHashes = { admin: await hashSecret(passwords.admin), member: await hashSecret(passwords.member) };
  // The integration keys' secret is never shown: a random one, hashed once for all of them.
  const integrationSecretHash = await hashSecret(newClientSecret());
  const platform = generatePlatform(rng, shape, options.now, passwords, passwordHashes);
  const counts: Record<string, number> = {};
  let totalRows = 0;
  let done = 0;
  const steps = platform.projects.length + 1;
  const report = (phase: SeedProgress['phase']) => options.onProgress?.({ phase, done, total: steps, rows: totalRows });
  const write = async (rows: RowSet) => {
    await db.transaction((tx) =>
      rows.write(tx, (n) => {
        totalRows += n;
        report('loading');
      }),
    );
    for (const [table, n] of Object.entries(rows.counts())) counts[table] = (counts[table] ?? 0) + n;
  };

  // One sorted build per index after the load is far cheaper than millions of incremental updates
  // (the GIN search indexes above all), so secondary indexes are dropped first and rebuilt at the end.
  const indexes = await secondaryIndexes(db, seededTables());
  await dropIndexes(db, indexes);
  try {
    await write(platform.rows);
    const pdfs = new PdfCache(blobs, options.now);
    for (const project of platform.projects) {
      // Each project draws from its own stream so one project's volume never shifts another's IDs.
      await write(await generateProject(new Rng(rng.next()), shape, options.now, project, pdfs));
      done++;
      report('loading');
    }
    // Drawn after every project so adding them left the projects' data unchanged.
    await write(generateIntegrations(new Rng(rng.next()), options.now, platform, integrationSecretHash));
  } finally {
    report('indexing');
    await createIndexes(db, indexes);
  }
  // The filed e-mails were written past the API: the suggestion model learns them as filing would have.
  for (const org of platform.orgs) await relearnOrganization(db, org.id);
  done++;
  report('done');

  return {
    scale: options.scale,
    seed: options.seed,
    organizations: platform.orgs.map((org) => ({
      id: org.id,
      name: org.name,
      projects: platform.projects.filter((p) => p.org === org).map((p) => ({ id: p.id, name: p.name, code: p.code })),
    })),
    accounts: platform.orgs.flatMap((org) => org.accounts),
    counts,
    totalRows,
  };
}
