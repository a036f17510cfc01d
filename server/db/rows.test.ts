import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DocumentItem } from '../../shared/documents.js';
import { testServerUrl } from '../../test/harness.js';
import { type Database, openDatabase } from './connection.js';
import { rowChecker, selectRows } from './rows.js';

let database: Database;
// Literal selects only: no tables, so no migrations and no database of its own.
beforeAll(async () => {
  database = await openDatabase({ databaseUrl: testServerUrl() });
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

describe('rowChecker outside the tests (the first row of each new column set, once per process)', () => {
  const Item = z.object({ n: z.number(), label: z.string() });

  it('refuses a misnamed column on every request until it is fixed, not only the first', () => {
    const check = rowChecker(false);
    const misnamed = [{ n: 1, lable: 'a' }];
    expect(() => check(Item, misnamed)).toThrow(/label/);
    expect(() => check(Item, misnamed)).toThrow(/label/);
  });

  it('checks a column set it has not seen for the schema, and not again once it was good', () => {
    const check = rowChecker(false);
    check(Item, [{ n: 1, label: 'a' }]);
    // The same columns: not checked again, so a later row of the wrong type passes (the tests catch those).
    expect(() => check(Item, [{ n: 2, label: null }])).not.toThrow();
    // Another column set (an extra column) is new, so it is checked and refused.
    expect(() => check(Item, [{ n: 3, label: 'c', extra: true }])).toThrow(/extra/);
    // An empty page has nothing to check.
    expect(() => check(Item, [])).not.toThrow();
  });

  it('keeps column sets per schema: a set good for one schema is still checked against another', () => {
    const check = rowChecker(false);
    check(Item, [{ n: 1, label: 'a' }]);
    expect(() => check(z.object({ n: z.string(), label: z.string() }), [{ n: 1, label: 'a' }])).toThrow(/n/);
  });
});
