import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import {
  type CallResult,
  createFixtures,
  type Fixtures,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { ManualClock } from '../clock.js';
import { buildDocuments, type FixtureDocument, insertDocuments, TODAY } from './documents.fixtures.js';

// The admin lists (staff, every organization) and the generic list of one project.
let server: TestServer;
let fixtures: Fixtures;
let staff: string;
let all: FixtureDocument[];

const formats = ['submittal', 'rfi', 'change', 'bulletin', 'instruction'];

beforeAll(async () => {
  server = await startTestServer({ clock: new ManualClock(`${TODAY}T12:00:00Z`) });
  fixtures = await createFixtures(server);
  const { orgA, orgB, projectA1, projectA2, projectB1 } = fixtures;
  all = [
    ...buildDocuments({ organizationId: orgA.id, projectId: projectA1.id, count: 70, seed: 11, prefix: 'a1', formats }),
    ...buildDocuments({ organizationId: orgA.id, projectId: projectA2.id, count: 30, seed: 12, prefix: 'a2', formats }),
    ...buildDocuments({ organizationId: orgB.id, projectId: projectB1.id, count: 50, seed: 13, prefix: 'b1', formats }),
  ];
  await insertDocuments(server.database.db, all);
  staff = fixtures.staff.token;
}, 60_000);
afterAll(async () => {
  await server.close();
});

type Params = Record<string, string | number | undefined>;
const query = (params: Params) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();

async function walk(path: string, params: Params, token = staff, limit = 50) {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  let total = -1;
  do {
    const res = await server.call(`${path}?${query({ ...params, limit, cursor })}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    total = res.body.total;
    cursor = res.body.nextCursor ?? undefined;
  } while (cursor);
  const uids = rows.map((r) => r.uid as string);
  expect(new Set(uids).size).toBe(uids.length);
  return { rows, uids, total };
}

const ids = (docs: FixtureDocument[]) => docs.map((d) => d.id).sort();
const sorted = (uids: string[]) => [...uids].sort();

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

describe('GET /v1/organization/{orgId}/project/{projectId}/documents', () => {
  it('lists every document of the project and nothing else', async () => {
    const { orgA, projectA1 } = fixtures;
    const key = await fixtures.client(['document:read'], { orgs: [orgA.id] });
    const path = `/v1/organization/${orgA.id}/project/${projectA1.id}/documents`;
    const res = await walk(path, {}, key.token, 25);
    expect(sorted(res.uids)).toEqual(ids(all.filter((d) => d.projectId === projectA1.id)));
    const rfis = await walk(path, { format: 'rfi', include: 'assignees', includeMeta: 'true' }, key.token);
    expect(sorted(rfis.uids)).toEqual(ids(all.filter((d) => d.projectId === projectA1.id && d.format === 'rfi')));
    const meta = await server.call(`${path}?includeMeta=true&limit=1`, { token: key.token });
    const rfiCount = meta.body.meta.filters.format.find((f: { value: string }) => f.value === 'rfi').count;
    expect(rfiCount).toBe(rfis.total);
    expect(meta.body.meta.filters.type.map((t: { value: string }) => t.value)).toContain('Submittal');
  });

  it('refuses projectId and organizationId parameters (the path gives them)', async () => {
    const { orgA, projectA1, projectB1 } = fixtures;
    const key = await fixtures.client(['document:read'], { orgs: [orgA.id] });
    const res = await server.call(
      `/v1/organization/${orgA.id}/project/${projectA1.id}/documents?projectId=${projectB1.id}`,
      { token: key.token },
    );
    expect(res.status).toBe(400);
  });

  it('streams CSV with the included columns', async () => {
    const { orgA, projectA1 } = fixtures;
    const key = await fixtures.client(['document:read'], { orgs: [orgA.id] });
    const res = await server.call(
      `/v1/organization/${orgA.id}/project/${projectA1.id}/documents?include=assignees,activityCount`,
      { token: key.token, headers: { accept: 'text/csv' } },
    );
    const [header, ...rows] = (res.body as string).split('\r\n').filter(Boolean);
    expect(header).toBe(
      'uid,id,title,format,type,status,priority,dueDate,issuedAt,createdAt,updatedAt,activityCount,assignees',
    );
    expect(rows).toHaveLength(all.filter((d) => d.projectId === projectA1.id).length);
  });
});

const ctx = () => ({ server, fixtures });
const expectDocuments = (res: CallResult) => {
  expect(res.status).toBe(200);
  expect(Array.isArray(res.body.data)).toBe(true);
};
describeAuthMatrix('admin documents', ctx, {
  method: 'GET',
  path: '/v1/admin/documents',
  access: 'staff',
  expectOk: expectDocuments,
});
describeAuthMatrix('admin submittals', ctx, {
  method: 'GET',
  path: '/v1/admin/documents/submittals',
  access: 'staff',
  expectOk: expectDocuments,
});
describeAuthMatrix('project documents', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/documents',
  access: { permission: 'document:read', scope: 'project' },
  expectOk: (res) => {
    expectDocuments(res);
    expect(res.body.total).toBe(all.filter((d) => d.projectId === fixtures.projectA1.id).length);
  },
});
