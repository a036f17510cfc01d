// The file's test server (test/fixture-server.ts) with 57+ generated activity rows of organization A, for each
// test file that imports this (vitest evaluates it once per file), and the requests and oracle the activity tests
// share. The bindings are live.
import { beforeAll, expect } from 'vitest';
import { f as fixtures, server } from '../../test/fixture-server.js';
import { activity } from '../db/schema.js';

export { fixtures, server };
export let token: string;

export interface Row {
  id: string;
  projectId: string | null;
  actorId: string | null;
  action: string;
  createdAt: Date;
}
export const orgRows: Row[] = [];
export const actions = ['status_changed', 'comment_added', 'file_uploaded', 'email_sent'];
const actors = [
  { id: 'usr_ann', name: 'Ann Architect', email: 'ann@harbor.test' },
  { id: 'usr_bob', name: 'Bob Builder', email: 'bob@harbor.test' },
  { id: null, name: 'Sitefile', email: 'system@sitefile.test' },
];
const base = Date.parse('2026-05-20T00:00:00.000Z');

beforeAll(async () => {
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
const feedPath = (query = '') => `/v1/organization/${fixtures.orgA.id}/activity${query ? `?${query}` : ''}`;
export const get = (query = '', t = token, headers?: Record<string, string>) =>
  server.call(feedPath(query), { token: t, headers });

const byNewest = (a: Row, b: Row) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1);
export const expected = (keep: (r: Row) => boolean = () => true) =>
  orgRows
    .filter(keep)
    .sort(byNewest)
    .map((r) => r.id);

export async function walk(query: string, t = token) {
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
