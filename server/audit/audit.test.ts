import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { configureFixtureServer, ctx, f, server } from '../../test/fixture-server.js';
import { auditEvents } from '../db/schema.js';
import type { Route } from '../http/route.js';
import { addinSignIn } from '../oauth/browser.fixtures.js';
import { allRoutes } from '../routes.js';
import { type DnsServer, startDnsServer } from '../sso/dns-server.fixtures.js';
import { createUser } from '../users/service.js';

/** Answers the TXT record that proves an SSO domain (`verifyOrganizationSsoDomain`). */
let dns: DnsServer;
configureFixtureServer(async () => {
  dns = await startDnsServer();
  return { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', SSO_DNS_SERVERS: dns.address } };
});
afterAll(() => dns?.close());

describeAuthMatrix('audit events', ctx, { method: 'GET', path: '/v1/organization/{orgId}/audit-events' });

/**
 * The administrative routes: every route that changes something (not GET) and that only organization admins,
 * staff, or keys holding a managing permission (client:create, webhook:manage) may call.
 */
const isAdministrative = (route: Route): boolean => {
  if (route.method === 'get') return false;
  const rule = route.access;
  if (rule.kind === 'orgAdmin' || rule.kind === 'staff') return true;
  return rule.kind === 'permission' && Boolean(rule.orgAdminsToo || rule.staffToo);
};

/** Administrative routes that change no administrative state, with the reason. */
const notAudited: Record<string, string> = {
  testWebhook: 'sends a test event to an endpoint; changes nothing',
  adminBundleDrawings: 'builds a download of drawings; a read',
  adminCreateSupportIssue: "files a support ticket with staff; changes nothing of the organization's administration",
};

const ssoConnection = {
  issuer: 'https://login.example.test',
  clientId: 'sitefile',
  clientSecret: 'identity-provider-secret',
  domains: ['harbor.test'],
};

const personInA = async (role: 'admin' | 'member' = 'member') => {
  const email = `p-${randomUUID()}@harbor.test`;
  return createUser(server.database.db, {
    email,
    name: `Pat ${email.slice(2, 8)}`,
    password: 'person-pass-1',
    memberships: [{ orgId: f.orgA.id, role }],
  });
};
const keyInA = () => f.client(['organization:read'], { orgs: [f.orgA.id] });
const newWebhook = async () =>
  (
    await server.call(`/v1/organization/${f.orgA.id}/webhooks`, {
      method: 'POST',
      token: f.admin.token,
      json: { url: 'http://127.0.0.1:9/hook', events: ['audit.event'] },
    })
  ).body.data.id as string;
const toggledAiSuggest = async () =>
  !(await server.call(`/v1/organization/${f.orgA.id}/email-filing-settings`, { token: f.admin.token })).body.data
    .aiSuggest;
const newKeyBody = () => ({
  name: 'Audited key',
  permissions: { 'organization:read': true },
  scopes: { orgs: [f.orgA.id], projects: [] },
});

type Call = { method: string; path: string; token: string; json?: unknown; action: string };
const a = () => `/v1/organization/${f.orgA.id}`;

/** One successful call of each audited route, and the action it records. */
const calls: Record<string, () => Promise<Call>> = {
  createClient: async () => ({
    method: 'POST',
    path: '/v1/client',
    token: f.staff.token,
    json: newKeyBody(),
    action: 'key.created',
  }),
  adminUpdateClient: async () => ({
    method: 'PATCH',
    path: `/v1/admin/clients/${(await keyInA()).id}`,
    token: f.staff.token,
    json: { enabled: false },
    action: 'key.disabled',
  }),
  adminDeleteClient: async () => ({
    method: 'DELETE',
    path: `/v1/admin/clients/${(await keyInA()).id}`,
    token: f.staff.token,
    action: 'key.deleted',
  }),
  adminRotateClientSecret: async () => ({
    method: 'POST',
    path: `/v1/admin/clients/${(await keyInA()).id}/rotate-secret`,
    token: f.staff.token,
    action: 'key.secret_rotated',
  }),
  createOrganizationClient: async () => ({
    method: 'POST',
    path: `${a()}/clients`,
    token: f.admin.token,
    json: newKeyBody(),
    action: 'key.created',
  }),
  updateOrganizationClient: async () => ({
    method: 'PATCH',
    path: `${a()}/clients/${(await keyInA()).id}`,
    token: f.admin.token,
    json: { name: 'Renamed' },
    action: 'key.updated',
  }),
  deleteOrganizationClient: async () => ({
    method: 'DELETE',
    path: `${a()}/clients/${(await keyInA()).id}`,
    token: f.admin.token,
    action: 'key.deleted',
  }),
  rotateOrganizationClientSecret: async () => ({
    method: 'POST',
    path: `${a()}/clients/${(await keyInA()).id}/rotate-secret`,
    token: f.admin.token,
    action: 'key.secret_rotated',
  }),
  createProject: async () => ({
    method: 'POST',
    path: `${a()}/project`,
    token: f.admin.token,
    json: { name: 'Audited Yard' },
    action: 'project.created',
  }),
  updateProject: async () => ({
    method: 'PATCH',
    path: `${a()}/project/${f.projectA2.id}`,
    token: f.admin.token,
    json: { code: `C-${randomUUID().slice(0, 6)}` },
    action: 'project.updated',
  }),
  updateEmailFilingSettings: async () => ({
    method: 'PATCH',
    path: `${a()}/email-filing-settings`,
    token: f.admin.token,
    json: { aiSuggest: await toggledAiSuggest() },
    action: 'settings.updated',
  }),
  adminUpdateEmailFilingSettings: async () => ({
    method: 'PATCH',
    path: `/v1/admin/organizations/${f.orgA.id}/email-filing-settings`,
    token: f.staff.token,
    json: { aiSuggest: await toggledAiSuggest() },
    action: 'settings.updated',
  }),
  updateOrganizationMember: async () => ({
    method: 'PATCH',
    path: `${a()}/members/${(await personInA()).id}`,
    token: f.admin.token,
    json: { role: 'admin' },
    action: 'member.role_changed',
  }),
  removeOrganizationMember: async () => ({
    method: 'DELETE',
    path: `${a()}/members/${(await personInA()).id}`,
    token: f.admin.token,
    action: 'member.removed',
  }),
  adminUpdateUser: async () => ({
    method: 'PATCH',
    path: `/v1/admin/users/${(await personInA()).id}`,
    token: f.staff.token,
    json: { disabled: true },
    action: 'person.disabled',
  }),
  createWebhook: async () => ({
    method: 'POST',
    path: `${a()}/webhooks`,
    token: f.admin.token,
    json: { url: 'http://127.0.0.1:9/new', events: ['email.filed'] },
    action: 'webhook.created',
  }),
  updateWebhook: async () => ({
    method: 'PATCH',
    path: `${a()}/webhooks/${await newWebhook()}`,
    token: f.admin.token,
    json: { description: 'Changed' },
    action: 'webhook.updated',
  }),
  createOrganizationScimToken: async () => {
    // None yet, so that the action is `created` (a second one is `rotated`).
    await server.call(`${a()}/scim-token`, { method: 'DELETE', token: f.admin.token });
    return { method: 'POST', path: `${a()}/scim-token`, token: f.admin.token, action: 'scim_token.created' };
  },
  revokeOrganizationScimToken: async () => {
    await server.call(`${a()}/scim-token`, { method: 'POST', token: f.admin.token });
    return { method: 'DELETE', path: `${a()}/scim-token`, token: f.admin.token, action: 'scim_token.revoked' };
  },
  saveOrganizationSso: async () => {
    // None yet, so that the action is `configured` (a change is `updated`).
    await server.call(`${a()}/sso`, { method: 'DELETE', token: f.admin.token });
    return { method: 'PUT', path: `${a()}/sso`, token: f.admin.token, json: ssoConnection, action: 'sso.configured' };
  },
  verifyOrganizationSsoDomain: async () => {
    // A new connection, so that the domain is pending (verifying a verified one changes nothing).
    await server.call(`${a()}/sso`, { method: 'DELETE', token: f.admin.token });
    await server.call(`${a()}/sso`, { method: 'PUT', token: f.admin.token, json: ssoConnection });
    const connection = (await server.call(`${a()}/sso`, { token: f.admin.token })).body.data;
    const [{ txtName, txtValue }] = connection.domainStatus;
    dns.txt.set(txtName, [txtValue]);
    return {
      method: 'POST',
      path: `${a()}/sso/domains/harbor.test/verify`,
      token: f.admin.token,
      action: 'sso.domain_verified',
    };
  },
  removeOrganizationSso: async () => {
    await server.call(`${a()}/sso`, { method: 'PUT', token: f.admin.token, json: ssoConnection });
    return { method: 'DELETE', path: `${a()}/sso`, token: f.admin.token, action: 'sso.removed' };
  },
  replayWebhook: async () => ({
    method: 'POST',
    path: `${a()}/webhooks/${await newWebhook()}/replay`,
    token: f.admin.token,
    json: { from: '2020-01-01T00:00:00.000Z' },
    action: 'webhook.replayed',
  }),
  deleteWebhook: async () => ({
    method: 'DELETE',
    path: `${a()}/webhooks/${await newWebhook()}`,
    token: f.admin.token,
    action: 'webhook.deleted',
  }),
};

const auditCount = async () => (await server.database.db.select({ n: count() }).from(auditEvents))[0]!.n;

const events = (orgId: string, token: string, query = '') =>
  server.call(`/v1/organization/${orgId}/audit-events${query}`, { token });

describe('every administrative route writes exactly one audit event', () => {
  const administrative = allRoutes().filter(isAdministrative);

  it('knows every administrative route: audited with a call here, or exempt with a reason', () => {
    expect(administrative.length).toBeGreaterThan(15);
    for (const route of administrative) {
      expect(
        route.operationId in calls || route.operationId in notAudited,
        `${route.operationId} has no audit case`,
      ).toBe(true);
    }
  });

  for (const route of administrative.filter((r) => r.operationId in calls)) {
    it(`${route.method.toUpperCase()} ${route.path} (${route.operationId})`, async () => {
      const call = await calls[route.operationId]!();
      const before = await auditCount();
      const res = await server.call(call.path, { method: call.method, token: call.token, json: call.json });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      expect(await auditCount()).toBe(before + 1);
      const [newest] = (await events(f.orgA.id, f.admin.token, `?action=${call.action}&limit=1`)).body.data;
      expect(newest).toMatchObject({ organizationId: f.orgA.id, action: call.action });
      expect(newest.ip).toMatch(/127\.0\.0\.1|::1/);
      for (const secret of [res.body.client_secret, res.body.data?.secret, res.body.data?.token].filter(Boolean)) {
        expect(JSON.stringify(newest)).not.toContain(secret);
      }
    });
  }
});

describe('audit events of an organization', () => {
  let adminB: { id: string; token: string };
  beforeAll(async () => {
    const created = await createUser(server.database.db, {
      email: `b-admin-${randomUUID()}@ridgeline.test`,
      name: 'Bea Admin',
      password: 'b-admin-pass-1',
      memberships: [{ orgId: f.orgB.id, role: 'admin' }],
    });
    adminB = { id: created.id, token: f.userToken(created.id) };
  });

  it('tells who changed what, before and after, and never the secret', async () => {
    const created = await server.call(`${a()}/clients`, { method: 'POST', token: f.admin.token, json: newKeyBody() });
    await server.call(`${a()}/clients/${created.body.id}`, {
      method: 'PATCH',
      token: f.admin.token,
      json: { name: 'Site key', enabled: false },
    });
    const [disabled] = (await events(f.orgA.id, f.admin.token, `?action=key.disabled&actorId=${f.admin.id}`)).body.data;
    expect(disabled).toMatchObject({
      actor: { kind: 'user', id: f.admin.id, name: 'Ada Admin', email: 'admin@harbor.test' },
      target: { type: 'key', id: created.body.id },
      changes: { name: { before: 'Audited key', after: 'Site key' }, enabled: { before: true, after: false } },
    });
    expect(JSON.stringify((await events(f.orgA.id, f.admin.token, '?limit=50')).body)).not.toContain(
      created.body.client_secret,
    );
  });

  it("another organization's admin never sees them; a member gets 403", async () => {
    await server.call(`${a()}/project/${f.projectA1.id}`, {
      method: 'PATCH',
      token: f.admin.token,
      json: { code: 'HB-1' },
    });
    expect((await events(f.orgA.id, adminB.token)).status).toBe(403);
    expect((await events(f.orgA.id, f.member.token)).status).toBe(403);
    const own = await events(f.orgB.id, adminB.token, '?limit=50');
    expect(own.status).toBe(200);
    expect(own.body.data.every((e: { organizationId: string }) => e.organizationId === f.orgB.id)).toBe(true);
    expect(JSON.stringify(own.body)).not.toContain(f.projectA1.id);
  });

  it('records sign-ins, refused and answered, with the address', async () => {
    const person = await personInA();
    await expect(addinSignIn(server, { email: person.email, password: 'wrong-password' })).rejects.toThrow();
    await addinSignIn(server, { email: person.email, password: 'person-pass-1' });
    const signIns = (
      await events(f.orgA.id, f.admin.token, `?action=signin.failed,signin.succeeded&actorId=${person.id}`)
    ).body.data;
    expect(signIns.map((e: { action: string }) => e.action).sort()).toEqual(['signin.failed', 'signin.succeeded']);
    expect(signIns[0]).toMatchObject({ actor: { email: person.email }, ip: expect.any(String) });
  });

  it('pages with a cursor, filters by time, exports CSV', async () => {
    for (const code of ['P1', 'P2', 'P3']) {
      await server.call(`${a()}/project/${f.projectA1.id}`, { method: 'PATCH', token: f.admin.token, json: { code } });
    }
    const first = await events(f.orgA.id, f.admin.token, '?action=project.updated&limit=2');
    expect(first.body).toMatchObject({ hasMore: true });
    const second = await events(
      f.orgA.id,
      f.admin.token,
      `?action=project.updated&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    const ids = [...first.body.data, ...second.body.data].map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await events(f.orgA.id, f.admin.token, '?to=2000-01-01')).body.data).toEqual([]);
    expect((await events(f.orgA.id, f.admin.token, '?limit=51')).status).toBe(400);
    const csv = await server.call(`/v1/organization/${f.orgA.id}/audit-events?action=project.updated`, {
      token: f.admin.token,
      headers: { accept: 'text/csv' },
    });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    // Read by a strict RFC 4180 parser: CRLF records, no stray quotes, every row as wide as the header.
    const [header, ...rows] = parse(csv.body, {
      record_delimiter: '\r\n',
      relax_quotes: false,
      relax_column_count: false,
      skip_empty_lines: false,
    }) as string[][];
    expect(header).toEqual(
      'id,createdAt,action,actorKind,actorId,actorName,actorEmail,ip,targetType,targetId,changes'.split(','),
    );
    const json = (await events(f.orgA.id, f.admin.token, '?action=project.updated&limit=50')).body.data;
    expect(rows.map((row) => row[0])).toEqual(json.map((e: { id: string }) => e.id));
    // The changes (JSON with commas and quotes) survive the quoting intact.
    expect(rows.map((row) => JSON.parse(row[10] ?? ''))).toEqual(json.map((e: { changes: unknown }) => e.changes));
    expect(new Set(rows.map((row) => row[2]))).toEqual(new Set(['project.updated']));
  });

  it('pushes each event to the endpoints subscribed to audit.event', async () => {
    const webhookId = await newWebhook();
    await server.call(`${a()}/project/${f.projectA1.id}`, {
      method: 'PATCH',
      token: f.admin.token,
      json: { code: 'W1' },
    });
    const deliveries = await server.call(`${a()}/webhooks/${webhookId}/deliveries`, { token: f.admin.token });
    expect(deliveries.body.data.map((d: { eventType: string }) => d.eventType)).toContain('audit.event');
  });

  it('can never be edited or deleted, not even by SQL', async () => {
    const db = server.database.db;
    await expect(db.execute(sql`update audit_events set action = 'forged'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_events`)).rejects.toThrow();
    expect(await auditCount()).toBeGreaterThan(0);
  });
});
