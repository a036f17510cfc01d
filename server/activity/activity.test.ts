import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { insertDispatch } from '../comms/comms.fixtures.js';
import { activity, documents } from '../db/schema.js';

let server: TestServer;
let fixtures: Fixtures;
let token: string;

interface Row {
  id: string;
  projectId: string | null;
  actorId: string | null;
  action: string;
  createdAt: Date;
}
const orgRows: Row[] = [];
const actions = ['status_changed', 'comment_added', 'file_uploaded', 'email_sent'];
const actors = [
  { id: 'usr_ann', name: 'Ann Architect', email: 'ann@harbor.test' },
  { id: 'usr_bob', name: 'Bob Builder', email: 'bob@harbor.test' },
  { id: null, name: 'Sitefile', email: 'system@sitefile.test' },
];
const base = Date.parse('2026-05-20T00:00:00.000Z');

beforeAll(async () => {
  server = await startTestServer();
  fixtures = await createFixtures(server);
  token = (await fixtures.client(['organization:read'], { orgs: [fixtures.orgA.id] })).token;
  const projectsOfA = [fixtures.projectA1.id, fixtures.projectA2.id, null];
  // 57 rows over three "places" (two projects and the organization itself), with timestamp ties.
  for (let i = 0; i < 57; i++) {
    orgRows.push({
      id: `act_${String(i).padStart(3, '0')}`,
      projectId: projectsOfA[i % 3]!,
      actorId: actors[i % 3]!.id,
      action: actions[i % 4]!,
      createdAt: new Date(base + Math.floor(i / 2) * 3_600_000),
    });
  }
  // Around the day boundaries of 1 June (UTC).
  const edges = [
    '2026-05-31T23:59:59.999Z',
    '2026-06-01T00:00:00.000Z',
    '2026-06-01T23:59:59.999Z',
    '2026-06-02T00:00:00.000Z',
  ];
  edges.forEach((at, i) => {
    orgRows.push({
      id: `act_edge_${i}`,
      projectId: fixtures.projectA1.id,
      actorId: 'usr_ann',
      action: 'file_uploaded',
      createdAt: new Date(at),
    });
  });
  const actorById = new Map(actors.map((a) => [a.id, a]));
  await server.database.db.insert(activity).values(
    orgRows.map((row) => {
      const actor = actorById.get(row.actorId)!;
      return {
        ...row,
        organizationId: fixtures.orgA.id,
        documentId: row.projectId ? `doc_${row.id}` : null,
        actorName: actor.name,
        actorEmail: actor.email,
        title: `Entry ${row.id}`,
        details: row.action === 'status_changed' ? { from: 'pending', to: 'approved' } : null,
      };
    }),
  );
  await server.database.db.insert(activity).values({
    id: 'act_other_org',
    organizationId: fixtures.orgB.id,
    projectId: fixtures.projectB1.id,
    actorId: 'usr_ann',
    actorName: 'Ann',
    actorEmail: 'ann@harbor.test',
    action: 'status_changed',
    title: 'Elsewhere',
    createdAt: new Date(base),
  });
});
afterAll(async () => {
  await server.close();
});

const feedPath = (query = '') => `/v1/organization/${fixtures.orgA.id}/activity${query ? `?${query}` : ''}`;
const get = (query = '', t = token, headers?: Record<string, string>) =>
  server.call(feedPath(query), { token: t, headers });

const byNewest = (a: Row, b: Row) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1);
const expected = (keep: (r: Row) => boolean = () => true) =>
  orgRows
    .filter(keep)
    .sort(byNewest)
    .map((r) => r.id);

async function walk(query: string, t = token) {
  const seen: string[] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  for (let pages = 0; pages < 200; pages++) {
    const res = await get(cursor ? `${query}&cursor=${cursor}` : query, t);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    seen.push(...res.body.data.map((d: { uid: string }) => d.uid));
    totals.add(res.body.total);
    if (!res.body.hasMore) {
      expect(res.body.nextCursor).toBeNull();
      return { seen, totals: [...totals] };
    }
    cursor = res.body.nextCursor;
  }
  throw new Error('walk did not end');
}

describe('organization activity feed (JSON)', () => {
  it('returns the newest 25 entries with project, actor and total', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(orgRows.length);
    expect(res.body.hasMore).toBe(true);
    expect(res.body.data.map((d: { uid: string }) => d.uid)).toEqual(expected().slice(0, 25));
    const edge = res.body.data.find((d: { uid: string }) => d.uid === 'act_edge_3');
    expect(edge).toEqual({
      uid: 'act_edge_3',
      organizationId: fixtures.orgA.id,
      projectId: fixtures.projectA1.id,
      projectName: 'Pier 9 Terminal',
      documentId: 'doc_act_edge_3',
      actor: { uid: 'usr_ann', name: 'Ann Architect', email: 'ann@harbor.test' },
      action: 'file_uploaded',
      title: 'Entry act_edge_3',
      details: null,
      createdAt: '2026-06-02T00:00:00.000Z',
    });
  });

  it('walks every filter combination to the end with no repeats or gaps and a constant total', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 50 }),
        fc.option(fc.constantFrom(fixtures.projectA1.id, fixtures.projectA2.id), { nil: undefined }),
        fc.option(fc.constantFrom('usr_ann', 'usr_bob'), { nil: undefined }),
        fc.subarray(actions),
        async (limit, projectId, actorId, picked) => {
          const query = [
            `limit=${limit}`,
            projectId && `projectId=${projectId}`,
            actorId && `actorId=${actorId}`,
            picked.length ? `action=${picked.join(',')}` : undefined,
          ]
            .filter(Boolean)
            .join('&');
          const keep = (r: Row) =>
            (!projectId || r.projectId === projectId) &&
            (!actorId || r.actorId === actorId) &&
            (!picked.length || picked.includes(r.action));
          const { seen, totals } = await walk(query);
          expect(seen).toEqual(expected(keep));
          expect(totals).toEqual([seen.length]);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('treats from/to as inclusive UTC bounds; a date-only to covers the whole day; zones are normalised', async () => {
    const edges = async (query: string) =>
      (await walk(`${query}&limit=50`)).seen.filter((id) => id.startsWith('act_edge')).sort();
    expect(await edges('from=2026-06-01&to=2026-06-01')).toEqual(['act_edge_1', 'act_edge_2']);
    expect(await edges('to=2026-05-31')).toEqual(['act_edge_0']);
    expect(await edges('from=2026-06-02')).toEqual(['act_edge_3']);
    expect(await edges('from=2026-06-01T00:00:00.000Z&to=2026-06-01T23:59:59.999Z')).toEqual([
      'act_edge_1',
      'act_edge_2',
    ]);
    // 02:00 at +02:00 is midnight UTC on 1 June: an inclusive bound on both sides.
    const midnightPlus2 = encodeURIComponent('2026-06-01T02:00:00+02:00');
    expect(await edges(`from=${midnightPlus2}&to=${midnightPlus2}`)).toEqual(['act_edge_1']);
    expect(await edges(`from=${encodeURIComponent('2026-06-01T19:59:59.999-04:00')}`)).toEqual([
      'act_edge_2',
      'act_edge_3',
    ]);
    const res = await get('from=2026-06-01&to=2026-06-01');
    expect(res.body.total).toBe(2);
  });

  it('rejects bad parameter values with a 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=51', 'limit'],
      ['limit=-3', 'limit'],
      ['limit=ten', 'limit'],
      ['from=2026-02-30', 'from'],
      ['from=last-week', 'from'],
      ['to=2026-06-01T10:00:00', 'to'],
      ['from=2026-06-02&to=2026-06-01', 'from'],
      ['from=2026-06-01T00:00:00.001Z&to=2026-06-01T00:00:00Z', 'from'],
      [`action=${'x'.repeat(501)}`, 'action'],
      [`actorId=${'x'.repeat(201)}`, 'actorId'],
    ];
    for (const [query, name] of cases) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.body.errorCode, query).toBe('validation_failed');
      expect(res.body.error, query).toContain(name);
    }
  });

  it('rejects garbage cursors and cursors made with other filters', async () => {
    expect((await get('cursor=not-a-cursor')).status).toBe(400);
    const next = (await get('limit=5&action=file_uploaded')).body.nextCursor;
    expect((await get(`limit=5&action=file_uploaded&cursor=${next}`)).status).toBe(200);
    const reused = await get(`limit=5&action=status_changed&cursor=${next}`);
    expect(reused.status).toBe(400);
    expect(reused.body.errorCode).toBe('bad_request');
  });

  it('answers 404 for a projectId of another organization and 403 for one outside the key’s scope', async () => {
    const other = await get(`projectId=${fixtures.projectB1.id}`);
    expect(other.status).toBe(404);
    const projectKey = await fixtures.client(['organization:read'], {
      projects: [{ orgId: fixtures.orgA.id, projectId: fixtures.projectA1.id }],
    });
    const outside = await get(`projectId=${fixtures.projectA2.id}`, projectKey.token);
    expect(outside.status).toBe(403);
    expect(outside.body.error).toBe('Insufficient permissions');
  });

  it('shows a project-scoped key only the entries of its projects', async () => {
    const projectKey = await fixtures.client(['organization:read'], {
      projects: [{ orgId: fixtures.orgA.id, projectId: fixtures.projectA1.id }],
    });
    const { seen, totals } = await walk('limit=50', projectKey.token);
    expect(seen).toEqual(expected((r) => r.projectId === fixtures.projectA1.id));
    expect(totals).toEqual([seen.length]);
  });
});

describe('organization activity feed (CSV)', () => {
  const csv = (query = '', t = token) => get(query, t, { accept: 'text/csv' });
  const lines = (body: string) => body.trimEnd().split('\r\n');

  it('streams every matching entry newest first with a header row', async () => {
    const res = await csv();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = lines(res.body);
    expect(header).toBe('uid,createdAt,projectId,projectName,documentId,actorUid,actorName,actorEmail,action,title');
    expect(rows.map((r) => r.split(',')[0])).toEqual(expected());
    expect(rows).toContain(
      `act_edge_3,2026-06-02T00:00:00.000Z,${fixtures.projectA1.id},Pier 9 Terminal,doc_act_edge_3,usr_ann,Ann Architect,ann@harbor.test,file_uploaded,Entry act_edge_3`,
    );
  });

  it('applies the filters and the row cap, marking a cut export with the truncation row', async () => {
    const filtered = lines((await csv('action=email_sent&from=2026-05-21')).body).slice(1);
    expect(filtered.map((r) => r.split(',')[0])).toEqual(
      expected((r) => r.action === 'email_sent' && r.createdAt >= new Date('2026-05-21T00:00:00Z')),
    );
    const cut = lines((await csv('limit=5')).body);
    expect(cut).toHaveLength(7);
    expect(cut.slice(1, 6).map((r) => r.split(',')[0])).toEqual(expected().slice(0, 5));
    expect(cut[6]).toBe('# WARNING: truncated at 5 rows');
    const exact = lines((await csv(`limit=${orgRows.length}`)).body);
    expect(exact).toHaveLength(orgRows.length + 1);
  });

  it('clamps a row cap above 100000 (200) and rejects a non-positive one (400)', async () => {
    const clamped = await csv('limit=5000000');
    expect(clamped.status).toBe(200);
    expect(lines(clamped.body)).toHaveLength(orgRows.length + 1);
    expect((await csv('limit=0')).status).toBe(400);
    expect((await csv('from=2026-06-02&to=2026-06-01')).status).toBe(400);
  });

  it('limits a project-scoped key’s export to its projects', async () => {
    const projectKey = await fixtures.client(['organization:read'], {
      projects: [{ orgId: fixtures.orgA.id, projectId: fixtures.projectA2.id }],
    });
    const rows = lines((await csv('', projectKey.token)).body).slice(1);
    expect(rows.map((r) => r.split(',')[0])).toEqual(expected((r) => r.projectId === fixtures.projectA2.id));
  });
});

describe('document activity (admin)', () => {
  const documentId = 'doc_activity_subject';
  const docPath = (query = '') => `/v1/admin/documents/${documentId}/activity${query ? `?${query}` : ''}`;
  const staffGet = (query = '') => server.call(docPath(query), { token: fixtures.staff.token });

  beforeAll(async () => {
    const db = server.database.db;
    await db.insert(documents).values({
      id: documentId,
      organizationId: fixtures.orgA.id,
      projectId: fixtures.projectA1.id,
      number: 'RFI-007',
      format: 'rfi',
      type: 'RFI',
      title: 'Slab edge detail',
      status: 'pending',
    });
    const at = (minutes: number) => new Date(Date.parse('2026-07-01T08:00:00Z') + minutes * 60_000);
    await db.insert(activity).values([
      {
        id: 'act_doc_1',
        organizationId: fixtures.orgA.id,
        projectId: fixtures.projectA1.id,
        documentId,
        actorId: 'usr_ann',
        actorName: 'Ann Architect',
        actorEmail: 'ann@harbor.test',
        action: 'file_uploaded',
        title: 'Uploaded sketch.pdf',
        createdAt: at(0),
      },
      {
        id: 'act_doc_3',
        organizationId: fixtures.orgA.id,
        projectId: fixtures.projectA1.id,
        documentId,
        actorId: 'usr_bob',
        actorName: 'Bob Builder',
        actorEmail: 'bob@harbor.test',
        action: 'status_changed',
        title: 'Status pending → approved',
        details: { from: 'pending', to: 'approved' },
        createdAt: at(20),
      },
    ]);
    await insertDispatch(db, {
      id: 'doc_send',
      organizationId: fixtures.orgA.id,
      projectId: fixtures.projectA1.id,
      documentId,
      title: 'RFI-007 issued',
      dispatchedAt: at(10),
      recipients: [
        { email: 'zoe@client.test', state: 'opened' },
        { email: 'amy@client.test', state: 'bounced' },
      ],
    });
  });

  it('lists the document’s history newest first, without e-mails by default', async () => {
    for (const query of ['', 'includeEmails=false']) {
      const res = await staffGet(query);
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: { uid: string }) => d.uid)).toEqual(['act_doc_3', 'act_doc_send', 'act_doc_1']);
      expect(res.body.data.every((d: object) => !('emails' in d))).toBe(true);
      expect(res.body).toMatchObject({ nextCursor: null, hasMore: false });
    }
    const first = (await staffGet()).body.data[0];
    expect(first).toEqual({
      uid: 'act_doc_3',
      documentId,
      actor: { uid: 'usr_bob', name: 'Bob Builder', email: 'bob@harbor.test' },
      action: 'status_changed',
      title: 'Status pending → approved',
      details: { from: 'pending', to: 'approved' },
      createdAt: '2026-07-01T08:20:00.000Z',
    });
  });

  it('with includeEmails=true puts the per-recipient Email records on email_sent entries', async () => {
    const res = await staffGet('includeEmails=true');
    expect(res.status).toBe(200);
    const [changed, sent, uploaded] = res.body.data;
    expect(changed.emails).toBeUndefined();
    expect(uploaded.emails).toBeUndefined();
    expect(sent.action).toBe('email_sent');
    expect(sent.emails.map((e: { recipientEmail: string }) => e.recipientEmail)).toEqual([
      'amy@client.test',
      'zoe@client.test',
    ]);
    expect(sent.emails[0]).toMatchObject({
      mailerMessageId: 'msg_doc_send',
      documentId,
      projectName: 'Pier 9 Terminal',
      activityTitle: 'RFI-007 issued',
      bounce: '2026-07-01T08:13:00.000Z',
      bounceType: 'Permanent',
    });
    expect(sent.emails[1]).toMatchObject({ firstOpened: '2026-07-01T08:40:00.000Z', bounce: null });
  });

  it('pages with a cursor', async () => {
    const first = await staffGet('limit=2');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await staffGet(`limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((d: { uid: string }) => d.uid)).toEqual(['act_doc_1']);
    expect(second.body.hasMore).toBe(false);
  });

  it('rejects bad values and unknown documents', async () => {
    for (const query of [
      'includeEmails=yes',
      'includeEmails=1',
      'includeEmails=TRUE',
      'limit=0',
      'limit=51',
      'cursor=zzz',
    ]) {
      const res = await staffGet(query);
      expect(res.status, query).toBe(400);
    }
    const missing = await server.call('/v1/admin/documents/doc_nope/activity', { token: fixtures.staff.token });
    expect(missing.status).toBe(404);
    expect(missing.body.errorCode).toBe('not_found');
  });
});

describeAuthMatrix('organization activity', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/activity',
  access: { permission: 'organization:read', scope: 'org' },
});

describeAuthMatrix('document activity', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/admin/documents/doc_activity_subject/activity',
  access: 'staff',
});
