import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { all, fixtures, query, server, staff } from './document-lists.fixtures.js';

/**
 * Incremental sync with `filter.changedSince` and `syncToken` (issue 40): a change whose transaction began before a
 * walk and committed after it is listed by the next sync. `filter.updatedAt` could not: the row's timestamp is the
 * transaction's start, already behind the instant the integrator synced up to.
 */

const ADMIN_DOCUMENTS = '/v1/admin/documents';

/** One sync: every page of the list changed since `since` (all of it without); the token from the first page. */
async function sync(since: string | undefined, path = ADMIN_DOCUMENTS, token = staff) {
  const seen = new Map<string, string>();
  let cursor: string | undefined;
  let syncToken: string | undefined;
  do {
    const params = { limit: 50, cursor, ...(since ? { 'filter.changedSince': since } : {}) };
    const res = await server.call(`${path}?${query(params)}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (!cursor) syncToken = res.body.syncToken;
    else expect(res.body.syncToken).toBeUndefined();
    for (const row of res.body.data as { uid: string; title: string }[]) seen.set(row.uid, row.title);
    cursor = res.body.nextCursor ?? undefined;
  } while (cursor);
  expect(syncToken).toMatch(/^\d+$/);
  return { seen, syncToken: syncToken as string };
}

/** A connection of its own (not the server's pool), to hold a transaction open across requests. */
async function connection(): Promise<pg.Client> {
  const { connectionString } = (server.database.pool as unknown as { options: pg.PoolConfig }).options;
  const client = new pg.Client({ connectionString });
  await client.connect();
  return client;
}

describe('filter.changedSince: a sync cursor that misses no committed change', () => {
  it('a transaction begun before a walk and committed after it is listed by the next sync', async () => {
    const first = await sync(undefined);
    expect(first.seen.size).toBe(all.length);
    const [target] = all;
    const a = await connection();
    try {
      await a.query('begin');
      await a.query('update documents set title = $1, updated_at = now() where id = $2', ['Changed by A', target!.id]);
      // A holds its change while the walk runs: the walk cannot see it.
      const during = await sync(first.syncToken);
      expect(during.seen.get(target!.id)).not.toBe('Changed by A');
      await a.query('commit');
      const next = await sync(during.syncToken);
      expect(next.seen.get(target!.id)).toBe('Changed by A');
      // filter.updatedAt from the walk's start misses it: A's timestamp is its start, before that walk.
      const walkStart = new Date(Date.now() - 1).toISOString();
      const byTime = await server.call(
        `${ADMIN_DOCUMENTS}?${query({ limit: 50, 'filter.updatedAt': `${walkStart},` })}`,
        { token: staff },
      );
      expect(byTime.body.data.map((d: { uid: string }) => d.uid)).not.toContain(target!.id);
    } finally {
      await a.end();
    }
  });

  it('a sync of nothing new lists nothing, and a rolled-back change never appears', async () => {
    const { syncToken } = await sync(undefined);
    const a = await connection();
    try {
      await a.query('begin');
      await a.query('update documents set title = $1 where id = $2', ['Rolled back', all[1]!.id]);
      await a.query('rollback');
    } finally {
      await a.end();
    }
    const next = await sync(syncToken);
    expect([...next.seen.values()]).not.toContain('Rolled back');
  });

  it('concurrent writers committing in random order: every committed change is seen by some sync', async () => {
    const writers = 4;
    const writesEach = 12;
    const docs = all.map((d) => d.id);
    let nextDoc = 0;
    const committed = new Map<string, string>(); // uid → the title its one write committed
    let writing = true;
    // The syncer: sync after sync while the writers run, keeping the newest title seen of each document.
    const view = new Map<string, string>();
    const syncer = (async () => {
      let { syncToken } = await sync(undefined);
      let syncs = 0;
      while (writing || syncs === 0) {
        const next = await sync(syncToken);
        for (const [uid, title] of next.seen) view.set(uid, title);
        syncToken = next.syncToken;
        syncs++;
      }
      // One last sync after the last commit.
      for (const [uid, title] of (await sync(syncToken)).seen) view.set(uid, title);
      return syncs;
    })();
    const writer = async (w: number) => {
      const client = await connection();
      try {
        for (let i = 0; i < writesEach; i++) {
          // Each write takes a document no other write touches, so each committed title must be seen as it is.
          const uid = docs[nextDoc++ % docs.length]!;
          const title = `w${w}-${i}`;
          await client.query('begin');
          await sleep(Math.random() * 40);
          await client.query('update documents set title = $1, updated_at = now() where id = $2', [title, uid]);
          await sleep(Math.random() * 120); // held across syncs, committing in an order unrelated to its start
          const rollback = Math.random() < 0.15;
          await client.query(rollback ? 'rollback' : 'commit');
          if (!rollback) committed.set(uid, title);
        }
      } finally {
        await client.end();
      }
    };
    await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
    writing = false;
    const syncs = await syncer;
    expect(syncs).toBeGreaterThan(1);
    expect(committed.size).toBeGreaterThan(20);
    const missed = [...committed].filter(([uid, title]) => view.get(uid) !== title);
    expect(missed).toEqual([]);
  }, 60_000);

  it('a sync token that is not one answers 400 naming the filter', async () => {
    const res = await server.call(`${ADMIN_DOCUMENTS}?${query({ 'filter.changedSince': '2025-01-01' })}`, {
      token: staff,
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('filter.changedSince');
  });

  it('the project list hands on a token too, and its sync lists only its own project', async () => {
    const path = `/v1/organization/${fixtures.orgA.id}/project/${fixtures.projectA2.id}/documents`;
    const key = (await fixtures.client(['document:read'], { orgs: [fixtures.orgA.id] })).token;
    const { syncToken } = await sync(undefined, path, key);
    const inA2 = all.find((d) => d.projectId === fixtures.projectA2.id)!;
    const inA1 = all.find((d) => d.projectId === fixtures.projectA1.id)!;
    await server.database.pool.query('update documents set title = $1 where id = any($2)', [
      'Project sync',
      [inA2.id, inA1.id],
    ]);
    const next = await sync(syncToken, path, key);
    expect([...next.seen.keys()]).toEqual([inA2.id]);
  });
});
