import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentStatuses, reviewStatuses, submittalSortFields } from '../../shared/documents.js';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import {
  type CallResult,
  createFixtures,
  type Fixtures,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { ManualClock } from '../clock.js';
import {
  activeFindings,
  buildDocuments,
  type FixtureDocument,
  filterParams,
  insertDocuments,
  matches,
  type OracleFilter,
  TODAY,
} from './documents.fixtures.js';

let server: TestServer;
let fixtures: Fixtures;
let token: string;
let a1: FixtureDocument[];
let base: string;

beforeAll(async () => {
  server = await startTestServer({ clock: new ManualClock(`${TODAY}T12:00:00Z`) });
  fixtures = await createFixtures(server);
  const { orgA, orgB, projectA1, projectA2, projectB1 } = fixtures;
  a1 = buildDocuments({ organizationId: orgA.id, projectId: projectA1.id, count: 140, seed: 1, prefix: 'a1' });
  await insertDocuments(server.database.db, [
    ...a1,
    ...buildDocuments({
      organizationId: orgA.id,
      projectId: projectA1.id,
      count: 30,
      seed: 2,
      prefix: 'a1x',
      formats: ['rfi', 'change', 'bulletin'],
    }),
    ...buildDocuments({ organizationId: orgA.id, projectId: projectA2.id, count: 12, seed: 3, prefix: 'a2' }),
    ...buildDocuments({ organizationId: orgB.id, projectId: projectB1.id, count: 15, seed: 4, prefix: 'b1' }),
  ]);
  token = (await fixtures.client(['document:read'], { orgs: [orgA.id] })).token;
  base = `/v1/organization/${orgA.id}/project/${projectA1.id}/document/submittals`;
}, 60_000);
afterAll(async () => {
  await server.close();
});

const url = (params: Record<string, string | number | undefined>) => {
  const query = new URLSearchParams(
    Object.entries(params).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();
  return query ? `${base}?${query}` : base;
};

const get = async (
  params: Record<string, string | number | undefined>,
  init: { headers?: Record<string, string> } = {},
) => server.call(url(params), { token, headers: init.headers });

/** Every row of a list, page by page (limit 50), checking that no page repeats a uid. */
async function walk(params: Record<string, string | number | undefined>, limit = 50) {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let total = -1;
  do {
    const res = await get({ ...params, limit, cursor });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    total = res.body.total;
    expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
    cursor = res.body.nextCursor ?? undefined;
    pages += 1;
    expect(pages).toBeLessThan(500);
  } while (cursor);
  expect(new Set(rows.map((row) => row.uid)).size).toBe(rows.length);
  return { rows, total, uids: rows.map((row) => row.uid as string) };
}

/** The same list as CSV: the unpaged query, in order. */
async function csvUids(params: Record<string, string | number | undefined>) {
  const res = await get(params, { headers: { accept: 'text/csv' } });
  expect(res.status).toBe(200);
  const lines = (res.body as string).split('\r\n').filter(Boolean);
  expect(lines[0]?.startsWith('uid,id,')).toBe(true);
  return lines.slice(1).map((line) => line.split(',')[0] as string);
}

const expectedUids = (f: OracleFilter) =>
  a1
    .filter((d) => matches(d, f))
    .map((d) => d.id)
    .sort();

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
      token = (await fixtures.client(['document:read'], { orgs: [fixtures.orgA.id] })).token;
      const later = await walk({ 'filter.overdue': 'true' });
      expect(later.total).toBeGreaterThan(overdue.total);
      for (const row of later.rows) expect((row.dueDate as string) < '2025-07-20').toBe(true);
    } finally {
      server.clock.set(`${TODAY}T12:00:00Z`);
      token = original;
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

  describe('search', () => {
    it('finds partial numbers (trigram) and words of the title in the requested order', async () => {
      const partial = await walk({ search: 'SUB-a1-001', sortBy: 'createdAt', sortOrder: 'asc' });
      expect([...partial.uids].sort()).toEqual(
        a1
          .filter((d) => d.number.includes('SUB-a1-001'))
          .map((d) => d.id)
          .sort(),
      );
      const times = partial.rows.map((r) => r.createdAt as string);
      expect(times).toEqual([...times].sort());
      const word = await walk({ search: 'glazing' });
      const expected = a1.filter((d) => d.title.startsWith('Glazing') || d.divisionTitle?.includes('Glazing'));
      expect([...word.uids].sort()).toEqual(expected.map((d) => d.id).sort());
    });

    it('matches stemmed words of the searchable text and tolerates a misspelling', async () => {
      const stemmed = await walk({ search: 'waterproofed' });
      expect([...stemmed.uids].sort()).toEqual(
        a1
          .filter((d) => d.divisionTitle?.includes('Waterproofing'))
          .map((d) => d.id)
          .sort(),
      );
      const misspelt = await walk({ search: 'Elevater' });
      expect([...misspelt.uids].sort()).toEqual(
        a1
          .filter((d) => d.title.startsWith('Elevator'))
          .map((d) => d.id)
          .sort(),
      );
    });

    it('never matches project or organization names', async () => {
      expect((await get({ search: 'Pier Terminal' })).body.total).toBe(0);
      expect((await get({ search: 'Harbor' })).body.total).toBe(0);
    });

    it('treats search syntax and LIKE wildcards as text', async () => {
      for (const text of ['%', '_', '"unclosed', 'a & | !b', '\\']) {
        const res = await get({ search: text });
        expect(res.status, text).toBe(200);
      }
      expect((await get({ search: '%' })).body.total).toBe(0);
    });
  });

  describe('CSV', () => {
    const csv = (params: Record<string, string | number | undefined>) =>
      get(params, { headers: { accept: 'text/csv' } });

    it('streams every filtered row with a header, quoting and a file name', async () => {
      const res = await csv({ 'filter.open': 'true' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="submittals-${fixtures.projectA1.id}.csv"`,
      );
      const lines = (res.body as string).split('\r\n').filter(Boolean);
      expect(lines[0]).toBe(
        'uid,id,referenceNumber,title,format,type,status,reviewStatus,priority,divisionTitle,dueDate,receivedAt,issuedAt,closedAt,createdAt,updatedAt,projectId,projectName,organizationId,organizationName,ballInCourt,assignees,approvers,distributionRecipients,consultants,activityCount',
      );
      expect(lines).toHaveLength(1 + expectedUids({ open: true }).length);
      expect(res.body).toContain('Site Office <site@harbor.test>');
      expect(res.body).not.toContain('WARNING');
    });

    it('neutralises formulas and quotes commas and quotes', async () => {
      const { orgA, projectA2 } = fixtures;
      const [evil, quoted] = buildDocuments({
        organizationId: orgA.id,
        projectId: projectA2.id,
        count: 2,
        seed: 5,
        prefix: 'csv',
      });
      await insertDocuments(server.database.db, [
        { ...(evil as FixtureDocument), title: '=HYPERLINK("http://evil.test","x")', divisionTitle: '@SUM(1)' },
        { ...(quoted as FixtureDocument), title: 'Steel, "grade" 50', divisionTitle: '-2+3' },
      ]);
      const res = await server.call(
        `/v1/organization/${orgA.id}/project/${projectA2.id}/document/submittals?search=csv`,
        { token, headers: { accept: 'text/csv' } },
      );
      expect(res.status).toBe(200);
      expect(res.body).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
      expect(res.body).toContain(",'@SUM(1),");
      expect(res.body).toContain(',"Steel, ""grade"" 50",');
      expect(res.body).toContain(",'-2+3,");
    });

    it('cuts at limit with a final truncation row; clamps a huge limit and still answers 200', async () => {
      const cut = await csv({ limit: 7 });
      const lines = (cut.body as string).split('\r\n').filter(Boolean);
      expect(lines).toHaveLength(1 + 7 + 1);
      expect(lines.at(-1)).toBe('# WARNING: truncated at 7 rows');
      const clamped = await csv({ limit: 5_000_000 });
      expect(clamped.status).toBe(200);
      expect((clamped.body as string).split('\r\n').filter(Boolean)).toHaveLength(1 + 140);
      expect((await csv({ limit: 0 })).status).toBe(400);
    });

    it('adds a reviewHints column only when asked', async () => {
      const res = await csv({ include: 'reviewHints', 'filter.reviewHint': 'high', limit: 3 });
      expect((res.body as string).split('\r\n')[0]).toMatch(/,reviewHints$/);
      expect(res.body).toMatch(/(spec\/mismatch|quality\/required): Finding/);
    });
  });
});

describeAuthMatrix('submittals', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/document/submittals',
  access: { permission: 'document:read', scope: 'project' },
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
