import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { f as fixtures, server } from '../../test/fixture-server.js';
import { commandEvents, idempotencyRecords } from '../db/schema.js';

let clientId: string;
/** A token signed now: tests move the clock by days, past any token's lifetime. */
const token = () => server.app.context.tokens.sign(clientId, 'client').token;

beforeAll(async () => {
  clientId = (await fixtures.client(['document:read'], { orgs: [fixtures.orgA.id] })).clientId;
});

const HOUR = 60 * 60 * 1000;

const ping = (entityId: string, key: string | undefined, json: unknown = {}, as = token()) =>
  server.call(`/v1/commands/ping/${entityId}`, {
    method: 'POST',
    token: as,
    json,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

const eventsFor = async (entityId: string) =>
  server.database.db.select().from(commandEvents).where(eq(commandEvents.entityId, entityId));

describeAuthMatrix('ping command', () => ({ server, fixtures }), {
  method: 'POST',
  path: '/v1/commands/ping/ent-matrix',
  json: {},
  headers: () => ({ 'idempotency-key': randomUUID() }),
});

describe('POST /v1/commands/ping/{entityId}', () => {
  it('applies the command once and returns the event', async () => {
    const res = await ping('ent-1', 'key-1', { note: 'site visit' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ eventId: expect.stringMatching(/^evt_/), status: 'applied', note: 'site visit' });
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    const events = await eventsFor('ent-1');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id: res.body.eventId, command: 'ping', note: 'site visit' });
  });

  it('leaves note out of the result when none was given', async () => {
    const res = await ping('ent-2', 'key-2');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['eventId', 'status']);
  });

  it('requires the idempotency-key header (1–255 characters)', async () => {
    for (const key of [undefined, '', 'k'.repeat(256)]) {
      const res = await ping('ent-3', key);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errorCode: 'validation_failed', requestId: expect.any(String) });
      expect(res.body.error).toContain('idempotency-key');
    }
    expect(await eventsFor('ent-3')).toHaveLength(0);
    expect((await ping('ent-3', 'k'.repeat(255))).status).toBe(200);
  });

  it('rejects a bad body with a 400 and applies nothing', async () => {
    expect((await ping('ent-4', 'key-4a', { note: 'x'.repeat(1001) })).status).toBe(400);
    expect((await ping('ent-4', 'key-4b', { note: 42 })).status).toBe(400);
    expect((await ping('ent-4', 'key-4c', { note: 'ok', extra: true })).status).toBe(400);
    expect(await eventsFor('ent-4')).toHaveLength(0);
    // A rejected request does not take the key.
    expect((await ping('ent-4', 'key-4a', { note: 'fixed' })).status).toBe(200);
  });

  it('replays the first response byte for byte with Idempotent-Replayed: true', async () => {
    const first = await server.request('/v1/commands/ping/ent-5', {
      method: 'POST',
      token: token(),
      json: { note: 'once' },
      headers: { 'idempotency-key': 'key-5' },
    });
    const firstText = await first.text();
    // Same body with its keys in another order and other whitespace is the same request.
    const again = await server.request('/v1/commands/ping/ent-5', {
      method: 'POST',
      token: token(),
      headers: { 'idempotency-key': 'key-5', 'content-type': 'application/json' },
      body: '{ "note" : "once" }',
    });
    expect(again.status).toBe(first.status);
    expect(await again.text()).toBe(firstText);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await eventsFor('ent-5')).toHaveLength(1);
  });

  it('answers 422 idempotency_key_mismatch for another body or another entity under the same key', async () => {
    expect((await ping('ent-6', 'key-6', { note: 'a' })).status).toBe(200);
    const otherBody = await ping('ent-6', 'key-6', { note: 'b' });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toMatchObject({ errorCode: 'idempotency_key_mismatch', requestId: expect.any(String) });
    const otherEntity = await ping('ent-6b', 'key-6', { note: 'a' });
    expect(otherEntity.status).toBe(422);
    expect(await eventsFor('ent-6')).toHaveLength(1);
    expect(await eventsFor('ent-6b')).toHaveLength(0);
  });

  it('scopes keys to the caller', async () => {
    const other = await fixtures.client(['document:read'], { orgs: [fixtures.orgB.id] });
    const mine = await ping('ent-7', 'shared-key', { note: 'n' });
    const theirs = await ping('ent-7', 'shared-key', { note: 'n' }, other.token);
    const user = await ping('ent-7', 'shared-key', { note: 'n' }, fixtures.userToken(fixtures.member.id));
    expect([mine.status, theirs.status, user.status]).toEqual([200, 200, 200]);
    expect(new Set([mine.body.eventId, theirs.body.eventId, user.body.eventId]).size).toBe(3);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await eventsFor('ent-7')).toHaveLength(3);
  });

  it('answers 409 while the first attempt is in flight, and frees a key whose attempt died', async () => {
    const first = await ping('ent-8', 'key-8');
    const key = and(eq(idempotencyRecords.idempotencyKey, 'key-8'));
    // Make the record look like an attempt still running (lease of one minute).
    const leaseUntil = new Date(server.clock.now().getTime() + 60_000);
    await server.database.db.update(idempotencyRecords).set({ state: 'in_progress', expiresAt: leaseUntil }).where(key);
    const during = await ping('ent-8', 'key-8');
    expect(during.status).toBe(409);
    expect(during.body.errorCode).toBe('idempotency_key_in_progress');
    expect(during.headers.get('retry-after')).toBe('1');
    // The attempt never finished (process died): after its lease the key can be used again.
    server.clock.advance(61_000);
    const retried = await ping('ent-8', 'key-8');
    expect(retried.status).toBe(200);
    expect(retried.body.eventId).not.toBe(first.body.eventId);
  });

  it('does not let a 5xx poison the key', async () => {
    const db = server.database.db;
    await db.execute(sql`ALTER TABLE command_events RENAME TO command_events_away`);
    let failed: Awaited<ReturnType<typeof ping>>;
    try {
      failed = await ping('ent-9', 'key-9', { note: 'retry me' });
    } finally {
      await db.execute(sql`ALTER TABLE command_events_away RENAME TO command_events`);
    }
    expect(failed.status).toBe(500);
    expect(failed.body.errorCode).toBe('internal_error');
    const retried = await ping('ent-9', 'key-9', { note: 'retry me' });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await eventsFor('ent-9')).toHaveLength(1);
  });

  it('keeps a response for 24 hours, then forgets and purges it', async () => {
    const first = await ping('ent-10', 'key-10');
    server.clock.advance(24 * HOUR - 1000);
    const replay = await ping('ent-10', 'key-10');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.eventId).toBe(first.body.eventId);

    server.clock.advance(2000);
    const fresh = await ping('ent-10', 'key-10');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(fresh.body.eventId).not.toBe(first.body.eventId);
    expect(await eventsFor('ent-10')).toHaveLength(2);

    // Records of earlier tests are now past retention; a later command triggers the purge.
    server.clock.advance(25 * HOUR);
    await ping('ent-10b', 'key-10b');
    const expired = () =>
      server.database.db
        .select()
        .from(idempotencyRecords)
        .where(sql`${idempotencyRecords.expiresAt} < ${server.clock.now()}`);
    await vi.waitFor(async () => expect(await expired()).toHaveLength(0));
    const [kept] = await server.database.db
      .select()
      .from(idempotencyRecords)
      .where(eq(idempotencyRecords.idempotencyKey, 'key-10b'));
    expect(kept?.state).toBe('done');
  });

  it('applies 20 concurrent requests with one key exactly once', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => ping('ent-11', 'key-11', { note: 'burst' })));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const applied = results.filter((r) => r.status === 200);
    expect(applied.length).toBeGreaterThanOrEqual(1);
    expect(new Set(applied.map((r) => r.body.eventId)).size).toBe(1);
    expect(await eventsFor('ent-11')).toHaveLength(1);
    // Once the first finished, every retry replays it.
    const after = await ping('ent-11', 'key-11', { note: 'burst' });
    expect(after.body.eventId).toBe(applied[0]!.body.eventId);
    expect(after.headers.get('idempotent-replayed')).toBe('true');
  });

  it('documents the header and the idempotency errors in OpenAPI', async () => {
    const op = (await server.call('/v1/openapi.json')).body.paths['/v1/commands/ping/{entityId}'].post;
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toContain(
      'header:idempotency-key',
    );
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '409', '422']));
  });
});
