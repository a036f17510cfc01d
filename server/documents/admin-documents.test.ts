import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import {
  all,
  ctx,
  expectDocuments,
  fixtures,
  formats,
  ids,
  type Params,
  query,
  server,
  sorted,
  staff,
  walk,
} from './document-lists.fixtures.js';
import type { FixtureDocument } from './documents.fixtures.js';

describe('GET /v1/admin/documents', () => {
  const path = '/v1/admin/documents';

  it('lists every document with only the Document fields unless included', async () => {
    const res = await walk(path, {});
    expect(sorted(res.uids)).toEqual(ids(all));
    expect(res.total).toBe(all.length);
    expect(Object.keys(res.rows[0] ?? {}).sort()).toEqual(
      [
        'uid',
        'id',
        'format',
        'type',
        'title',
        'status',
        'priority',
        'dueDate',
        'issuedAt',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
  });

  it('adds activityCount, assignees and consultants only when included', async () => {
    const res = await walk(path, { include: 'activityCount,assignees,consultants', organizationId: fixtures.orgB.id });
    for (const row of res.rows) {
      const doc = all.find((d) => d.id === row.uid) as FixtureDocument;
      expect(row.activityCount).toBe(doc.activityCount);
      expect(sorted((row.assignees as { userId: string }[]).map((a) => a.userId))).toEqual(
        sorted(doc.assignees.map((a) => a.userId)),
      );
      expect(row.consultants).toEqual([{ type: 'structural', status: 'pending' }]);
    }
    const some = await server.call(`${path}?include=assignees&limit=2`, { token: staff });
    expect(some.body.data[0]).toHaveProperty('assignees');
    expect(some.body.data[0]).not.toHaveProperty('activityCount');
    expect(some.body.data[0]).not.toHaveProperty('consultants');
  });

  it('filters by format, type, status (either spelling), assignee id and name, due and created ranges', async () => {
    const check = async (params: Params, expected: FixtureDocument[]) => {
      expect(expected.length, JSON.stringify(params)).toBeGreaterThan(0);
      expect(expected.length, JSON.stringify(params)).toBeLessThan(all.length);
      const res = await walk(path, params);
      expect(sorted(res.uids), JSON.stringify(params)).toEqual(ids(expected));
      expect(res.total).toBe(expected.length);
    };
    await check(
      { format: 'rfi,change' },
      all.filter((d) => ['rfi', 'change'].includes(d.format)),
    );
    await check(
      { 'filter.format': 'bulletin' },
      all.filter((d) => d.format === 'bulletin'),
    );
    await check(
      { type: 'RFI,SI' },
      all.filter((d) => ['RFI', 'SI'].includes(d.type)),
    );
    await check(
      { 'filter.type': 'CO' },
      all.filter((d) => d.type === 'CO'),
    );
    await check(
      { status: 'draft,returned' },
      all.filter((d) => ['draft', 'returned'].includes(d.status)),
    );
    await check(
      { 'filter.status': 'pending', format: 'submittal' },
      all.filter((d) => d.status === 'pending' && d.format === 'submittal'),
    );
    await check(
      { status: 'pending,draft', 'filter.status': 'draft,pending' },
      all.filter((d) => ['draft', 'pending'].includes(d.status)),
    );
    await check(
      { assigneeId: 'usr_kim' },
      all.filter((d) => d.assignees.some((a) => a.userId === 'usr_kim')),
    );
    await check(
      { assigneeName: 'SHAH' },
      all.filter((d) => d.assignees.some((a) => a.name.includes('Shah'))),
    );
    await check(
      { 'filter.dueDate': '2025-06-01,2025-06-30' },
      all.filter((d) => d.dueDate !== null && d.dueDate >= '2025-06-01' && d.dueDate <= '2025-06-30'),
    );
    await check(
      { 'filter.createdAt': ',2025-01-31', organizationId: fixtures.orgA.id, projectId: fixtures.projectA1.id },
      all.filter((d) => d.createdAt < '2025-02-01' && d.projectId === fixtures.projectA1.id),
    );
  });

  it('refuses the two spellings of a filter when they disagree (400)', async () => {
    for (const params of [
      { format: 'rfi', 'filter.format': 'change' },
      { status: 'draft', 'filter.status': 'draft,pending' },
    ]) {
      const res = await server.call(`${path}?${query(params)}`, { token: staff });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/disagree/);
    }
  });

  it('refuses type=report and type=minute (reports are listed apart), never answering an empty list', async () => {
    for (const [name, value] of [
      ['type', 'report'],
      ['filter.type', 'minute'],
      ['type', 'RFI,minute'],
    ]) {
      const res = await server.call(`${path}?${name}=${value}`, { token: staff });
      expect(res.status, value).toBe(400);
      expect(res.body.details).toEqual([
        { path: name, message: expect.stringMatching(/^report and minute are reports/) },
      ]);
    }
    const project = `/v1/organization/${fixtures.orgA.id}/project/${fixtures.projectA1.id}/documents?type=report`;
    const key = await fixtures.client(['document:read'], { orgs: [fixtures.orgA.id] });
    expect((await server.call(project, { token: key.token })).status).toBe(400);
    const submittalList = await server.call('/v1/admin/documents/submittals?type=minute', { token: staff });
    expect(submittalList.status).toBe(400);
  });

  it('falls back to createdAt for an unsupported sortBy, and sorts by the supported ones', async () => {
    const fallback = await walk(path, { sortBy: 'priority', sortOrder: 'asc' });
    const created = await walk(path, { sortBy: 'createdAt', sortOrder: 'asc' });
    expect(fallback.uids).toEqual(created.uids);
    const times = created.rows.map((r) => r.createdAt as string);
    expect(times).toEqual([...times].sort());
    const due = await walk(path, { sortBy: 'dueDate', sortOrder: 'desc' });
    const dues = due.rows.map((r) => r.dueDate as string | null);
    const withDate = dues.filter((d): d is string => d !== null);
    expect(dues).toEqual([...[...withDate].sort().reverse(), ...dues.filter((d) => d === null)]);
  });

  it('walks equal the unpaged CSV for random filters, sorts and limits (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            format: fc.subarray(formats, { minLength: 1 }).map((f) => f.join(',')),
            organizationId: fc.constantFrom(fixtures.orgA.id, fixtures.orgB.id),
            assigneeName: fc.constantFrom('pat', 'kim'),
            'filter.dueDate': fc.constantFrom('2025-05-20,', ',2025-06-10'),
          },
          { requiredKeys: [] },
        ),
        fc.constantFrom('createdAt', 'updatedAt', 'dueDate', 'title'),
        fc.constantFrom('asc', 'desc'),
        fc.integer({ min: 3, max: 50 }),
        async (filters, sortBy, sortOrder, limit) => {
          const params = { ...filters, sortBy, sortOrder };
          const paged = await walk(path, params, staff, limit);
          const csv = await server.call(`${path}?${query(params)}`, { token: staff, headers: { accept: 'text/csv' } });
          const csvUids = (csv.body as string)
            .split('\r\n')
            .filter(Boolean)
            .slice(1)
            .map((line) => line.split(',')[0]);
          expect(paged.uids).toEqual(csvUids);
          expect(paged.total).toBe(csvUids.length);
        },
      ),
      { numRuns: 20, seed: 7 },
    );
  }, 120_000);

  it('validates its parameters', async () => {
    for (const params of [
      { format: 'memo' },
      { type: 'rfi' },
      { assigneeName: 'x'.repeat(201) },
      { 'filter.createdAt': 'yesterday' },
      { include: 'reviewHints' },
      { limit: 51 },
      { organisationId: 'org_x' },
    ]) {
      const res = await server.call(`${path}?${query(params)}`, { token: staff });
      expect(res.status, JSON.stringify(params)).toBe(400);
    }
  });
});

describeAuthMatrix('admin documents', ctx, {
  method: 'GET',
  path: '/v1/admin/documents',
  expectOk: expectDocuments,
});
