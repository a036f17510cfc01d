import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DocumentItem } from '../../shared/documents.js';
import { type Database, openDatabase } from './connection.js';
import { selectRows } from './rows.js';

let database: Database;
// Literal selects only: no tables, so no migrations and no database of its own.
beforeAll(async () => {
  database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
});
afterAll(() => database.close());

/** A generic document row as documentQuery writes it, with `dueDate` spelt as `column`. */
const documentRow = (column: string, uid = 'doc_1') => sql`select ${uid} as "uid", 'RFI-001' as "id",
  'rfi' as "format", 'RFI' as "type", 'Beam size' as "title", 'draft' as "status", null as "priority",
  '2026-06-01' as ${sql.identifier(column)}, null as "issuedAt",
  '2026-05-01T08:00:00.000Z' as "createdAt", '2026-05-02T08:00:00.000Z' as "updatedAt"`;

describe('selectRows', () => {
  it('returns rows that match the wire schema as read', async () => {
    const rows = await selectRows(database.db, documentRow('dueDate'), DocumentItem);
    expect(rows).toEqual([
      {
        uid: 'doc_1',
        id: 'RFI-001',
        format: 'rfi',
        type: 'RFI',
        title: 'Beam size',
        status: 'draft',
        priority: null,
        dueDate: '2026-06-01',
        issuedAt: null,
        createdAt: '2026-05-01T08:00:00.000Z',
        updatedAt: '2026-05-02T08:00:00.000Z',
      },
    ]);
  });

  it('refuses a row whose column is misnamed: the field it lacks and the column it has no place for', async () => {
    const read = selectRows(database.db, documentRow('due_date'), DocumentItem);
    await expect(read).rejects.toThrow(/does not match its schema/);
    await expect(read).rejects.toThrow(/dueDate/);
    await expect(read).rejects.toThrow(/due_date/);
  });

  it('refuses a value of the wrong type on any row, not only the first, under the tests', async () => {
    const query = sql`select * from (values (1, 'a'), (2, 'b'), (3, null)) as t(n, label) order by n`;
    await expect(selectRows(database.db, query, z.object({ n: z.number(), label: z.string() }))).rejects.toThrow(
      /label/,
    );
  });

  it('answers no rows with an empty list', async () => {
    const query = sql`select 1 as n where false`;
    expect(await selectRows(database.db, query, z.object({ n: z.number() }))).toEqual([]);
  });
});
