import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import {
  all,
  ctx,
  expectDocuments,
  fixtures,
  ids,
  type Params,
  query,
  server,
  sorted,
  staff,
  walk,
} from './document-lists.fixtures.js';
import type { FixtureDocument } from './documents.fixtures.js';

describe('GET /v1/admin/documents/submittals', () => {
  const path = '/v1/admin/documents/submittals';
  const submittals = () => all.filter((d) => d.format === 'submittal');

  it('lists submittals of every organization, narrowed by organizationId and projectId', async () => {
    const everything = await walk(path, {});
    expect(sorted(everything.uids)).toEqual(ids(submittals()));
    expect(everything.total).toBe(submittals().length);
    const orgB = await walk(path, { organizationId: fixtures.orgB.id });
    expect(sorted(orgB.uids)).toEqual(ids(submittals().filter((d) => d.organizationId === fixtures.orgB.id)));
    const a2 = await walk(path, { projectId: fixtures.projectA2.id });
    expect(sorted(a2.uids)).toEqual(ids(submittals().filter((d) => d.projectId === fixtures.projectA2.id)));
    expect(a2.rows[0]?.projectName).toBe('Dockside Offices');
  });

  it('filters by divisionTitle (case-insensitive contains) and the four date ranges', async () => {
    const division = await walk(path, { 'filter.divisionTitle': 'waterPROOF' });
    expect(sorted(division.uids)).toEqual(ids(submittals().filter((d) => d.divisionTitle?.includes('Waterproof'))));
    const inDay = (v: string | null, from: string, to: string) =>
      v !== null && v.slice(0, 10) >= from && v.slice(0, 10) <= to;
    const cases: [string, keyof FixtureDocument][] = [
      ['filter.createdAt', 'createdAt'],
      ['filter.receivedAt', 'receivedAt'],
      ['filter.closedAt', 'closedAt'],
      ['filter.dueDate', 'dueDate'],
    ];
    for (const [param, field] of cases) {
      const [from, to] = field === 'dueDate' ? ['2025-05-20', '2025-06-30'] : ['2025-01-20', '2025-02-10'];
      const res = await walk(path, { [param]: `${from},${to}` });
      const expected = submittals().filter((d) => inDay(d[field] as string | null, from, to));
      expect(expected.length, param).toBeGreaterThan(0);
      expect(sorted(res.uids), param).toEqual(ids(expected));
    }
  });

  it('combines the project-list filters with the admin ones', async () => {
    const res = await walk(path, {
      organizationId: fixtures.orgA.id,
      'filter.open': 'true',
      'filter.reviewStatus': 'pending,reviewed,rejected,for-record-only',
      'filter.createdAt': '2025-01-10,',
    });
    const terminal = ['closed', 'cancelled', 'locked', 'accepted', 'approved'];
    const expected = submittals().filter(
      (d) =>
        d.organizationId === fixtures.orgA.id &&
        !terminal.includes(d.status) &&
        ['pending', 'reviewed', 'rejected', 'for-record-only'].includes(d.reviewStatus ?? '') &&
        d.createdAt >= '2025-01-10',
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(sorted(res.uids)).toEqual(ids(expected));
  });

  it('takes the generic list’s filters too: status, format, type, assignee (either spelling)', async () => {
    const check = async (params: Params, expected: FixtureDocument[]) => {
      expect(expected.length, JSON.stringify(params)).toBeGreaterThan(0);
      expect(expected.length, JSON.stringify(params)).toBeLessThan(submittals().length);
      const res = await walk(path, params);
      expect(sorted(res.uids), JSON.stringify(params)).toEqual(ids(expected));
      expect(res.total).toBe(expected.length);
    };
    await check(
      { status: 'draft,returned' },
      submittals().filter((d) => ['draft', 'returned'].includes(d.status)),
    );
    await check(
      {
        status: 'draft,pending,submitted,with-consultants',
        'filter.status': 'with-consultants,submitted,pending,draft',
        format: 'submittal',
        type: 'Submittal',
        assigneeId: 'usr_kim',
      },
      submittals().filter(
        (d) =>
          ['draft', 'pending', 'submitted', 'with-consultants'].includes(d.status) &&
          d.assignees.some((a) => a.userId === 'usr_kim'),
      ),
    );
    await check(
      { 'filter.type': 'Submittal', assigneeName: 'SHAH' },
      submittals().filter((d) => d.assignees.some((a) => a.name.includes('Shah'))),
    );
    expect((await walk(path, { type: 'RFI' })).uids).toEqual([]);
  });

  it('refuses another format and a disagreeing second spelling; an unsupported sortBy falls back to createdAt', async () => {
    for (const params of [{ format: 'rfi' }, { status: 'draft', 'filter.status': 'pending' }]) {
      const res = await server.call(`${path}?${query(params)}`, { token: staff });
      expect(res.status, JSON.stringify(params)).toBe(400);
    }
    const fallback = await walk(path, { sortBy: 'priority', sortOrder: 'asc' });
    const created = await walk(path, { sortBy: 'createdAt', sortOrder: 'asc' });
    expect(fallback.uids).toEqual(created.uids);
    const received = await walk(path, { sortBy: 'receivedAt', sortOrder: 'asc' });
    expect(received.uids).not.toEqual(created.uids);
  });

  it('gives platform-wide meta values without counts, and counts within an organization', async () => {
    const wide = await server.call(`${path}?includeMeta=true&limit=1`, { token: staff });
    expect(wide.body.meta.filters.status[0]).toEqual({ value: 'draft' });
    const scoped = await server.call(`${path}?includeMeta=true&limit=1&organizationId=${fixtures.orgB.id}`, {
      token: staff,
    });
    const draft = scoped.body.meta.filters.status.find((s: { value: string }) => s.value === 'draft');
    expect(draft.count).toBe(
      submittals().filter((d) => d.organizationId === fixtures.orgB.id && d.status === 'draft').length,
    );
  });

  it('streams CSV across organizations', async () => {
    const res = await server.call(`${path}?limit=5`, { token: staff, headers: { accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="submittals.csv"');
    const lines = (res.body as string).split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(1 + 5 + 1);
    expect(lines.at(-1)).toBe('# WARNING: truncated at 5 rows');
  });
});

describeAuthMatrix('admin submittals', ctx, {
  method: 'GET',
  path: '/v1/admin/documents/submittals',
  expectOk: expectDocuments,
});
