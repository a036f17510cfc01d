import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { f as fixtures, server } from '../../test/fixture-server.js';
import { emailMessages } from '../db/schema.js';
import { type DispatchSpec, insertDispatch, type RecipientState } from './dispatches.fixtures.js';

let token: string;
const specs: DispatchSpec[] = [];

const states: RecipientState[] = ['pending', 'delivered', 'opened', 'bounced', 'failed'];
const actionTypes = ['IssueDocument', 'ForwardDocument', 'ReviewerResponse'];
const base = Date.parse('2026-03-01T00:00:00.000Z');

beforeAll(async () => {
  token = (await fixtures.client(['email:read'], { orgs: [fixtures.orgA.id] })).token;
  const db = server.database.db;
  // 41 dispatches in project A1 with deliberate ties: every third shares the previous one's time, and
  // recipient counts repeat (0..6), so both sorts depend on the id tiebreak.
  for (let i = 0; i < 41; i++) {
    const hour = i % 3 === 2 ? i - 1 : i;
    const count = (i * 5) % 7;
    specs.push({
      id: `dsp_a1_${String(i).padStart(3, '0')}`,
      organizationId: fixtures.orgA.id,
      projectId: fixtures.projectA1.id,
      actionType: actionTypes[i % 3],
      sender:
        i % 4 === 0
          ? { id: 'usr_pm', name: 'Pat Manager', email: 'Pat.Manager@Harbor.test' }
          : { id: 'usr_sid', name: 'Sid Sender', email: 'sid@harbor.test' },
      dispatchedAt: new Date(base + hour * 3_600_000),
      documentId: i % 5 === 0 ? 'doc_watched' : null,
      recipients: Array.from({ length: count }, (_, r) => ({
        email: `person${r}@example.test`,
        state: states[(i + r) % states.length]!,
      })),
    });
  }
  // Boundary rows around midnight UTC on 10 March.
  specs.push(
    {
      id: 'dsp_a1_late',
      organizationId: fixtures.orgA.id,
      projectId: fixtures.projectA1.id,
      dispatchedAt: new Date('2026-03-10T23:59:59.999Z'),
      recipients: [{ email: 'late@example.test', state: 'opened' }],
    },
    {
      id: 'dsp_a1_midnight',
      organizationId: fixtures.orgA.id,
      projectId: fixtures.projectA1.id,
      dispatchedAt: new Date('2026-03-11T00:00:00.000Z'),
      recipients: [{ email: 'midnight@example.test', state: 'delivered' }],
    },
  );
  for (const spec of specs) await insertDispatch(db, spec);
  // Other projects' dispatches never show up.
  const elsewhere = [
    { id: 'dsp_a2_0', organizationId: fixtures.orgA.id, projectId: fixtures.projectA2.id, email: 'x@example.test' },
    { id: 'dsp_b1_0', organizationId: fixtures.orgB.id, projectId: fixtures.projectB1.id, email: 'y@example.test' },
  ];
  for (const { email, ...where } of elsewhere) {
    await insertDispatch(db, { ...where, dispatchedAt: new Date(base), recipients: [{ email, state: 'opened' }] });
  }
});

const commsPath = (query = '') =>
  `/v1/organization/${fixtures.orgA.id}/project/${fixtures.projectA1.id}/comms${query ? `?${query}` : ''}`;
const get = (query = '') => server.call(commsPath(query), { token });

const byIdDesc = (a: DispatchSpec, b: DispatchSpec) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const expectedOrder = (sort: 'recent' | 'largest', keep: (s: DispatchSpec) => boolean = () => true) =>
  specs
    .filter(keep)
    .sort((a, b) =>
      sort === 'recent'
        ? b.dispatchedAt.getTime() - a.dispatchedAt.getTime() || byIdDesc(a, b)
        : b.recipients.length - a.recipients.length || byIdDesc(a, b),
    )
    .map((s) => s.id);

async function walk(query: string) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const res = await get(cursor ? `${query}&cursor=${cursor}` : query);
    expect(res.status).toBe(200);
    seen.push(...res.body.data.map((d: { id: string }) => d.id));
    expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
    if (!res.body.hasMore) return seen;
    cursor = res.body.nextCursor;
  }
  throw new Error('walk did not end');
}

const decode = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64url');

describe('project comms', () => {
  it('lists newest first by default with project, sender, recipients and summary', async () => {
    const res = await get('limit=2');
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { id: string }) => d.id)).toEqual(expectedOrder('recent').slice(0, 2));
    const first = res.body.data[0];
    expect(first).toMatchObject({
      id: 'dsp_a1_midnight',
      activityId: 'act_dsp_a1_midnight',
      actionType: 'IssueDocument',
      project: { uid: fixtures.projectA1.id, name: 'Pier 9 Terminal' },
      sender: { uid: 'usr_sender', name: 'Sid Sender', email: 'sid@harbor.test' },
      dispatchedAt: '2026-03-11T00:00:00.000Z',
      documentId: null,
      reportId: null,
      summary: { total: 1, delivered: 1, bounced: 0, opened: 0, pending: 0, failed: 0 },
    });
    expect(first.recipients).toEqual([
      {
        uid: null,
        name: 'midnight',
        email: 'midnight@example.test',
        status: 'Delivered',
        sentAt: '2026-03-11T00:00:00.000Z',
        deliveredAt: '2026-03-11T00:02:00.000Z',
        openedAt: null,
        bouncedAt: null,
        bounceType: null,
        bounceSubtype: null,
      },
    ]);
  });

  it('walks both sorts to the end with no repeats or gaps, for any page size and filter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('recent' as const, 'largest' as const),
        fc.integer({ min: 1, max: 50 }),
        fc.subarray(actionTypes),
        async (sort, limit, types) => {
          const filter = types.length ? `&actionType=${types.join(',')}` : '';
          const seen = await walk(`sort=${sort}&limit=${limit}${filter}`);
          const keep = (s: DispatchSpec) => !types.length || types.includes(s.actionType ?? 'IssueDocument');
          expect(seen).toEqual(expectedOrder(sort, keep));
          expect(new Set(seen).size).toBe(seen.length);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('signs its cursors: one made by hand (the old {n, id} shape), edited, or of other filters is a 400', async () => {
    const order = expectedOrder('largest');
    const pivot = specs.find((s) => s.id === order[4])!;
    const handMade = await get(`sort=largest&limit=2&cursor=${encode({ n: pivot.recipients.length, id: pivot.id })}`);
    expect(handMade.status).toBe(400);
    expect(handMade.body).toMatchObject({ errorCode: 'bad_request', error: 'Invalid cursor' });

    const real = (await get('sort=largest&limit=2')).body.nextCursor as string;
    expect((await get(`sort=largest&limit=2&cursor=${real}`)).status).toBe(200);
    // The same signature over a payload pointed at another dispatch.
    const [payload, signature] = real.split('.');
    const edited = `${encode({ ...decode(payload!), id: pivot.id })}.${signature}`;
    expect((await get(`sort=largest&limit=2&cursor=${edited}`)).status).toBe(400);
    const otherFilters = await get(`sort=largest&limit=2&actionType=IssueDocument&cursor=${real}`);
    expect(otherFilters.status).toBe(400);
    expect(otherFilters.body.error).toMatch(/does not match the current sort and filters/);
  });

  it('answers 400, never 500, for malformed or tampered cursors', async () => {
    const recentCursor = (await get('limit=1')).body.nextCursor as string;
    const bad: [string, string][] = [
      ['recent', '!!!'],
      ['recent', 'bm90IGpzb24'],
      ['recent', encode(null)],
      ['recent', encode([1, 2])],
      ['recent', encode({ d: 'yesterday', id: 'x' })],
      ['recent', encode({ d: '2026-03-01T00:00:00Z', id: 'x' })],
      ['recent', encode({ d: '2026-02-30T00:00:00.000Z', id: 'x' })],
      ['recent', encode({ d: '2026-03-01T00:00:00.000Z', id: 5 })],
      ['recent', encode({ d: '2026-03-01T00:00:00.000Z', id: '' })],
      ['recent', encode({ d: '2026-03-01T00:00:00.000Z', id: 'x', extra: 1 })],
      ['recent', encode({ n: 3, id: 'x' })],
      ['largest', recentCursor],
      ['largest', encode({ n: -1, id: 'x' })],
      ['largest', encode({ n: 1.5, id: 'x' })],
      ['largest', encode({ n: '3', id: 'x' })],
      ['largest', encode({ n: 1e20, id: 'x' })],
      ['recent', `${recentCursor.slice(0, -3)}`],
    ];
    for (const [sort, cursor] of bad) {
      const res = await get(`sort=${sort}&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, `${sort} ${cursor}`).toBe(400);
      expect(res.body.errorCode).toBe('bad_request');
    }
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ minLength: 1, maxLength: 60 }), fc.jsonValue().map(encode)), async (c) => {
        const res = await get(`sort=largest&cursor=${encodeURIComponent(c)}`);
        expect([200, 400]).toContain(res.status);
      }),
      { numRuns: 60 },
    );
  });

  it('has summary counters that match the recipient rows and add up', async () => {
    const all = await get('sort=largest&limit=50');
    const rows = await server.database.db
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.projectId, fixtures.projectA1.id));
    for (const dispatch of all.body.data) {
      const own = rows.filter((r) => r.dispatchId === dispatch.id);
      const s = dispatch.summary;
      expect(s.total).toBe(own.length);
      expect(s.delivered + s.bounced + s.opened + s.pending + s.failed).toBe(s.total);
      expect(s.failed).toBe(own.filter((r) => r.notSentReason !== null).length);
      expect(s.bounced).toBe(own.filter((r) => r.notSentReason === null && r.bounce !== null).length);
      expect(s.opened).toBe(own.filter((r) => !r.notSentReason && !r.bounce && r.firstOpened).length);
      expect(s.delivered).toBe(own.filter((r) => !r.notSentReason && !r.bounce && !r.firstOpened && r.delivery).length);
      expect(s.pending).toBe(own.filter((r) => !r.notSentReason && !r.bounce && !r.firstOpened && !r.delivery).length);
      for (const status of ['Delivered', 'Bounced', 'Opened', 'Pending', 'Failed']) {
        const key = status.toLowerCase() as keyof typeof s;
        expect(dispatch.recipients.filter((r: { status: string }) => r.status === status).length).toBe(s[key]);
      }
    }
  });

  it('decides each status in its documented precedence, whatever else the row holds', async () => {
    const db = server.database.db;
    await insertDispatch(db, {
      id: 'dsp_a2_precedence',
      organizationId: fixtures.orgA.id,
      projectId: fixtures.projectA2.id,
      dispatchedAt: new Date('2026-04-01T10:00:00.000Z'),
      recipients: ['a', 'b', 'c', 'd'].map((name) => ({ email: `${name}@example.test`, state: 'opened' as const })),
    });
    const set = (email: string, values: Partial<typeof emailMessages.$inferInsert>) =>
      db.update(emailMessages).set(values).where(eq(emailMessages.recipientEmail, email));
    // Not sent without a reason is still a failure; a bounce after an open is a bounce; a JSON null in
    // not_sent is no failure; an open is an open.
    await set('a@example.test', { notSent: { code: 'blocked' }, notSentReason: null });
    await set('b@example.test', { bounce: new Date('2026-04-01T10:05:00.000Z'), bounceType: 'Transient' });
    await set('c@example.test', { notSent: sql`'null'::jsonb` as never });
    const res = await server.call(
      `/v1/organization/${fixtures.orgA.id}/project/${fixtures.projectA2.id}/comms?limit=1`,
      { token },
    );
    expect(res.status).toBe(200);
    const [dispatch] = res.body.data;
    expect(dispatch.id).toBe('dsp_a2_precedence');
    expect(dispatch.recipients.map((r: { email: string; status: string }) => [r.email, r.status])).toEqual([
      ['a@example.test', 'Failed'],
      ['b@example.test', 'Bounced'],
      ['c@example.test', 'Opened'],
      ['d@example.test', 'Opened'],
    ]);
    expect(dispatch.recipients[1]).toMatchObject({
      bouncedAt: '2026-04-01T10:05:00.000Z',
      bounceType: 'Transient',
      openedAt: '2026-04-01T10:30:00.000Z',
      deliveredAt: '2026-04-01T10:02:00.000Z',
      sentAt: '2026-04-01T10:00:00.000Z',
    });
    expect(dispatch.summary).toEqual({ total: 4, delivered: 0, bounced: 1, opened: 2, pending: 0, failed: 1 });
  });

  it('filters by action type, sender (case-insensitive), and document', async () => {
    const forwards = await walk('actionType=ForwardDocument,ReviewerResponse&limit=50');
    expect(forwards).toEqual(
      expectedOrder('recent', (s) => s.actionType === 'ForwardDocument' || s.actionType === 'ReviewerResponse'),
    );
    const pat = await walk('sender=pat.manager@harbor.TEST&limit=50');
    expect(pat).toEqual(expectedOrder('recent', (s) => s.sender?.email === 'Pat.Manager@Harbor.test'));
    expect(pat.length).toBeGreaterThan(0);
    const watched = await walk('documentId=doc_watched&sort=largest&limit=50');
    expect(watched).toEqual(expectedOrder('largest', (s) => s.documentId === 'doc_watched'));
    expect((await get('sender=nobody@harbor.test')).body.data).toEqual([]);
  });

  it('treats from/to as inclusive, a date-only to as the whole UTC day, and zones as instants', async () => {
    const ids = async (query: string) => (await walk(`${query}&limit=50`)).filter((id) => /late|midnight/.test(id));
    expect(await ids('to=2026-03-10&from=2026-03-10')).toEqual(['dsp_a1_late']);
    expect(await ids('from=2026-03-11')).toEqual(['dsp_a1_midnight']);
    expect(await ids('from=2026-03-10T23:59:59.999Z&to=2026-03-11T00:00:00.000Z')).toEqual([
      'dsp_a1_midnight',
      'dsp_a1_late',
    ]);
    // 01:00 at +01:00 is midnight UTC: included by an inclusive `to`.
    expect(await ids(`to=${encodeURIComponent('2026-03-11T01:00:00+01:00')}&from=2026-03-10T12:00:00Z`)).toEqual([
      'dsp_a1_midnight',
      'dsp_a1_late',
    ]);
    expect(await ids(`to=${encodeURIComponent('2026-03-11T00:59:59.999+01:00')}&from=2026-03-10`)).toEqual([
      'dsp_a1_late',
    ]);
    expect(await ids(`from=${encodeURIComponent('2026-03-10T19:00:00-05:00')}`)).toEqual(['dsp_a1_midnight']);
  });

  it('rejects bad parameter values with a 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['sort=biggest', 'sort'],
      ['limit=0', 'limit'],
      ['limit=51', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=2.5', 'limit'],
      ['sender=not-an-email', 'sender'],
      ['from=2026-13-01', 'from'],
      ['from=yesterday', 'from'],
      ['to=2026-03-10T10:00:00', 'to'],
      [`actionType=${'A'.repeat(501)}`, 'actionType'],
      ['from=2026-03-12&to=2026-03-11', 'from'],
      ['sort=recent&sort=largest', 'sort'],
    ];
    for (const [query, name] of cases) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.body.errorCode, query).toBe('validation_failed');
      expect(res.body.error, query).toContain(name);
    }
  });

  it('answers the plural alias path too', async () => {
    const res = await server.call(
      `/v1/organizations/${fixtures.orgA.id}/projects/${fixtures.projectA1.id}/comms?limit=1`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
  });
});

describeAuthMatrix('comms', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/comms',
});
