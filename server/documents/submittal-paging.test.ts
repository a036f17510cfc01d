import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentStatuses, reviewStatuses, submittalSortFields } from '../../shared/documents.js';
import { buildDocuments, type FixtureDocument, filterParams, insertDocuments } from './documents.fixtures.js';
import { a1, csvUids, expectedUids, fixtures, get, server, token, walk } from './submittals.fixtures.js';

describe('GET …/document/submittals', () => {
  it('pages walked with random filters, sorts and limits equal the unpaged query (fast-check)', async () => {
    const filterArb = fc.record(
      {
        status: fc.subarray([...documentStatuses], { minLength: 1, maxLength: 6 }),
        reviewStatus: fc.subarray([...reviewStatuses], { minLength: 1, maxLength: 5 }),
        open: fc.constant(true),
        overdue: fc.constant(true),
        reviewHint: fc.constantFrom('high' as const, 'any' as const),
        dueDate: fc.constantFrom<[string, string]>(
          ['2025-05-15', ''],
          ['', '2025-06-30'],
          ['2025-05-01', '2025-07-01'],
        ),
        closedAt: fc.constantFrom<[string, string]>(['2025-02-01', ''], ['', '2025-03-15']),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        filterArb,
        fc.constantFrom(...submittalSortFields),
        fc.constantFrom('asc', 'desc'),
        fc.integer({ min: 4, max: 50 }),
        async (filter, sortBy, sortOrder, limit) => {
          const params = { ...filterParams(filter), sortBy, sortOrder };
          const paged = await walk(params, limit);
          expect(paged.uids).toEqual(await csvUids(params));
          expect([...paged.uids].sort()).toEqual(expectedUids(filter));
          expect(paged.total).toBe(paged.uids.length);
        },
      ),
      { numRuns: 25, seed: 20250615 },
    );
  }, 120_000);

  it('never repeats or skips a row when rows are inserted between page requests', async () => {
    const { orgA, projectA1 } = fixtures;
    const params = { sortBy: 'dueDate', sortOrder: 'asc' };
    const first = await get({ ...params, limit: 30 });
    const seen: string[] = first.body.data.map((r: { uid: string }) => r.uid);
    const last = first.body.data.at(-1) as { dueDate: string; uid: string };
    // Rows before, exactly at, and after the cursor position, plus one with a null due date.
    const inserted = buildDocuments({
      organizationId: orgA.id,
      projectId: projectA1.id,
      count: 4,
      seed: 9,
      prefix: 'ins',
    });
    inserted[0] = { ...(inserted[0] as FixtureDocument), dueDate: '2025-01-01' };
    inserted[1] = { ...(inserted[1] as FixtureDocument), dueDate: last.dueDate, id: `${last.uid}0` };
    inserted[2] = { ...(inserted[2] as FixtureDocument), dueDate: '2025-12-31' };
    inserted[3] = { ...(inserted[3] as FixtureDocument), dueDate: null };
    await insertDocuments(server.database.db, inserted);
    try {
      let cursor = first.body.nextCursor as string | null;
      while (cursor) {
        const res = await get({ ...params, limit: 30, cursor });
        expect(res.status).toBe(200);
        seen.push(...res.body.data.map((r: { uid: string }) => r.uid));
        cursor = res.body.nextCursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const doc of a1) expect(seen).toContain(doc.id);
      // Rows that sort after the cursor show up; the one before it does not.
      expect(seen).not.toContain(inserted[0]?.id);
      for (const doc of inserted.slice(1)) expect(seen).toContain(doc.id);
    } finally {
      await server.database.db.execute(
        (await import('drizzle-orm')).sql`delete from documents where id like 'ins_%' or id = ${`${last.uid}0`}`,
      );
    }
  });

  it('refuses a cursor reused with other filters or sort, and a forged cursor (400)', async () => {
    const first = await get({ 'filter.open': 'true', limit: 5 });
    const cursor = first.body.nextCursor as string;
    expect((await get({ 'filter.open': 'true', limit: 5, cursor })).status).toBe(200);
    for (const other of [{ 'filter.overdue': 'true' }, { sortBy: 'title' }, { sortOrder: 'asc' }, { search: 'beam' }]) {
      const res = await get({ 'filter.open': 'true', ...other, cursor });
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe('bad_request');
    }
    expect((await get({ cursor: 'bm90LWEtY3Vyc29y' })).status).toBe(400);
    const documents = await server.call(
      `/v1/organization/${fixtures.orgA.id}/project/${fixtures.projectA1.id}/documents?cursor=${cursor}`,
      { token },
    );
    expect(documents.status).toBe(400);
  });

  it('answers bad parameters with a 400 naming them', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ limit: '51' }, 'limit'],
      [{ limit: '0' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ sortBy: 'priority' }, 'sortBy'],
      [{ sortOrder: 'up' }, 'sortOrder'],
      [{ 'filter.status': 'finished' }, 'filter.status'],
      [{ 'filter.status': 'x'.repeat(501) }, 'filter.status'],
      [{ 'filter.reviewStatus': 'approved' }, 'filter.reviewStatus'],
      [{ 'filter.open': 'yes' }, 'filter.open'],
      [{ 'filter.overdue': 'false' }, 'filter.overdue'],
      [{ 'filter.reviewHint': 'low' }, 'filter.reviewHint'],
      [{ include: 'everything' }, 'include'],
      [{ includeMeta: '1' }, 'includeMeta'],
      [{ search: 's'.repeat(501) }, 'search'],
      [{ 'filter.dueDate': '2025-01-01' }, 'filter.dueDate'],
      [{ 'filter.dueDate': '2025-02-30,' }, 'filter.dueDate'],
      [{ 'filter.dueDate': '2025-03-01,2025-02-01' }, 'filter.dueDate'],
      [{ 'filter.closedAt': '2025-01-01,2025-02-01,' }, 'filter.closedAt'],
      [{ 'filter.statuss': 'draft' }, 'filter.statuss'],
    ];
    for (const [params, name] of cases) {
      const res = await get(params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.errorCode).toBe('validation_failed');
      expect(JSON.stringify([res.body.error, res.body.details])).toContain(name);
    }
  });
});
