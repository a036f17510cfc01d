import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPostgresDatabase } from '../../test/harness.js';
import { repoRoot } from '../paths.js';
import { openDatabase } from './connection.js';
import { selectRows } from './rows.js';

const serverUrl = process.env.DATABASE_URL;
const journal = JSON.parse(readFileSync(path.join(repoRoot, 'server/db/migrations/meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};

describe.skipIf(!serverUrl)(
  'migrations on PostgreSQL (skipped on PGlite: one process owns an embedded database)',
  () => {
    it('are applied once when several instances start on an empty database at the same moment', async () => {
      const created = await createPostgresDatabase(serverUrl!);
      const instances = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: created.url })));
      try {
        await Promise.all(instances.map((instance) => instance.migrate()));
        const [applied] = await selectRows(
          instances[0]!.db,
          sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
          z.object({ count: z.number() }),
        );
        expect(applied?.count).toBe(journal.entries.length);
        // Every instance works on the migrated schema.
        for (const instance of instances) {
          const [row] = await selectRows(
            instance.db,
            sql`select count(*)::int as count from organizations`,
            z.object({ count: z.number() }),
          );
          expect(row?.count).toBe(0);
        }
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
        await created.drop();
      }
    });
  },
);
