import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documents } from '../db/schema.js';
import { all, fixtures, type Params, query, server, staff } from './document-lists.fixtures.js';

/**
 * Incremental sync: `filter.updatedAt=<last sync>,` with `sortBy=updatedAt&sortOrder=asc` walks every change
 * since then. Documents change between pages (some already seen, some not yet, some from before the window):
 * each version is seen at most once and the walk ends with every document's latest version.
 */
let changeCount = 0;
/** Distinct, ever later instants to the millisecond (two changes share each instant: the uid breaks the tie). */
const nextChangeAt = () => new Date(Date.UTC(2030, 0, 1) + Math.floor(changeCount++ / 2)).toISOString();

async function change(uids: string[]): Promise<void> {
  for (const uid of uids) {
    await server.database.db
      .update(documents)
      .set({ updatedAt: new Date(nextChangeAt()) })
      .where(inArray(documents.id, [uid]));
  }
}

async function currentVersions(uids: string[]): Promise<Map<string, string>> {
  const rows = await server.database.db
    .select({ id: documents.id, updatedAt: documents.updatedAt })
    .from(documents)
    .where(inArray(documents.id, uids));
  return new Map(rows.map((r) => [r.id, r.updatedAt.toISOString()]));
}

interface SyncList {
  name: string;
  path: () => string;
  params?: Params;
  token: () => Promise<string>;
  /** The fixture documents the list holds. */
  holds: (d: (typeof all)[number]) => boolean;
}

const projectKey = async () => (await fixtures.client(['document:read'], { orgs: [fixtures.orgA.id] })).token;
const inA1 = (d: (typeof all)[number]) => d.projectId === fixtures.projectA1.id;

const lists: SyncList[] = [
  {
    name: 'project documents',
    path: () => `/v1/organization/${fixtures.orgA.id}/project/${fixtures.projectA1.id}/documents`,
    token: projectKey,
    holds: inA1,
  },
  {
    name: 'project submittals',
    path: () => `/v1/organization/${fixtures.orgA.id}/project/${fixtures.projectA1.id}/document/submittals`,
    token: projectKey,
    holds: (d) => inA1(d) && d.format === 'submittal',
  },
  { name: 'admin documents', path: () => '/v1/admin/documents', token: async () => staff, holds: () => true },
  {
    name: 'admin submittals',
    path: () => '/v1/admin/documents/submittals',
    token: async () => staff,
    holds: (d) => d.format === 'submittal',
  },
];

describe('filter.updatedAt: incremental sync over the document lists', () => {
  it('bounds are inclusive, date-times to the millisecond, date-only days whole', async () => {
    const token = await projectKey();
    const path = `/v1/organization/${fixtures.orgA.id}/project/${fixtures.projectA2.id}/documents`;
    const a2 = all.filter((d) => d.projectId === fixtures.projectA2.id);
    const at = (a2[0] as (typeof all)[number]).updatedAt;
    const exact = await server.call(`${path}?${query({ 'filter.updatedAt': `${at},${at}`, limit: 50 })}`, { token });
    expect(exact.status).toBe(200);
    expect(exact.body.data.map((d: { uid: string }) => d.uid).sort()).toEqual(
      a2.filter((d) => d.updatedAt === at).map((d) => d.id),
    );
    const day = at.slice(0, 10);
    const wholeDay = await server.call(`${path}?${query({ 'filter.updatedAt': `${day},${day}`, limit: 50 })}`, {
      token,
    });
    expect(wholeDay.body.total).toBe(a2.filter((d) => d.updatedAt.startsWith(day)).length);
    const later = new Date(Date.parse(at) + 1).toISOString();
    const after = await server.call(`${path}?${query({ 'filter.updatedAt': `${later},`, limit: 50 })}`, { token });
    expect(after.body.total).toBe(a2.filter((d) => d.updatedAt > at).length);
  });

  it('refuses a malformed or reversed range with 400 naming the parameter', async () => {
    const token = await projectKey();
    const path = `/v1/organization/${fixtures.orgA.id}/project/${fixtures.projectA1.id}/documents`;
    for (const bad of ['yesterday,', '2025-01-01T10:00:00,', '2025-02-30,', '2025-03-01,2025-02-01', '2025-01-01']) {
      const res = await server.call(`${path}?${query({ 'filter.updatedAt': bad })}`, { token });
      expect(res.status, bad).toBe(400);
      expect(JSON.stringify(res.body)).toContain('filter.updatedAt');
    }
  });

  for (const list of lists) {
    it(`${list.name}: every change since the last sync once, with changes between pages`, async () => {
      const token = await list.token();
      const held = all.filter(list.holds);
      const before = await currentVersions(held.map((d) => d.id));
      const lastSync = [...before.values()].sort()[Math.floor(before.size / 2)] as string;
      const path = list.path();
      const params = { 'filter.updatedAt': `${lastSync},`, sortBy: 'updatedAt', sortOrder: 'asc', limit: 5 };
      const seen: { uid: string; updatedAt: string }[] = [];
      const oldOnes = held.filter((d) => (before.get(d.id) as string) < lastSync).map((d) => d.id);
      let cursor: string | undefined;
      let pageNumber = 0;
      do {
        const res = await server.call(`${path}?${query({ ...params, cursor })}`, { token });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        for (const row of res.body.data) seen.push({ uid: row.uid, updatedAt: row.updatedAt });
        cursor = res.body.nextCursor ?? undefined;
        pageNumber++;
        if (cursor && pageNumber <= 6) {
          // A document already seen, one not seen yet (if any is left) and one from before the window change.
          const seenUids = new Set(seen.map((s) => s.uid));
          const unseen = held.find((d) => !seenUids.has(d.id) && (before.get(d.id) as string) >= lastSync);
          const seenOne = seen[pageNumber % seen.length]?.uid as string;
          await change([seenOne, ...(unseen ? [unseen.id] : []), oldOnes[pageNumber] as string]);
        }
      } while (cursor);

      const versions = seen.map((s) => `${s.uid}@${s.updatedAt}`);
      expect(new Set(versions).size, 'a version seen twice').toBe(versions.length);
      const after = await currentVersions(held.map((d) => d.id));
      const expected = [...after.entries()]
        .filter(([, at]) => at >= lastSync)
        .map(([uid, at]) => `${uid}@${at}`)
        .sort();
      const latestSeen = new Map(seen.map((s) => [s.uid, s.updatedAt]));
      expect([...latestSeen.entries()].map(([uid, at]) => `${uid}@${at}`).sort()).toEqual(expected);
      // Each change made during the walk (already seen, not yet seen, from before the window) came through once.
      expect(changeCount).toBeGreaterThan(0);
      expect(seen.filter((s) => s.updatedAt >= '2030').length).toBe(
        [...after.values()].filter((at) => at >= '2030').length,
      );
      // Walked in order: updatedAt, then uid.
      const order = seen.map((s) => `${s.updatedAt}|${s.uid}`);
      expect(order).toEqual([...order].sort());
    });
  }
});
