import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { actions, expected, fixtures, get, orgRows, type Row, server, walk } from './activity.fixtures.js';

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

describeAuthMatrix('organization activity', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/activity',
});
