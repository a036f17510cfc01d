import { describe, expect, it } from 'vitest';
import { configureFixtureServer, f, server } from '../../test/fixture-server.js';
import { createUser } from '../users/service.js';
import { receiverForFile, verified } from './webhooks.fixtures.js';

/**
 * Issue 40 item 2, with a real receiver and the `standardwebhooks` verifier: events raised while an endpoint is
 * disabled arrive, oldest first, when it is enabled again; a replay resends a range; the people events exist.
 */
configureFixtureServer({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', WEBHOOK_RETRY_SCHEDULE_SECONDS: '5,60' } });

const receiver = receiverForFile();

const hooksPath = () => `/v1/organization/${f.orgA.id}/webhooks`;
const peopleEvents = ['person.disabled', 'person.enabled', 'person.removed', 'person.role_changed'];

async function createHook(events: string[]) {
  const res = await server.call(hooksPath(), {
    method: 'POST',
    token: f.admin.token,
    json: { url: receiver.url, events },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

const setEnabled = async (id: string, enabled: boolean) => {
  const res = await server.call(`${hooksPath()}/${id}`, { method: 'PATCH', token: f.admin.token, json: { enabled } });
  expect(res.status).toBe(200);
};

const newMember = async () => {
  const email = `held-${Math.random().toString(36).slice(2, 10)}@harbor.test`;
  return createUser(server.database.db, {
    email,
    name: `Held ${email.slice(5, 9)}`,
    password: 'person-pass-1',
    memberships: [{ orgId: f.orgA.id, role: 'member' }],
  });
};

/** The four people events of one person, through the API, in this order. */
async function changePerson(userId: string) {
  const member = `/v1/organization/${f.orgA.id}/members/${userId}`;
  const role = await server.call(member, { method: 'PATCH', token: f.admin.token, json: { role: 'admin' } });
  expect(role.status).toBe(200);
  for (const disabled of [true, false]) {
    const res = await server.call(`/v1/admin/users/${userId}`, {
      method: 'PATCH',
      token: f.staff.token,
      json: { disabled },
    });
    expect(res.status).toBe(200);
  }
  const removed = await server.call(member, { method: 'DELETE', token: f.admin.token });
  expect(removed.status).toBe(204);
}

/** The verified requests the receiver got from this endpoint's secret, from index `from` on. */
const payloadsSince = (secret: string, from: number) =>
  receiver.received.slice(from).map((request) => ({
    id: String(request.headers['webhook-id']),
    ...(verified(secret, request) as { type: string; data: { person: { id: string }; role?: unknown } }),
  }));

describe('webhook events are not lost', () => {
  it('people events: role changed, disabled, enabled and removed arrive signed, with the person and roles', async () => {
    const hook = await createHook(peopleEvents);
    const person = await newMember();
    const before = receiver.received.length;
    await changePerson(person.id);
    await receiver.waitForRequests(before + 4);
    const payloads = payloadsSince(hook.secret, before);
    expect(payloads.map((p) => p.type).sort()).toEqual([...peopleEvents].sort());
    for (const p of payloads) expect(p.data.person.id).toBe(person.id);
    expect(payloads.find((p) => p.type === 'person.role_changed')?.data.role).toEqual({
      before: 'member',
      after: 'admin',
    });
    expect(payloads.find((p) => p.type === 'person.removed')?.data.role).toEqual({ before: 'admin', after: null });
    await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
  });

  it('an endpoint disabled then enabled again receives every event raised meanwhile', async () => {
    const hook = await createHook(peopleEvents);
    await setEnabled(hook.id, false);
    const people = [await newMember(), await newMember()];
    const before = receiver.received.length;
    for (const person of people) await changePerson(person.id);
    // Nothing is sent while it is disabled; the log shows the events held.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received.length).toBe(before);
    const log = await server.call(`${hooksPath()}/${hook.id}/deliveries`, { token: f.admin.token });
    expect(log.body.data.map((d: { state: string }) => d.state)).toEqual(Array(8).fill('held'));
    await setEnabled(hook.id, true);
    await receiver.waitForRequests(before + 8);
    const payloads = payloadsSince(hook.secret, before);
    expect(payloads).toHaveLength(8);
    for (const person of people) {
      expect(
        payloads
          .filter((p) => p.data.person.id === person.id)
          .map((p) => p.type)
          .sort(),
      ).toEqual([...peopleEvents].sort());
    }
    await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
  });

  it('a replay resends the events of a range with their ids; a later range resends nothing; audited', async () => {
    const hook = await createHook(peopleEvents);
    const start = server.clock.now().toISOString();
    const before = receiver.received.length;
    await changePerson((await newMember()).id);
    await receiver.waitForRequests(before + 4);
    const first = payloadsSince(hook.secret, before);
    // A replay skips events whose delivery is still under way: wait until the sender has recorded all four as sent
    // (the receiver has them a moment before that).
    await expect
      .poll(async () => {
        const log = await server.call(`${hooksPath()}/${hook.id}/deliveries`, { token: f.admin.token });
        return log.body.data.filter((d: { state: string }) => d.state === 'succeeded').length;
      })
      .toBe(4);
    const replay = (json: Record<string, unknown>) =>
      server.call(`${hooksPath()}/${hook.id}/replay`, { method: 'POST', token: f.admin.token, json });
    const res = await replay({ from: start });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ queued: 4, more: false });
    await receiver.waitForRequests(before + 8);
    const again = payloadsSince(hook.secret, before + 4);
    expect(again.map((p) => p.id).sort()).toEqual(first.map((p) => p.id).sort());
    // After the last event: nothing.
    const after = await replay({ afterEventId: res.body.data.lastEventId });
    expect(after.body.data).toMatchObject({ queued: 0, more: false, lastEventId: null });
    // Neither end given, or both: 400. A member may not replay: 403.
    expect((await replay({})).status).toBe(400);
    expect((await replay({ from: start, afterEventId: 'msg_x' })).status).toBe(400);
    const asMember = await server.call(`${hooksPath()}/${hook.id}/replay`, {
      method: 'POST',
      token: f.member.token,
      json: { from: start },
    });
    expect(asMember.status).toBe(403);
    const audit = await server.call(`/v1/organization/${f.orgA.id}/audit-events?limit=50`, { token: f.admin.token });
    const replays = audit.body.data.filter(
      (e: { action: string; target: { id: string } }) => e.action === 'webhook.replayed' && e.target.id === hook.id,
    );
    expect(replays).toHaveLength(2);
    await setEnabled(hook.id, false);
    expect((await replay({ from: start })).status).toBe(409);
    await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
  });

  it('the OpenAPI document has a webhooks section describing each event type', async () => {
    const res = await server.call('/v1/openapi.json');
    const webhooks = res.body.webhooks as Record<string, { post: { requestBody: unknown } }>;
    for (const type of [...peopleEvents, 'email.filed', 'audit.event', 'webhook.test']) {
      expect(webhooks[type]?.post.requestBody, type).toBeDefined();
    }
    const body = JSON.stringify(webhooks['person.role_changed']);
    expect(body).toContain('webhook-signature');
    expect(body).toContain('held up to 30 days');
    // Nothing raises it, so it is no event to subscribe to.
    expect(webhooks['dispatch.created']).toBeUndefined();
  });

  it('events older than the 30-day hold are deleted with their deliveries; newer ones stay', async () => {
    const start = server.clock.now();
    const hook = await createHook(['webhook.test']);
    // Tokens signed on the moved clock (the fixtures' own expire within hours).
    const adminToken = () => server.app.context.tokens.sign(f.admin.id, 'user').token;
    const deliveries = async () => {
      const log = await server.call(`${hooksPath()}/${hook.id}/deliveries`, { token: adminToken() });
      expect(log.status).toBe(200);
      return (log.body.data as { eventId: string; state: string }[]).map((d) => d.eventId);
    };
    const sendTest = async () => {
      const before = receiver.received.length;
      const res = await server.call(`${hooksPath()}/${hook.id}/test`, { method: 'POST', token: adminToken() });
      expect(res.status).toBe(202);
      await receiver.waitForRequests(before + 1);
    };
    try {
      await sendTest();
      server.clock.advance(20 * 86_400_000);
      await sendTest();
      const [newer, older] = await deliveries();
      expect(older).toBeDefined();
      // 31 days after the first event, 11 after the second.
      server.clock.advance(11 * 86_400_000);
      server.app.context.webhooks.nudge();
      await expect.poll(deliveries).toEqual([newer]);
    } finally {
      server.clock.set(start);
      await server.call(`${hooksPath()}/${hook.id}`, { method: 'DELETE', token: f.admin.token });
    }
  });
});
