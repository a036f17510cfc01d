import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '../server/db/schema.js';
import { type Access, type AccessScope, type OwnerRule, PERSON_NEEDED, type Route } from '../server/http/route.js';
import { allRoutes } from '../server/routes.js';
import { createUser } from '../server/users/service.js';
import { permissionKeys } from '../shared/permissions.js';
import type { CallResult, ClientFixture, Fixtures, TestServer } from './harness.js';

/**
 * The permission matrix every protected route is tested with (as Unkey's runCommonRouteTests). Which cases apply
 * is read from the route's own `access` declaration (`server/routes.ts`, matched by method and path), so the
 * matrix checks what the server enforces. Every rule gets the token cases (no token, malformed, expired, signed
 * with another key, disabled key); then, by kind: a key without the permission, an organization outside the
 * key's scope, a project of another organization, a project outside scope (`permission`); keys, members, admins
 * of another organization, people who did not make the record (the people-only kinds); and who is served.
 * `test/auth-matrix-coverage.test.ts` fails for a declared route no matrix covers.
 *
 * `path` is a template: `{orgId}` and `{projectId}` are filled with organization A / project A1 for the
 * right token and swapped for the out-of-scope cases.
 */
export interface MatrixRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** Request body for every case (or built from the fixtures). */
  json?: unknown | ((f: Fixtures) => unknown);
  headers?: Record<string, string> | (() => Record<string, string>);
  /** What a caller the rule admits gets; defaults to expecting status 200. */
  expectOk?: (res: CallResult) => void;
  /**
   * Extra path variables (e.g. `{documentId}`) filled from the fixtures. Under an `ownerOrOrgAdmin` rule: a fresh
   * record made by `fixtures.member` in organization A on every call (the served cases may delete it).
   */
  vars?: (f: Fixtures) => Record<string, string> | Promise<Record<string, string>>;
}

type Ctx = () => { server: TestServer; fixtures: Fixtures };

/** What every case needs: sending the route's request with a token, and the callers the fixtures give. */
interface Probe {
  ctx: Ctx;
  send: (token: string | undefined, overrides?: Record<string, string>) => Promise<CallResult>;
  fullKey: () => Promise<ClientFixture>;
  expectOk: (res: CallResult) => void;
}

/** The declared route a matrix names: same method, same path segments (a `:param` takes any value). */
export function findDeclaredRoute(method: string, path: string): Route | undefined {
  const wanted = path.split('?')[0]!.split('/');
  const sameShape = (declared: string[]) =>
    declared.length === wanted.length && declared.every((part, i) => part.startsWith(':') || part === wanted[i]);
  return allRoutes().find((r) => r.method.toUpperCase() === method && sameShape(r.path.split('/')));
}

export function declaredRoute(method: string, path: string): Route {
  const route = findDeclaredRoute(method, path);
  if (!route) throw new Error(`auth matrix: no declared route for ${method} ${path}`);
  return route;
}

const fill = (template: string, vars: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new Error(`auth matrix: no value for {${name}}`);
    return encodeURIComponent(value);
  });

/** A token the server would accept but for one flaw; mirrors server/auth/tokens.ts claims. */
export function forgeToken(
  server: TestServer,
  options: { sub: string; typ?: 'client' | 'user'; expiresInSeconds?: number; secret?: string; kid?: string },
): string {
  const iat = Math.floor(server.clock.now().getTime() / 1000);
  return jwt.sign(
    { typ: options.typ ?? 'client', iat, exp: iat + (options.expiresInSeconds ?? 3600) },
    options.secret ?? server.config.jwtSigningKey!.secret,
    {
      algorithm: 'HS256',
      keyid: options.kid ?? server.config.jwtSigningKey!.id,
      subject: options.sub,
      issuer: server.config.publicUrl,
      audience: `${server.config.publicUrl}/v1`,
      jwtid: 'forged',
    },
  );
}

export function describeAuthMatrix(name: string, ctx: Ctx, route: MatrixRoute): void {
  const rule = declaredRoute(route.method, route.path).access;
  if (rule.kind === 'public') throw new Error(`auth matrix: ${route.method} ${route.path} is public, no token to test`);
  const probe = probeOf(ctx, route);
  describe(`${name}: ${route.method} ${route.path} access`, () => {
    describeTokenCases(probe);
    describeRuleCases(probe, rule);
  });
}

function probeOf(ctx: Ctx, route: MatrixRoute): Probe {
  const send = async (token: string | undefined, overrides: Record<string, string> = {}) => {
    const { server, fixtures } = ctx();
    const json = typeof route.json === 'function' ? (route.json as (f: Fixtures) => unknown)(fixtures) : route.json;
    const headers = typeof route.headers === 'function' ? route.headers() : route.headers;
    const vars = { orgId: fixtures.orgA.id, projectId: fixtures.projectA1.id, ...(await route.vars?.(fixtures)) };
    return server.call(fill(route.path, { ...vars, ...overrides }), { method: route.method, token, json, headers });
  };
  const fullKey = () => ctx().fixtures.client('all', { orgs: [ctx().fixtures.orgA.id] });
  return { ctx, send, fullKey, expectOk: route.expectOk ?? ((res) => expect(res.status).toBe(200)) };
}

/** An `expectOk` for a list: 200 with at least one row. */
export const expectRows = (res: CallResult) => {
  expect(res.status).toBe(200);
  expect(res.body.data.length).toBeGreaterThan(0);
};

const expectUnauthorized = (res: CallResult) => {
  expect(res.status).toBe(401);
  expect(res.body.errorCode).toBe('unauthorized');
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
};

const expectForbidden = (res: CallResult, error = 'Insufficient permissions') => {
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ error, errorCode: 'forbidden' });
};

function describeTokenCases({ ctx, send, fullKey }: Probe): void {
  it('refuses a request without a token (401)', async () => {
    expectUnauthorized(await send(undefined));
  });
  it('refuses a malformed token (401)', async () => {
    expectUnauthorized(await send('not-a-jwt'));
  });
  it('refuses an expired token (401)', async () => {
    const key = await fullKey();
    expectUnauthorized(await send(forgeToken(ctx().server, { sub: key.clientId, expiresInSeconds: -10 })));
  });
  it('refuses a token signed with another key (401)', async () => {
    const key = await fullKey();
    expectUnauthorized(
      await send(forgeToken(ctx().server, { sub: key.clientId, secret: 'another-key-0123456789abcdefghijklmnopq' })),
    );
  });
  it('refuses the token of a key disabled after issue (401)', async () => {
    const { server } = ctx();
    const key = await fullKey();
    await server.database.db.update(apiKeys).set({ enabled: false }).where(eq(apiKeys.id, key.id));
    await server.app.context.guard.invalidate(`client:${key.clientId}`);
    expectUnauthorized(await send(key.token));
  });
}

function describeRuleCases(probe: Probe, rule: Exclude<Access, { kind: 'public' }>): void {
  switch (rule.kind) {
    case 'authenticated':
      servesTheKey(probe);
      break;
    case 'clientKey':
      describeClientKeyCases(probe);
      break;
    case 'permission':
      describePermissionCases(probe, rule);
      break;
    case 'staff':
      describeStaffCases(probe);
      break;
    case 'user':
      refusesEveryKey(probe);
      serves(probe, 'member', 'staff');
      break;
    case 'orgAdmin':
      describeOrgAdminCases(probe);
      break;
    case 'ownerOrOrgAdmin':
      describeOwnerCases(probe, rule);
      break;
  }
}

function servesTheKey({ send, fullKey, expectOk }: Probe): void {
  it('serves the right token', async () => {
    expectOk(await send((await fullKey()).token));
  });
}

const servedAs = { member: 'a signed-in member', admin: "the organization's admin", staff: 'a staff user' } as const;

function serves({ ctx, send, expectOk }: Probe, ...who: (keyof typeof servedAs)[]): void {
  for (const person of who) {
    it(`serves ${servedAs[person]}`, async () => {
      expectOk(await send(ctx().fixtures[person].token));
    });
  }
}

function refusesEveryKey({ ctx, send, fullKey }: Probe): void {
  it('refuses every client key, superadmin included (403)', async () => {
    expectForbidden(await send((await fullKey()).token), PERSON_NEEDED);
    expectForbidden(await send((await ctx().fixtures.client('all', { superadmin: true })).token), PERSON_NEEDED);
  });
}

function describePermissionCases(probe: Probe, rule: Extract<Access, { kind: 'permission' }>): void {
  const { ctx, send } = probe;
  it(`refuses a key without ${rule.permission} (403)`, async () => {
    const { fixtures } = ctx();
    const others = permissionKeys.filter((p) => p !== rule.permission);
    expectForbidden(await send((await fixtures.client(others, { orgs: [fixtures.orgA.id] })).token));
  });
  if (rule.scope) describeScopeCases(probe, rule.scope, rule.permission);
  if (rule.staffToo) serves(probe, 'staff');
  if (rule.orgAdminsToo) describeOrgAdminsTooCases(probe);
  if (rule.peopleOnly) describePeopleOnlyCases(probe, rule.permission);
  else servesTheKey(probe);
}

/** A key holding the permission or an admin of the organization: members and other organizations' admins are not. */
function describeOrgAdminsTooCases(probe: Probe): void {
  const { ctx, send } = probe;
  it('refuses a member of the organization who is not its admin (403)', async () => {
    expectForbidden(await send(ctx().fixtures.member.token));
  });
  it('refuses an admin of another organization (403)', async () => {
    expectForbidden(await send(await personIn(ctx, ctx().fixtures.orgB.id, 'admin')));
  });
  serves(probe, 'admin', 'staff');
}

function describePeopleOnlyCases({ ctx, send, fullKey, expectOk }: Probe, permission: string): void {
  it(`refuses a client key holding ${permission} (403): people only`, async () => {
    expectForbidden(await send((await fullKey()).token), PERSON_NEEDED);
  });
  it('serves a signed-in member holding it', async () => {
    expectOk(await send(ctx().fixtures.member.token));
  });
}

function describeScopeCases({ ctx, send, fullKey }: Probe, scope: AccessScope, permission: string): void {
  it('refuses a key scoped to another organization (403)', async () => {
    const { fixtures } = ctx();
    expectForbidden(await send((await fixtures.client('all', { orgs: [fixtures.orgB.id] })).token));
  });
  if (scope === 'wholeOrg') {
    it('refuses a key scoped to one project of the organization (403): it needs organization scope', async () => {
      const { fixtures } = ctx();
      const key = await fixtures.client('all', {
        projects: [{ orgId: fixtures.orgA.id, projectId: fixtures.projectA1.id }],
      });
      expectForbidden(
        await send(key.token),
        `${permission} needs organization scope: this key reaches only some projects of the organization`,
      );
    });
  }
  if (scope !== 'project') return;
  it('answers 404 for a project of another organization in the path', async () => {
    const res = await send((await fullKey()).token, { projectId: ctx().fixtures.projectB1.id });
    expect(res.status).toBe(404);
    expect(res.body.errorCode).toBe('not_found');
  });
  it('refuses a key scoped to another project of the same organization (403)', async () => {
    const { fixtures } = ctx();
    const key = await fixtures.client('all', {
      projects: [{ orgId: fixtures.orgA.id, projectId: fixtures.projectA2.id }],
    });
    expectForbidden(await send(key.token));
  });
}

function describeClientKeyCases(probe: Probe): void {
  it('refuses a signed-in person, staff included (403)', async () => {
    const { fixtures } = probe.ctx();
    for (const person of [fixtures.member, fixtures.staff]) {
      expectForbidden(await probe.send(person.token), 'A client token is required');
    }
  });
  servesTheKey(probe);
}

/** A signed-in person of the given role in an organization, made for one case. */
async function personIn(ctx: Ctx, orgId: string, role: 'admin' | 'member'): Promise<string> {
  const { server, fixtures } = ctx();
  const person = await createUser(server.database.db, {
    email: `${role}-${randomUUID()}@matrix.test`,
    name: `Matrix ${role}`,
    memberships: [{ orgId, role }],
  });
  return fixtures.userToken(person.id);
}

function describeStaffCases(probe: Probe): void {
  refusesEveryKey(probe);
  it('refuses a signed-in user who is not staff (403)', async () => {
    expectForbidden(await probe.send(probe.ctx().fixtures.admin.token));
  });
  serves(probe, 'staff');
}

function describeOrgAdminCases(probe: Probe): void {
  const { ctx, send } = probe;
  refusesEveryKey(probe);
  it('refuses a member of the organization who is not its admin (403)', async () => {
    expectForbidden(await send(ctx().fixtures.member.token));
  });
  it('refuses an admin of another organization (403)', async () => {
    expectForbidden(await send(await personIn(ctx, ctx().fixtures.orgB.id, 'admin')));
  });
  serves(probe, 'admin', 'staff');
}

function describeOwnerCases(probe: Probe, rule: OwnerRule): void {
  const { ctx, send } = probe;
  refusesEveryKey(probe);
  it('refuses a member of the organization who did not make the record (403)', async () => {
    expectForbidden(await send(await personIn(ctx, ctx().fixtures.orgA.id, 'member')));
  });
  it('refuses an admin of another organization (403)', async () => {
    expectForbidden(await send(await personIn(ctx, ctx().fixtures.orgB.id, 'admin')));
  });
  it(`answers 404 for a ${rule.record.toLowerCase()} that does not exist`, async () => {
    const res = await send(ctx().fixtures.staff.token, { [rule.param]: `missing-${randomUUID()}` });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: `${rule.record} not found`, errorCode: 'not_found' });
  });
  it('serves the person who made the record', async () => {
    probe.expectOk(await send(ctx().fixtures.member.token));
  });
  serves(probe, 'admin', 'staff');
}
