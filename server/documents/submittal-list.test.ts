import { describe, expect, it } from 'vitest';
import { documentStatuses, reviewStatuses, submittalSortFields } from '../../shared/documents.js';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import type { CallResult } from '../../test/harness.js';
import { activeFindings, type FixtureDocument, filterParams, type OracleFilter, TODAY } from './documents.fixtures.js';
import { a1, expectedUids, fixtures, get, server, setToken, token, walk } from './submittals.fixtures.js';

describe('GET …/document/submittals', () => {
  it('returns every spec field of a submittal, newest first, with the exact total', async () => {
    const res = await get({ limit: 3 });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(140);
    expect(res.body.data).toHaveLength(3);
    expect(res.body.hasMore).toBe(true);
    expect(res.body.meta).toEqual({});
    const row = res.body.data[0];
    const doc = a1.find((d) => d.id === row.uid) as FixtureDocument;
    expect(row).toEqual({
      uid: doc.id,
      id: doc.number,
      format: 'submittal',
      type: 'Submittal',
      title: doc.title,
      status: doc.status,
      priority: doc.priority,
      dueDate: doc.dueDate,
      issuedAt: null,
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
      activityCount: doc.activityCount,
      assignees: [...doc.assignees].sort((x, y) => (x.name < y.name ? -1 : 1)),
      consultants: [
        {
          type: 'structural',
          company: 'Stone Engineering',
          status: 'pending',
          responderName: null,
          responderEmail: null,
          respondedAt: null,
        },
      ],
      projectId: fixtures.projectA1.id,
      projectName: 'Pier 9 Terminal',
      organizationId: fixtures.orgA.id,
      organizationName: 'Harbor Construction',
      referenceNumber: doc.referenceNumber,
      divisionTitle: doc.divisionTitle,
      reviewStatus: doc.reviewStatus,
      receivedAt: doc.receivedAt,
      closedAt: doc.closedAt,
      ballInCourt: doc.assignees[0] ? { userId: doc.assignees[0].userId, name: doc.assignees[0].name } : null,
      approvers: doc.assignees.slice(0, 1).map((a) => expect.objectContaining({ userId: a.userId, status: 'pending' })),
      distributionRecipients: [{ userId: null, name: 'Site Office', email: 'site@harbor.test', company: null }],
    });
    const newest = [...a1].sort((x, y) =>
      x.createdAt === y.createdAt ? (x.id < y.id ? 1 : -1) : x.createdAt < y.createdAt ? 1 : -1,
    );
    expect(res.body.data.map((r: { uid: string }) => r.uid)).toEqual(newest.slice(0, 3).map((d) => d.id));
  });

  it('lists only the project’s submittals (no other formats, projects or organizations)', async () => {
    const { uids, total } = await walk({});
    expect(total).toBe(140);
    expect([...uids].sort()).toEqual(a1.map((d) => d.id).sort());
  });

  const single: [string, OracleFilter][] = [
    ['filter.status (one value)', { status: ['pending'] }],
    ['filter.status (OR of values)', { status: ['draft', 'closed', 'with-consultants'] }],
    ['filter.reviewStatus', { reviewStatus: ['revise-and-resubmit', 'rejected'] }],
    ['filter.open', { open: true }],
    ['filter.overdue', { overdue: true }],
    ['filter.reviewHint=high', { reviewHint: 'high' }],
    ['filter.reviewHint=any', { reviewHint: 'any' }],
    ['filter.dueDate both sides', { dueDate: ['2025-05-10', '2025-06-20'] }],
    ['filter.dueDate open end', { dueDate: ['2025-06-01', ''] }],
    ['filter.dueDate open start', { dueDate: ['', '2025-05-20'] }],
    ['filter.closedAt', { closedAt: ['2025-02-01', '2025-02-28'] }],
    ['status AND open (AND across filters)', { status: ['pending', 'closed'], open: true }],
    ['reviewHint composes with status', { reviewHint: 'high', status: ['pending', 'submitted', 'draft'] }],
    [
      'overdue AND reviewStatus AND dueDate',
      { overdue: true, reviewStatus: ['pending', 'reviewed'], dueDate: ['2025-05-01', ''] },
    ],
    ['open AND closedAt AND reviewHint', { open: true, closedAt: ['2025-01-15', ''], reviewHint: 'any' }],
  ];
  for (const [name, filter] of single) {
    it(`filters: ${name}`, async () => {
      const expected = expectedUids(filter);
      expect(expected.length, 'the fixture exercises this filter').toBeGreaterThan(0);
      expect(expected.length, 'the filter removes rows').toBeLessThan(a1.length);
      const { uids, total } = await walk(filterParams(filter), 20);
      expect([...uids].sort()).toEqual(expected);
      expect(total).toBe(expected.length);
    });
  }

  it('open excludes exactly the terminal statuses; overdue needs a due date before today (UTC)', async () => {
    const open = await walk({ 'filter.open': 'true' });
    const statuses = new Set(open.rows.map((r) => r.status));
    for (const s of ['closed', 'cancelled', 'locked', 'accepted', 'approved']) expect(statuses.has(s)).toBe(false);
    for (const s of ['draft', 'pending', 'returned', 'needs-work']) expect(statuses.has(s)).toBe(true);
    const overdue = await walk({ 'filter.overdue': 'true' });
    for (const row of overdue.rows) expect((row.dueDate as string) < TODAY).toBe(true);
    // Moving the clock forward makes more submittals overdue.
    const original = token;
    server.clock.set('2025-07-20T12:00:00Z');
    try {
      setToken((await fixtures.client(['document:read'], { orgs: [fixtures.orgA.id] })).token);
      const later = await walk({ 'filter.overdue': 'true' });
      expect(later.total).toBeGreaterThan(overdue.total);
      for (const row of later.rows) expect((row.dueDate as string) < '2025-07-20').toBe(true);
    } finally {
      server.clock.set(`${TODAY}T12:00:00Z`);
      setToken(original);
    }
  });

  it('embeds active findings with include=reviewHints, through the filter’s lens when set', async () => {
    const all = await walk({ include: 'reviewHints' });
    for (const row of all.rows) {
      const doc = a1.find((d) => d.id === row.uid) as FixtureDocument;
      expect((row.reviewHints as { title: string }[]).map((h) => h.title)).toEqual(
        activeFindings(doc, 'any').map((f) => f.title),
      );
    }
    const high = await walk({ include: 'reviewHints', 'filter.reviewHint': 'high' });
    expect(high.rows.length).toBeGreaterThan(0);
    for (const row of high.rows) {
      const hints = row.reviewHints as { source: string; severity: string }[];
      expect(hints.length).toBeGreaterThan(0);
      for (const h of hints) expect(`${h.source}/${h.severity}`).toMatch(/^(spec\/mismatch|quality\/required)$/);
    }
    const plain = await get({ limit: 1 });
    expect(plain.body.data[0]).not.toHaveProperty('reviewHints');
  });

  for (const field of submittalSortFields) {
    for (const order of ['asc', 'desc'] as const) {
      it(`sorts by ${field} ${order}, nulls last, uid as tiebreak`, async () => {
        const { rows } = await walk({ sortBy: field, sortOrder: order }, 50);
        expect(rows).toHaveLength(140);
        const keys = rows.map((r) => [r[field] as string | null, r.uid as string] as const);
        const firstNull = keys.findIndex(([v]) => v === null);
        if (firstNull >= 0) expect(keys.slice(firstNull).every(([v]) => v === null)).toBe(true);
        for (let i = 1; i < keys.length; i++) {
          const [pv, pid] = keys[i - 1] as readonly [string | null, string];
          const [v, id] = keys[i] as readonly [string | null, string];
          if (v === null && pv !== null) continue;
          const cmp = pv === v ? (pid < id ? -1 : 1) : (pv as string) < (v as string) ? -1 : 1;
          expect(cmp, `${pv}/${pid} then ${v}/${id}`).toBe(order === 'asc' ? -1 : 1);
        }
      });
    }
  }

  it('adds meta.filters with every allowed value and its count in the project', async () => {
    const res = await get({ includeMeta: 'true', 'filter.status': 'pending', limit: 1 });
    expect(res.status).toBe(200);
    const filters = res.body.meta.filters as Record<string, { value: string; count: number }[]>;
    expect(filters.status?.map((s) => s.value)).toEqual([...documentStatuses]);
    expect(filters.reviewStatus?.map((s) => s.value)).toEqual([...reviewStatuses]);
    for (const { value, count } of filters.status ?? []) {
      expect(count).toBe(a1.filter((d) => d.status === value).length);
    }
    expect(filters.priority?.map((p) => p.value)).toEqual(['high', 'low', 'normal']);
    expect(filters.priority?.find((p) => p.value === 'high')?.count).toBe(
      a1.filter((d) => d.priority === 'high').length,
    );
  });
});

describeAuthMatrix('submittals', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/document/submittals',
  expectOk: (res: CallResult) => {
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(140);
  },
});

describe('tenant isolation', () => {
  it('a key of organization A never sees organization B’s submittals, even through the plural alias', async () => {
    const res = await server.call(
      `/v1/organizations/${fixtures.orgA.id}/projects/${fixtures.projectA1.id}/document/submittals?limit=50`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.every((r: { organizationId: string }) => r.organizationId === fixtures.orgA.id)).toBe(true);
    const other = await server.call(
      `/v1/organization/${fixtures.orgB.id}/project/${fixtures.projectB1.id}/document/submittals`,
      { token },
    );
    expect(other.status).toBe(403);
  });

  it('a key scoped to one project reads that project only', async () => {
    const { orgA, projectA1, projectA2 } = fixtures;
    const key = await fixtures.client(['document:read'], { projects: [{ orgId: orgA.id, projectId: projectA2.id }] });
    const ok = await server.call(`/v1/organization/${orgA.id}/project/${projectA2.id}/document/submittals`, {
      token: key.token,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.every((r: { projectId: string }) => r.projectId === projectA2.id)).toBe(true);
    const refused = await server.call(`/v1/organization/${orgA.id}/project/${projectA1.id}/document/submittals`, {
      token: key.token,
    });
    expect(refused.status).toBe(403);
  });
});
