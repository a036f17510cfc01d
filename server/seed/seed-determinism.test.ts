import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness.js';
import type { Db } from '../db/connection.js';
import { blobs, db, now, rowsOf } from './seed.fixtures.js';
import { seedDatabase } from './seed.js';

/** IDs of the main tables in a stable order: what "the same data" means. */
async function fingerprint(target: Db) {
  const ids = async (table: string) =>
    (await rowsOf<{ id: string }>(target, sql.raw(`SELECT id FROM ${table} ORDER BY id`))).map((r) => r.id);
  const [counts] = await rowsOf(
    target,
    sql`SELECT (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM activity)::int AS activity,
               (SELECT count(*) FROM email_messages)::int AS emails, (SELECT count(*) FROM drawing_revisions)::int AS revisions,
               (SELECT count(*) FROM review_findings)::int AS findings, (SELECT count(*) FROM filed_emails)::int AS filed`,
  );
  return {
    counts,
    organizations: await ids('organizations'),
    projects: await ids('projects'),
    // The staff user is made by ensureDemoData, not by the seed.
    users: (await rowsOf<{ id: string }>(target, sql`SELECT id FROM users WHERE NOT staff ORDER BY id`)).map(
      (r) => r.id,
    ),
    documents: await ids('documents'),
    activity: await ids('activity'),
    emails: await ids('email_messages'),
  };
}

describe('seed determinism', () => {
  it('reproduces the same IDs and counts from the same seed, and different ones from another seed', async () => {
    const expected = await fingerprint(db);
    const same = await openTestDatabase();
    const other = await openTestDatabase();
    try {
      const indexesOf = async (target: Db) =>
        rowsOf(target, sql`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1`);
      const migratedIndexes = await indexesOf(same.db);
      await seedDatabase(same.db, blobs, { scale: 'demo', seed: 1, now });
      expect(await fingerprint(same.db)).toEqual(expected);
      // The load drops secondary indexes and rebuilds them: the schema ends up as migrated.
      expect(await indexesOf(same.db)).toEqual(migratedIndexes);
      await seedDatabase(other.db, blobs, { scale: 'demo', seed: 2, now });
      const different = await fingerprint(other.db);
      expect(different.documents).toHaveLength(expected.documents.length);
      expect(different.documents).not.toEqual(expected.documents);
      expect(different.organizations).not.toEqual(expected.organizations);
    } finally {
      await same.close();
      await other.close();
    }
  }, 180_000);
});
