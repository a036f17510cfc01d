import { beforeAll, describe, expect, it, vi } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { ctx, f, server, startInstance } from '../../test/fixture-server.js';
import { type TestServer, testRedisUrl } from '../../test/harness.js';
import { describeWithRedis } from '../../test/system-tools.js';
import { supportIssues } from '../db/schema.js';
import { newId } from '../ids.js';

const staffToken = () => f.userToken(f.staff.id);
const issue = (title: string) => ({
  title,
  description: `Customers report: ${title}`,
  approach: 'Clear the session, then re-sync the project.',
});
const create = (json: unknown, on = server, token = staffToken()) =>
  on.call('/v1/admin/support-issues', { method: 'POST', token, json });
const runbook = (query = '', on = server) => on.call(`/v1/admin/runbook${query}`, { token: staffToken() });
const titles = (res: { body: { data: { title: string }[] } }) => res.body.data.map((e) => e.title);

/** Writes a support issue behind the service's back: only a cache miss can show it. */
const insertDirectly = (on: TestServer, title: string) =>
  on.database.db.insert(supportIssues).values({
    id: newId('sup'),
    ...issue(title),
    createdAt: on.clock.now(),
    createdBy: 'dba@sitefile.test',
  });

describeAuthMatrix('create support issue', ctx, {
  method: 'POST',
  path: '/v1/admin/support-issues',
  json: issue('Matrix issue'),
  expectOk: (res) => expect(res.status).toBe(201),
});

describeAuthMatrix('runbook', ctx, {
  method: 'GET',
  path: '/v1/admin/runbook',
});

describe('POST /v1/admin/support-issues', () => {
  it('creates an issue (201) with its author', async () => {
    const res = await create(issue('  Sync stalls after password change  '));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(/^sup_/),
        title: 'Sync stalls after password change',
        description: 'Customers report:   Sync stalls after password change',
        approach: 'Clear the session, then re-sync the project.',
        createdAt: server.clock.now().toISOString(),
        createdBy: 'staff@sitefile.test',
      },
    });
  });

  it('rejects missing, empty, too long or unknown fields with a 400', async () => {
    const good = issue('Valid');
    for (const json of [
      {},
      { ...good, title: '' },
      { ...good, title: '   ' },
      { ...good, title: 'x'.repeat(201) },
      { ...good, description: 'x'.repeat(10_001) },
      { ...good, approach: '' },
      { ...good, severity: 'high' },
    ]) {
      const res = await create(json);
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe('validation_failed');
    }
    expect((await create({ ...good, title: 'x'.repeat(200), approach: 'y'.repeat(10_000) })).status).toBe(201);
  });
});

describe('GET /v1/admin/runbook', () => {
  it('serves from its cache until a new support issue invalidates it', async () => {
    const warm = await runbook();
    expect(warm.status).toBe(200);
    const before = warm.body.total;
    server.clock.advance(1000);
    await insertDirectly(server, 'Written behind the cache');
    // Cache hit: the row written behind the service's back is not there.
    const hit = await runbook();
    expect(hit.body.total).toBe(before);
    expect(titles(hit)).not.toContain('Written behind the cache');

    server.clock.advance(1000);
    expect((await create(issue('Uploads time out on hotel wifi'))).status).toBe(201);
    const fresh = await runbook();
    expect(fresh.body.total).toBe(before + 2);
    expect(titles(fresh).slice(0, 2)).toEqual(['Uploads time out on hotel wifi', 'Written behind the cache']);
  });

  it('searches title, description and approach: every word, any case or accent', async () => {
    server.clock.advance(1000);
    await create({ title: 'Café Wi-Fi blocks the add-in', description: 'Captive portal', approach: 'Use a hotspot' });
    expect(titles(await runbook('?search=cafe%20HOTSPOT'))).toEqual(['Café Wi-Fi blocks the add-in']);
    expect(titles(await runbook('?search=captive%20password'))).toEqual([]);
    expect((await runbook(`?search=${'x'.repeat(201)}`)).status).toBe(400);
  });

  it('pages newest first with a cursor bound to the search', async () => {
    for (let i = 0; i < 5; i++) {
      server.clock.advance(1000);
      await create(issue(`Paging issue ${i}`));
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await runbook(`?search=paging&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(5);
      seen.push(...titles(page));
      cursor = page.body.nextCursor;
      expect(page.body.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual([4, 3, 2, 1, 0].map((i) => `Paging issue ${i}`));
    const first = await runbook('?search=paging&limit=2');
    expect((await runbook(`?search=other&cursor=${first.body.nextCursor}`)).status).toBe(400);
    expect((await runbook('?cursor=garbage')).status).toBe(400);
    expect((await runbook('?limit=51')).status).toBe(400);
  });
});

describeWithRedis('runbook cache across two instances on one Redis', () => {
  let one: TestServer;
  let two: TestServer;
  beforeAll(async () => {
    // Two more instances over this file's database and clock, sharing one Redis.
    const options = { env: { REDIS_URL: testRedisUrl }, clock: server.clock };
    one = await startInstance(options);
    two = await startInstance(options);
  });

  it('invalidates the other instance when one creates an issue', async () => {
    // The file's other tests write issues to the same database: this one reads only its own ("relay").
    const read = (on: TestServer) => runbook('?search=relay', on);
    expect((await read(one)).body.total).toBe(0);
    expect((await read(two)).body.total).toBe(0);
    await insertDirectly(one, 'Relay behind both caches');
    expect((await read(one)).body.total).toBe(0);
    expect((await read(two)).body.total).toBe(0);

    one.clock.advance(1000);
    expect((await create(issue('Relay created on instance one'), one)).status).toBe(201);
    // Instance two learns of it through Redis pub/sub: poll until the message has arrived.
    await vi.waitFor(async () => expect(titles(await read(two))).toContain('Relay created on instance one'), {
      timeout: 5000,
    });
    expect(titles(await read(two))).toEqual(['Relay created on instance one', 'Relay behind both caches']);
  });
});
