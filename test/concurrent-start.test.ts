// What instances do once on start-up (migrations, the demo data), when several start together on one empty
// PostgreSQL database: each with its own pool, as on its own machine.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../server/config.js';
import { type Database, openDatabase } from '../server/db/connection.js';
import { selectRows } from '../server/db/rows.js';
import { repoRoot } from '../server/paths.js';
import { ensureDemoData } from '../server/seed/demo.js';
import { createPostgresDatabase } from './harness.js';

const journal = JSON.parse(readFileSync(path.join(repoRoot, 'server/db/migrations/meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};

const countOf = async (database: Database, query: ReturnType<typeof sql>) =>
  (await selectRows(database.db, query, z.object({ count: z.number() })))[0]?.count;

/** `count` instances' databases on one new PostgreSQL database; `use` runs, then everything is dropped. */
async function withInstances(count: number, use: (instances: Database[]) => Promise<void>) {
  const created = await createPostgresDatabase();
  const instances = await Promise.all(Array.from({ length: count }, () => openDatabase({ databaseUrl: created.url })));
  try {
    await use(instances);
  } finally {
    await Promise.all(instances.map((instance) => instance.close()));
    await created.drop();
  }
}

describe('instances starting together', () => {
  it('apply the migrations once, and each works on the migrated schema', async () => {
    await withInstances(3, async (instances) => {
      await Promise.all(instances.map((instance) => instance.migrate()));
      expect(await countOf(instances[0]!, sql`select count(*)::int as count from drizzle.__drizzle_migrations`)).toBe(
        journal.entries.length,
      );
      for (const instance of instances) {
        expect(await countOf(instance, sql`select count(*)::int as count from organizations`)).toBe(0);
      }
    });
  });

  it('seed the demo data once', async () => {
    await withInstances(2, async (instances) => {
      await Promise.all(instances.map((instance) => instance.migrate()));
      const now = new Date('2026-06-15T09:30:00.000Z');
      const demos = await Promise.all(
        instances.map((instance) => {
          const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-start-'));
          const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
          return ensureDemoData(instance.db, config, now);
        }),
      );
      expect(demos[0]!.organizations).toEqual(demos[1]!.organizations);
      expect(await countOf(instances[0]!, sql`select count(*)::int as count from organizations`)).toBe(
        demos[0]!.organizations.length,
      );
      expect(await countOf(instances[1]!, sql`select count(*)::int as count from users where staff`)).toBe(1);
    });
  }, 120_000);
});
