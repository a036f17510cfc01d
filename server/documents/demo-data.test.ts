import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentStatuses, reviewStatuses, terminalStatuses } from '../../shared/documents.js';
import { configureFixtureServer, f as fixtures, server } from '../../test/fixture-server.js';
import { ManualClock } from '../clock.js';
import { type SeedSummary, seedDatabase } from '../seed/seed.js';
import { type Params, query, walkList } from './documents.fixtures.js';

// The same lists over the demo data of the seed generator: invariants a user would check by hand
// (every row satisfies its filters, pages equal the unpaged export, counts add up).
const NOW = '2025-06-15T12:00:00Z';
let seeded: SeedSummary;

configureFixtureServer({ clock: new ManualClock(NOW) });

beforeAll(async () => {
  seeded = await seedDatabase(server.database.db, server.app.context.blobs, {
    scale: 'demo',
    seed: 1,
    now: new Date(NOW),
  });
}, 180_000);

const walk = (path: string, params: Params, limit = 50, token = fixtures.staff.token) =>
  walkList(server, path, params, token, limit);

const firstProject = () => {
  const org = seeded.organizations[0];
  const project = org?.projects[0];
  if (!org || !project) throw new Error('demo data has no project');
  return { orgId: org.id, projectId: project.id };
};

describe('submittal lists on the demo data', () => {
  it('every row satisfies random filter combinations, and walks equal the CSV export', async () => {
    const { projectId } = firstProject();
    const path = '/v1/admin/documents/submittals';
    const terminal = new Set<string>(terminalStatuses);
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            'filter.status': fc.subarray([...documentStatuses], { minLength: 1, maxLength: 5 }).map((s) => s.join(',')),
            'filter.reviewStatus': fc
              .subarray([...reviewStatuses], { minLength: 1, maxLength: 4 })
              .map((s) => s.join(',')),
            'filter.open': fc.constant('true'),
            'filter.overdue': fc.constant('true'),
            'filter.reviewHint': fc.constantFrom('high', 'any'),
            'filter.dueDate': fc.constantFrom('2025-05-01,', ',2025-06-30', '2025-06-01,2025-07-15'),
            projectId: fc.constant(projectId),
          },
          { requiredKeys: [] },
        ),
        fc.constantFrom('createdAt', 'dueDate', 'title', 'closedAt', 'referenceNumber'),
        fc.constantFrom('asc', 'desc'),
        fc.integer({ min: 10, max: 50 }),
        async (filters, sortBy, sortOrder, limit) => {
          const params = { ...filters, sortBy, sortOrder, include: 'reviewHints' };
          const { rows, total, uids } = await walk(path, params, limit);
          expect(new Set(uids).size).toBe(uids.length);
          expect(total).toBe(uids.length);
          for (const row of rows) {
            expect(row.format).toBe('submittal');
            if (filters.projectId) expect(row.projectId).toBe(projectId);
            if (filters['filter.status']) expect(filters['filter.status'].split(',')).toContain(row.status);
            if (filters['filter.reviewStatus'])
              expect(filters['filter.reviewStatus'].split(',')).toContain(row.reviewStatus);
            if (filters['filter.open'] || filters['filter.overdue'])
              expect(terminal.has(row.status as string)).toBe(false);
            if (filters['filter.overdue']) expect((row.dueDate as string) < NOW.slice(0, 10)).toBe(true);
            if (filters['filter.dueDate']) {
              const [from, to] = filters['filter.dueDate'].split(',');
              expect(row.dueDate).not.toBeNull();
              if (from) expect((row.dueDate as string) >= from).toBe(true);
              if (to) expect((row.dueDate as string) <= to).toBe(true);
            }
            const hints = row.reviewHints as { source: string; severity: string }[];
            if (filters['filter.reviewHint']) expect(hints.length).toBeGreaterThan(0);
            if (filters['filter.reviewHint'] === 'high')
              for (const h of hints)
                expect(`${h.source}/${h.severity}`).toMatch(/^(spec\/mismatch|quality\/required)$/);
          }
          const csv = await server.call(`${path}?${query(params)}`, {
            token: fixtures.staff.token,
            headers: { accept: 'text/csv' },
          });
          const csvUids = (csv.body as string)
            .split('\r\n')
            .filter(Boolean)
            .slice(1)
            .map((line) => line.split(',')[0]);
          expect(uids).toEqual(csvUids);
        },
      ),
      { numRuns: 15, seed: 3 },
    );
  }, 180_000);

  it('the CSV export, from the start or from a cursor, has the rows of the walk in its order for every sort', async () => {
    const path = '/v1/admin/documents/submittals';
    const csvUids = async (params: Params) => {
      const csv = await server.call(`${path}?${query(params)}`, {
        token: fixtures.staff.token,
        headers: { accept: 'text/csv' },
      });
      expect(csv.status).toBe(200);
      return (csv.body as string)
        .split('\r\n')
        .filter(Boolean)
        .slice(1)
        .map((line) => line.split(',')[0]);
    };
    const sorts = ['createdAt', 'updatedAt', 'dueDate', 'title', 'receivedAt', 'closedAt', 'referenceNumber'];
    for (const sortBy of sorts) {
      for (const sortOrder of ['asc', 'desc']) {
        const params = { sortBy, sortOrder };
        const { uids } = await walk(path, params, 50);
        // More rows than the embedded export's first page (64 rows) and the next (up to four times that): its
        // later pages start after a row's key, nulls and equal sort values included.
        expect(uids.length).toBeGreaterThan(320);
        expect(await csvUids(params), `${sortBy} ${sortOrder}`).toEqual(uids);
        const first = await server.call(`${path}?${query({ ...params, limit: 30 })}`, { token: fixtures.staff.token });
        const fromCursor = await csvUids({ ...params, cursor: first.body.nextCursor });
        expect(fromCursor, `${sortBy} ${sortOrder} from a cursor`).toEqual(uids.slice(30));
      }
    }
  }, 180_000);

  it('meta counts of a project add up to its total, and each count is what the status filter returns', async () => {
    const { orgId, projectId } = firstProject();
    const path = `/v1/organization/${orgId}/project/${projectId}/document/submittals`;
    const key = await fixtures.client(['document:read'], { orgs: [orgId] });
    const res = await server.call(`${path}?includeMeta=true&limit=1`, { token: key.token });
    expect(res.status).toBe(200);
    const statuses = res.body.meta.filters.status as { value: string; count: number }[];
    expect(statuses.reduce((sum, s) => sum + s.count, 0)).toBe(res.body.total);
    for (const { value, count } of statuses.filter((s) => s.count > 0).slice(0, 4)) {
      const filtered = await server.call(`${path}?filter.status=${value}&limit=1`, { token: key.token });
      expect(filtered.body.total).toBe(count);
    }
  });

  it('finds partial numbers like RFI-00 in a project’s documents', async () => {
    const { orgId, projectId } = firstProject();
    const path = `/v1/organization/${orgId}/project/${projectId}/documents`;
    const { token } = await fixtures.client(['document:read'], { orgs: [orgId] });
    const all = await walk(path, { format: 'rfi' }, 50, token);
    const expected = all.rows.filter((r) => `${r.id} ${r.title}`.toLowerCase().includes('rfi-00'));
    expect(expected.length).toBeGreaterThan(0);
    const found = await walk(path, { search: 'RFI-00', format: 'rfi' }, 50, token);
    expect([...found.uids].sort()).toEqual(expected.map((r) => r.uid as string).sort());
  });

  it('sorts dates with nulls last in both directions', async () => {
    const { projectId } = firstProject();
    for (const sortBy of ['dueDate', 'closedAt', 'receivedAt']) {
      for (const sortOrder of ['asc', 'desc']) {
        const { rows } = await walk('/v1/admin/documents/submittals', { projectId, sortBy, sortOrder });
        const values = rows.map((r) => r[sortBy] as string | null);
        const present = values.filter((v): v is string => v !== null);
        const ordered = [...present].sort();
        expect(values).toEqual([
          ...(sortOrder === 'asc' ? ordered : ordered.reverse()),
          ...values.filter((v) => v === null),
        ]);
      }
    }
  });
});
