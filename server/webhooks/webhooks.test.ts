import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { configureFixtureServer, f, server, startInstance } from '../../test/fixture-server.js';
import { type Fixtures, insertDocument } from '../../test/harness.js';
import { loadConfig } from '../config.js';
import { selectRows } from '../db/rows.js';
import { comments } from '../db/schema.js';
import { mime } from '../filing/messages.fixtures.js';
import { allRoutes } from '../routes.js';
import { createUser } from '../users/service.js';
import { insertWebhook } from './queries.js';
import { postJson } from './sender.js';
import { receiverForFile, verified } from './webhooks.fixtures.js';

// Receivers listen on 127.0.0.1; three attempts: now, 5 s and 60 s after a failure (on the server's ManualClock).
configureFixtureServer({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', WEBHOOK_RETRY_SCHEDULE_SECONDS: '5,60' } });

const receiver = receiverForFile();

const hooksPath = (orgId = f.orgA.id) => `/v1/organization/${orgId}/webhooks`;

async function createHook(json: Record<string, unknown>, token = f.admin.token) {
  const res = await server.call(hooksPath(), { method: 'POST', token, json: { url: receiver.url, ...json } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

const deliveriesOf = async (webhookId: string) => {
  const res = await server.call(`${hooksPath()}/${webhookId}/deliveries`, { token: f.admin.token });
  expect(res.status).toBe(200);
  return res.body.data as {
    eventId: string;
    eventType: string;
    state: string;
    attempts: { attempt: number; responseStatus: number | null; succeeded: boolean }[];
  }[];
};

/** Moves the server's clock on and asks the relay to look now (instead of at its next one-second tick). */
const advance = (ms: number) => {
  server.clock.advance(ms);
  server.app.context.webhooks.nudge();
};

/** Polls the delivery log until `done` holds for the endpoint's newest delivery (the relay works in the background). */
async function deliveryWhen(webhookId: string, done: (d: Awaited<ReturnType<typeof deliveriesOf>>[number]) => boolean) {
  for (;;) {
    const [newest] = await deliveriesOf(webhookId);
    if (newest && done(newest)) return newest;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('webhook endpoints', () => {
  it('creates an endpoint whose answer alone carries the whsec_ secret', async () => {
    const res = await server.call(hooksPath(), {
      method: 'POST',
      token: f.admin.token,
      json: { url: receiver.url, events: ['email.filed', 'email.filed'], description: 'ERP sync' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      organizationId: f.orgA.id,
      url: receiver.url,
      events: ['email.filed'],
      description: 'ERP sync',
      enabled: true,
      disabledAt: null,
    });
    expect(res.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = res.body.data.id;
    const one = await server.call(`${hooksPath()}/${id}`, { token: f.admin.token });
    expect(one.status).toBe(200);
    expect(one.body.data.secret).toBeUndefined();
    const list = await server.call(hooksPath(), { token: f.admin.token });
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    const patched = await server.call(`${hooksPath()}/${id}`, {
      method: 'PATCH',
      token: f.admin.token,
      json: { events: ['comment.deleted'], description: null },
    });
    expect(patched.body.data).toMatchObject({ events: ['comment.deleted'], description: null, url: receiver.url });

    // Another organization's path does not reach it.
    const staffElsewhere = await server.call(`${hooksPath(f.orgB.id)}/${id}`, { token: f.staff.token });
    expect(staffElsewhere.status).toBe(404);

    expect((await server.call(`${hooksPath()}/${id}`, { method: 'DELETE', token: f.admin.token })).status).toBe(204);
    expect((await server.call(`${hooksPath()}/${id}`, { token: f.admin.token })).status).toBe(404);
  });

  it('refuses bad bodies with a 400 naming the field', async () => {
    for (const json of [
      {},
      { url: 'ftp://example.com/x', events: ['email.filed'] },
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ['email.sent'] },
      // Nothing in the API creates dispatches, so no endpoint may wait for their event.
      { url: receiver.url, events: ['dispatch.created'] },
      { url: receiver.url, events: ['email.filed'], secret: 'mine' },
      { url: receiver.url, events: ['email.filed'], description: 'x'.repeat(501) },
    ]) {
      const res = await server.call(hooksPath(), { method: 'POST', token: f.admin.token, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.errorCode).toBe('validation_failed');
    }
    const hook = await createHook({ events: ['webhook.test'] });
    const empty = await server.call(`${hooksPath()}/${hook.id}`, { method: 'PATCH', token: f.admin.token, json: {} });
    expect(empty.status).toBe(400);
  });

  it('refuses loopback, private and link-local URLs unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=1', async () => {
    // A second instance on the same database with the default configuration.
    const strict = await startInstance({ clock: server.clock });
    try {
      const token = strict.app.context.tokens.sign(f.admin.id, 'user').token;
      for (const url of [
        'http://127.0.0.1:8080/x',
        'http://localhost/x',
        'http://10.0.0.7/x',
        'http://192.168.1.2/x',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/x',
        'http://[fe80::1]/x',
        'http://[::ffff:127.0.0.1]/x',
        'http://0.0.0.0/x',
      ]) {
        const res = await strict.call(hooksPath(), { method: 'POST', token, json: { url, events: ['email.filed'] } });
        expect(res.status, url).toBe(400);
        expect(res.body.error).toMatch(/^url is refused/);
      }
      const hook = await createHook({ events: ['webhook.test'] });
      const moved = await strict.call(`${hooksPath()}/${hook.id}`, {
        method: 'PATCH',
        token,
        json: { url: 'http://172.16.0.1/x' },
      });
      expect(moved.status).toBe(400);
    } finally {
      await strict.close();
    }
  });

  it('refuses IPv6 forms that embed or reach a non-public address, and names no address DNS answered', async () => {
    const strict = await startInstance({ clock: server.clock });
    try {
      const token = strict.app.context.tokens.sign(f.admin.id, 'user').token;
      const create = (url: string) =>
        strict.call(hooksPath(), { method: 'POST', token, json: { url, events: ['email.filed'] } });
      for (const host of [
        '[::127.0.0.1]', // IPv4-compatible loopback
        '[::7f00:1]',
        '[::169.254.169.254]', // IPv4-compatible cloud metadata address
        '[::a9fe:a9fe]',
        '[64:ff9b:1::7f00:1]', // NAT64 local-use prefix
        '[fec0::1]', // site-local
      ]) {
        const res = await create(`http://${host}/x`);
        expect(res.status, host).toBe(400);
        expect(res.body.error, host).toMatch(/^url is refused: .* is not a public address$/);
      }
      // A name that resolves to a loopback address: refused without saying which address it resolved to.
      const named = await create('http://localhost/x');
      expect(named.status).toBe(400);
      expect(named.body.error).toBe('url is refused: localhost resolves to a non-public address');
      const sent = await postJson('http://localhost:9/x', {}, '{}', { timeoutMs: 2000, allowPrivateNetworks: false });
      expect(sent).toEqual({ status: null, error: 'Refused: localhost resolves to a non-public address' });
    } finally {
      await strict.close();
    }
  });

  it('allows 20 endpoints per organization, then answers 409', async () => {
    const token = f.staff.token;
    const json = { url: receiver.url, events: ['webhook.test'] };
    const existing = (await server.call(hooksPath(f.orgB.id), { token })).body.data.length;
    for (let i = existing; i < 20; i++) {
      expect((await server.call(hooksPath(f.orgB.id), { method: 'POST', token, json })).status).toBe(201);
    }
    const over = await server.call(hooksPath(f.orgB.id), { method: 'POST', token, json });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ errorCode: 'conflict', error: 'An organization may have at most 20 webhooks' });
    const listed = await server.call(hooksPath(f.orgB.id), { token });
    expect(listed.body.data).toHaveLength(20);
    for (const hook of listed.body.data) {
      await server.call(`${hooksPath(f.orgB.id)}/${hook.id}`, { method: 'DELETE', token });
    }
  });

  it('keeps exactly 20 endpoints when 40 creates race on two instances; the rest get 409', async () => {
    const token = f.staff.token;
    const json = { url: receiver.url, events: ['webhook.test'] };
    expect((await server.call(hooksPath(f.orgB.id), { token })).body.data).toHaveLength(0);
    const other = await startInstance({ clock: server.clock, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' } });
    const removeAll = async () => {
      for (const hook of (await server.call(hooksPath(f.orgB.id), { token })).body.data) {
        await server.call(`${hooksPath(f.orgB.id)}/${hook.id}`, { method: 'DELETE', token });
      }
    };
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? other : server).call(hooksPath(f.orgB.id), { method: 'POST', token, json }),
        ),
      );
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(20);
      expect(statuses.filter((status) => status === 409)).toHaveLength(20);
      for (const res of answers.filter((r) => r.status === 409)) {
        expect(res.body).toMatchObject({
          errorCode: 'conflict',
          error: 'An organization may have at most 20 webhooks',
        });
      }
      const listed = await server.call(hooksPath(f.orgB.id), { token });
      expect(listed.body.data).toHaveLength(20);
    } finally {
      await other.close();
      await removeAll();
    }
  });

  it('refuses at send time too: a host that resolves to a private address gets no request', async () => {
    const before = receiver.received.length;
    const options = { timeoutMs: 2000, allowPrivateNetworks: false };
    const local = receiver.url.replace('127.0.0.1', 'localhost');
    for (const url of [receiver.url, local]) {
      const outcome = await postJson(url, {}, '{}', options);
      expect(outcome.status).toBeNull();
      expect(outcome.error).toMatch(/^Refused: /);
    }
    expect(receiver.received.length).toBe(before);
    expect(await postJson(local, {}, '{}', { ...options, allowPrivateNetworks: true })).toEqual({
      status: 200,
      error: null,
    });
  });

  it('keeps the default retry schedule above 24 hours', () => {
    const delays = loadConfig({}).webhooks.retryDelaysMs;
    expect(delays.reduce((sum, d) => sum + d, 0)).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
  });
});

describe('webhook delivery', () => {
  it('delivers an email.filed event to a subscribed endpoint, signed by the Standard Webhooks scheme', async () => {
    const hook = await createHook({ events: ['email.filed'] });
    const other = await server.call(hooksPath(f.orgB.id), {
      method: 'POST',
      token: f.staff.token,
      json: { url: `${receiver.url}/org-b`, events: ['email.filed'] },
    });
    expect(other.status).toBe(201);
    const before = receiver.received.length;
    const filed = await server.call(`/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails`, {
      method: 'POST',
      token: f.member.token,
      headers: { 'content-type': 'message/rfc822' },
      body: mime({ messageId: '<webhook-1@acme-eng.test>', subject: 'Pile cap rebar' }),
    });
    expect(filed.status).toBe(201);

    const [request] = (await receiver.waitForRequests(before + 1)).slice(before);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    const payload = verified(hook.secret, request!);
    expect(payload).toMatchObject({
      type: 'email.filed',
      data: {
        id: filed.body.id,
        organizationId: f.orgA.id,
        projectId: f.projectA1.id,
        internetMessageId: filed.body.internetMessageId,
        subject: 'Pile cap rebar',
        filedBy: { id: f.member.id },
      },
    });
    // Another secret does not verify it.
    const { secret: otherSecret } = other.body.data;
    expect(() => verified(otherSecret, request!)).toThrow();

    const delivery = await deliveryWhen(hook.id, (d) => d.state === 'succeeded');
    expect(delivery).toMatchObject({ eventId: request!.headers['webhook-id'], eventType: 'email.filed' });
    expect(delivery.attempts).toMatchObject([{ attempt: 1, responseStatus: 200, succeeded: true }]);
    // The attempt ran as a graphile-worker job.
    const tasks = await selectRows(
      server.database.db,
      sql`select identifier from graphile_worker._private_tasks where identifier = 'webhook_deliver'`,
      z.object({ identifier: z.string() }),
    );
    expect(tasks).toHaveLength(1);
    // Organization B's endpoint got nothing of organization A's.
    expect(
      await server.call(`${hooksPath(f.orgB.id)}/${other.body.data.id}/deliveries`, { token: f.staff.token }),
    ).toMatchObject({ status: 200, body: { data: [] } });
    await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
  });

  it('retries a receiver answering 500 twice; the third attempt delivers, and the log shows all three', async () => {
    const hook = await createHook({ events: ['webhook.test'] });
    receiver.answer(500, 500);
    const before = receiver.received.length;
    const sent = await server.call(`${hooksPath()}/${hook.id}/test`, { method: 'POST', token: f.admin.token });
    expect(sent.status).toBe(202);
    expect(sent.body.data).toMatchObject({ eventType: 'webhook.test', state: 'pending', attempts: [] });

    await deliveryWhen(hook.id, (d) => d.attempts.length === 1);
    const waiting = await deliveryWhen(hook.id, (d) => d.state === 'pending');
    expect(waiting.attempts).toMatchObject([{ attempt: 1, responseStatus: 500, succeeded: false }]);
    advance(5_000);
    await deliveryWhen(hook.id, (d) => d.attempts.length === 2 && d.state === 'pending');
    advance(60_000);
    const done = await deliveryWhen(hook.id, (d) => d.state === 'succeeded');
    expect(done.attempts).toMatchObject([
      { attempt: 1, responseStatus: 500, succeeded: false },
      { attempt: 2, responseStatus: 500, succeeded: false },
      { attempt: 3, responseStatus: 200, succeeded: true },
    ]);
    const requests = (await receiver.waitForRequests(before + 3)).slice(before);
    // The same message each time (same webhook-id), each signature valid for its own timestamp.
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([sent.body.data.eventId]));
    for (const request of requests) expect(verified(hook.secret, request).type).toBe('webhook.test');
    await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
  });

  it('disables an endpoint that keeps failing, with a notice in the activity feed', async () => {
    const hook = await createHook({ events: ['webhook.test'] });
    const watcher = await createHook({ url: `${receiver.url}/watcher`, events: ['activity.created'] });
    receiver.answer(503, 503, 503);
    await server.call(`${hooksPath()}/${hook.id}/test`, { method: 'POST', token: f.admin.token });
    await deliveryWhen(hook.id, (d) => d.attempts.length === 1 && d.state === 'pending');
    advance(5_000);
    await deliveryWhen(hook.id, (d) => d.attempts.length === 2 && d.state === 'pending');
    advance(60_000);
    const failed = await deliveryWhen(hook.id, (d) => d.state === 'failed');
    expect(failed.attempts.map((a) => a.responseStatus)).toEqual([503, 503, 503]);

    const endpoint = await server.call(`${hooksPath()}/${hook.id}`, { token: f.admin.token });
    expect(endpoint.body.data).toMatchObject({ enabled: false, disabledAt: server.clock.now().toISOString() });
    expect(endpoint.body.data.disabledReason).toMatch(/^Disabled after 3 failed attempts/);
    const feed = await server.call(`/v1/organization/${f.orgA.id}/activity?action=webhook_disabled`, {
      token: f.admin.token,
    });
    expect(feed.body.data).toMatchObject([{ action: 'webhook_disabled', details: { webhookId: hook.id } }]);
    // The notice is itself an activity.created event.
    const notice = await deliveryWhen(watcher.id, (d) => d.state === 'succeeded');
    expect(notice.eventType).toBe('activity.created');
    const noticeRequest = receiver.received.find((r) => r.headers['webhook-id'] === notice.eventId)!;
    expect(verified(watcher.secret, noticeRequest).data).toMatchObject({ action: 'webhook_disabled' });

    // A disabled endpoint cannot be tested until it is enabled again.
    const test = await server.call(`${hooksPath()}/${hook.id}/test`, { method: 'POST', token: f.admin.token });
    expect(test.status).toBe(409);
    const enabled = await server.call(`${hooksPath()}/${hook.id}`, {
      method: 'PATCH',
      token: f.admin.token,
      json: { enabled: true },
    });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
    for (const id of [hook.id, watcher.id]) {
      await server.call(`${hooksPath()}/${id}`, { method: 'DELETE', token: f.admin.token });
    }
  });

  it('pushes settings.updated and activity.created from the settings change, in its transaction', async () => {
    const hook = await createHook({ events: ['settings.updated', 'activity.created'] });
    const before = receiver.received.length;
    const res = await server.call(`/v1/organization/${f.orgA.id}/email-filing-settings`, {
      method: 'PATCH',
      token: f.admin.token,
      json: { aiSuggest: true },
    });
    expect(res.status).toBe(200);
    const payloads = (await receiver.waitForRequests(before + 2)).slice(before).map((r) => verified(hook.secret, r));
    expect(payloads.map((p) => p.type).sort()).toEqual(['activity.created', 'settings.updated']);
    expect(payloads.find((p) => p.type === 'settings.updated')!.data).toMatchObject({
      setting: 'emailFiling.aiSuggest',
      from: false,
      to: true,
      updatedBy: { id: f.admin.id },
    });
    expect(payloads.find((p) => p.type === 'activity.created')!.data).toMatchObject({
      action: 'settings_changed',
      actor: { uid: f.admin.id },
    });
    await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
  });

  it('pushes comment.deleted when an admin deletes a comment, and nothing for events not subscribed', async () => {
    const db = server.database.db;
    const hook = await createHook({ events: ['comment.deleted'] });
    await insertDocument(db, {
      id: 'doc_hooks_rfi',
      organizationId: f.orgA.id,
      projectId: f.projectA1.id,
      number: 'RFI-0077',
      title: 'Slab edge',
    });
    await db.insert(comments).values({
      id: 'cmt_hooks',
      organizationId: f.orgA.id,
      projectId: f.projectA1.id,
      documentId: 'doc_hooks_rfi',
      authorId: f.member.id,
      body: 'Please check the slab edge.',
    });
    const before = receiver.received.length;
    expect((await server.call('/v1/admin/comments/cmt_hooks', { method: 'DELETE', token: f.admin.token })).status).toBe(
      204,
    );
    const [request] = (await receiver.waitForRequests(before + 1)).slice(before);
    expect(verified(hook.secret, request!)).toMatchObject({
      type: 'comment.deleted',
      data: { commentId: 'cmt_hooks', documentId: 'doc_hooks_rfi', deletedBy: { id: f.admin.id } },
    });
    // The deletion's activity.created was not for this endpoint: one delivery only.
    const log = await deliveryWhen(hook.id, (d) => d.state === 'succeeded');
    expect(await deliveriesOf(hook.id)).toEqual([log]);
    await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
  });

  it('lists deliveries newest first, a page at a time', async () => {
    const hook = await createHook({ events: ['webhook.test'] });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      server.clock.advance(1000);
      const sent = await server.call(`${hooksPath()}/${hook.id}/test`, { method: 'POST', token: f.admin.token });
      ids.push(sent.body.data.id);
    }
    const first = await server.call(`${hooksPath()}/${hook.id}/deliveries?limit=2`, { token: f.admin.token });
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.hasMore).toBe(true);
    const second = await server.call(
      `${hooksPath()}/${hook.id}/deliveries?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      { token: f.admin.token },
    );
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(second.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    expect((await server.call(`${hooksPath()}/${hook.id}/deliveries?limit=51`, { token: f.admin.token })).status).toBe(
      400,
    );
    await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
  });
});

describe('webhooks and project-scoped keys', () => {
  it('answers 403 to a key scoped to one project on every webhook route of the route table', async () => {
    const hook = await createHook({ events: ['webhook.test'] });
    const projectKey = await f.client('all', { projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id }] });
    const webhookRoutes = allRoutes().filter(
      (route) =>
        route.path.includes('/webhooks') ||
        (route.access.kind === 'permission' && route.access.permission === 'webhook:manage'),
    );
    expect(webhookRoutes.length).toBeGreaterThanOrEqual(7);
    for (const route of webhookRoutes) {
      const path = route.path.replace(':orgId', f.orgA.id).replace(':webhookId', hook.id);
      const res = await server.call(path, {
        method: route.method.toUpperCase(),
        token: projectKey.token,
        json: ['get', 'delete'].includes(route.method) ? undefined : { url: receiver.url, events: ['email.filed'] },
      });
      expect(res.status, `${route.method} ${route.path}`).toBe(403);
      expect(res.body).toMatchObject({
        error: 'webhook:manage needs organization scope: this key reaches only some projects of the organization',
        errorCode: 'forbidden',
      });
    }
    // Nothing was changed, tested or deleted.
    const after = await server.call(`${hooksPath()}/${hook.id}`, { token: f.admin.token });
    expect(after.body.data).toMatchObject({ url: receiver.url, events: ['webhook.test'], enabled: true });
    expect(await deliveriesOf(hook.id)).toEqual([]);
    await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
  });

  it("sends an endpoint only events its creator may read now: none of another project's, none once disabled", async () => {
    const key = await f.client(['webhook:manage'], { orgs: [f.orgA.id] });
    const hook = await createHook({ url: `${receiver.url}/narrowed`, events: ['email.filed'] }, key.token);
    // The key's scope shrinks to project A1 (by the organization's admin, as the admin console does).
    const narrowed = await server.call(`/v1/organization/${f.orgA.id}/clients/${key.id}`, {
      method: 'PATCH',
      token: f.admin.token,
      json: { scopes: { projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id }] } },
    });
    expect(narrowed.status).toBe(200);
    const file = async (projectId: string, subject: string) => {
      const res = await server.call(`/v1/organization/${f.orgA.id}/project/${projectId}/emails`, {
        method: 'POST',
        token: f.member.token,
        headers: { 'content-type': 'message/rfc822' },
        body: mime({ messageId: `<${subject.replace(/\W/g, '-')}@acme-eng.test>`, subject }),
      });
      expect(res.status).toBe(201);
      return res.body as { id: string };
    };
    const elsewhere = await file(f.projectA2.id, 'Tender prices for A2 only');
    const own = await file(f.projectA1.id, 'Pile cap rebar for A1');

    const delivered = await deliveryWhen(hook.id, (d) => d.state === 'succeeded');
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
    const request = receiver.received.find((r) => r.headers['webhook-id'] === delivered.eventId)!;
    expect(verified(hook.secret, request)).toMatchObject({
      type: 'email.filed',
      data: { id: own.id, projectId: f.projectA1.id },
    });
    const toThisEndpoint = receiver.received.filter((r) => r.headers['webhook-id'] && r.body.includes(elsewhere.id));
    expect(toThisEndpoint).toEqual([]);

    // Once the key is disabled, the endpoint gets nothing more, even of its own project.
    const disabled = await server.call(`/v1/organization/${f.orgA.id}/clients/${key.id}`, {
      method: 'PATCH',
      token: f.admin.token,
      json: { enabled: false },
    });
    expect(disabled.status).toBe(200);
    await file(f.projectA1.id, 'Pile cap rebar, second issue');
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
    await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
  });
});

describe('webhooks of a person who leaves', () => {
  it('sends nothing more once the admin who made the endpoint is removed from the organization', async () => {
    const person = await createUser(server.database.db, {
      email: 'leaving-admin@harbor.test',
      name: 'Lee Leaving',
      memberships: [{ orgId: f.orgA.id, role: 'admin' }],
    });
    const hook = await createHook({ events: ['settings.updated'] }, f.userToken(person.id));
    const change = (aiSuggest: boolean) =>
      server.call(`/v1/organization/${f.orgA.id}/email-filing-settings`, {
        method: 'PATCH',
        token: f.admin.token,
        json: { aiSuggest },
      });
    // Whatever the setting was, one of the two is a change (a settings.updated event).
    for (const aiSuggest of [true, false]) expect((await change(aiSuggest)).status).toBe(200);
    const whileMember = (await deliveriesOf(hook.id)).length;
    expect(whileMember).toBeGreaterThan(0);
    const removed = await server.call(`/v1/organization/${f.orgA.id}/members/${person.id}`, {
      method: 'DELETE',
      token: f.admin.token,
    });
    expect(removed.status).toBe(204);
    expect((await change(true)).status).toBe(200);
    expect(await deliveriesOf(hook.id)).toHaveLength(whileMember);
    await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
  });
});

// The matrix's endpoints are inserted directly (the served cases of DELETE remove theirs): unreachable URL, only
// the test event.
const matrixHook = async (fixtures: Fixtures) => {
  const at = server.clock.now();
  const row = await insertWebhook(server.database.db, {
    id: `whk_matrix_${Math.random().toString(36).slice(2)}`,
    organizationId: fixtures.orgA.id,
    url: 'http://127.0.0.1:9/unreachable',
    events: ['webhook.test'],
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    createdById: fixtures.admin.id,
    createdAt: at,
    updatedAt: at,
  });
  return { webhookId: row.id };
};
const created = (res: { status: number }) => expect(res.status).toBe(201);

describeAuthMatrix('create a webhook', () => ({ server, fixtures: f }), {
  method: 'POST',
  path: '/v1/organization/{orgId}/webhooks',
  json: { url: 'http://127.0.0.1:9/unreachable', events: ['webhook.test'] },
  expectOk: created,
});
describeAuthMatrix('list webhooks', () => ({ server, fixtures: f }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/webhooks',
});
describeAuthMatrix('read one webhook', () => ({ server, fixtures: f }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/webhooks/{webhookId}',
  vars: matrixHook,
});
describeAuthMatrix('change a webhook', () => ({ server, fixtures: f }), {
  method: 'PATCH',
  path: '/v1/organization/{orgId}/webhooks/{webhookId}',
  vars: matrixHook,
  json: { description: 'changed' },
});
describeAuthMatrix('delete a webhook', () => ({ server, fixtures: f }), {
  method: 'DELETE',
  path: '/v1/organization/{orgId}/webhooks/{webhookId}',
  vars: matrixHook,
  expectOk: (res) => expect(res.status).toBe(204),
});
describeAuthMatrix('webhook deliveries', () => ({ server, fixtures: f }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/webhooks/{webhookId}/deliveries',
  vars: matrixHook,
});
describeAuthMatrix('replay a webhook', () => ({ server, fixtures: f }), {
  method: 'POST',
  path: '/v1/organization/{orgId}/webhooks/{webhookId}/replay',
  vars: matrixHook,
  json: { from: '2020-01-01T00:00:00.000Z' },
  expectOk: (res) => expect(res.status).toBe(202),
});
describeAuthMatrix('test a webhook', () => ({ server, fixtures: f }), {
  method: 'POST',
  path: '/v1/organization/{orgId}/webhooks/{webhookId}/test',
  vars: matrixHook,
  expectOk: (res) => expect(res.status).toBe(202),
});
