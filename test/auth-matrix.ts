import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { oauthClients } from '../server/db/schema.js';
import { createUser } from '../server/users/service.js';
import type { Permission } from '../shared/permissions.js';
import { permissionKeys } from '../shared/permissions.js';
import type { CallResult, Fixtures, TestServer } from './harness.js';

/**
 * The permission/scope matrix every route is tested with (as Unkey's runCommonRouteTests):
 * no token, malformed, expired, signed with another key, disabled key, missing permission,
 * organization outside scope, project of another organization, project outside scope, and the right token.
 *
 * `path` is a template: `{orgId}` and `{projectId}` are filled with organization A / project A1 for the
 * right token and swapped for the out-of-scope cases.
 */
export interface MatrixRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  access: { permission: Permission; scope?: 'org' | 'project' } | 'staff' | 'orgAdmin' | 'authenticated';
  /** Request body for every case (or built from the fixtures). */
  json?: unknown | ((f: Fixtures) => unknown);
  headers?: Record<string, string> | (() => Record<string, string>);
  /** What the right token gets; defaults to expecting status 200. */
  expectOk?: (res: CallResult) => void;
  /** Extra path variables (e.g. `{documentId}`) filled from the fixtures. */
  vars?: (f: Fixtures) => Record<string, string>;
}

type Ctx = () => { server: TestServer; fixtures: Fixtures };

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
  const send = async (token: string | undefined, vars: Record<string, string>) => {
    const { server, fixtures } = ctx();
    const json = typeof route.json === 'function' ? (route.json as (f: Fixtures) => unknown)(fixtures) : route.json;
    const headers = typeof route.headers === 'function' ? route.headers() : route.headers;
    return server.call(fill(route.path, vars), { method: route.method, token, json, headers });
  };
  const baseVars = () => {
    const { fixtures } = ctx();
    return { orgId: fixtures.orgA.id, projectId: fixtures.projectA1.id, ...route.vars?.(fixtures) };
  };
  const fullKey = () => {
    const { fixtures } = ctx();
    return fixtures.client('all', { orgs: [fixtures.orgA.id] });
  };
  const expectUnauthorized = (res: CallResult) => {
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe('unauthorized');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  };
  const expectForbidden = (res: CallResult) => {
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'Insufficient permissions', errorCode: 'forbidden' });
  };

  describe(`${name}: ${route.method} ${route.path} access`, () => {
    it('refuses a request without a token (401)', async () => {
      expectUnauthorized(await send(undefined, baseVars()));
    });

    it('refuses a malformed token (401)', async () => {
      expectUnauthorized(await send('not-a-jwt', baseVars()));
    });

    it('refuses an expired token (401)', async () => {
      const key = await fullKey();
      expectUnauthorized(
        await send(forgeToken(ctx().server, { sub: key.clientId, expiresInSeconds: -10 }), baseVars()),
      );
    });

    it('refuses a token signed with another key (401)', async () => {
      const key = await fullKey();
      const forged = forgeToken(ctx().server, { sub: key.clientId, secret: 'another-key-0123456789abcdefghijklmnopq' });
      expectUnauthorized(await send(forged, baseVars()));
    });

    it('refuses the token of a key disabled after issue (401)', async () => {
      const { server } = ctx();
      const key = await fullKey();
      await server.database.db.update(oauthClients).set({ enabled: false }).where(eq(oauthClients.id, key.id));
      await server.app.context.guard.invalidate(`client:${key.clientId}`);
      expectUnauthorized(await send(key.token, baseVars()));
    });

    if (route.access === 'staff') {
      it('refuses every client key, superadmin included (403)', async () => {
        const { fixtures } = ctx();
        const superKey = await fixtures.client('all', { superadmin: true });
        expectForbidden(await send(superKey.token, baseVars()));
      });
      it('refuses a signed-in user who is not staff (403)', async () => {
        expectForbidden(await send(ctx().fixtures.admin.token, baseVars()));
      });
      it('serves a staff user', async () => {
        const res = await send(ctx().fixtures.staff.token, baseVars());
        (route.expectOk ?? ((r) => expect(r.status).toBe(200)))(res);
      });
      return;
    }

    if (route.access === 'orgAdmin') {
      it('refuses every client key, superadmin included (403)', async () => {
        const { fixtures } = ctx();
        expectForbidden(await send((await fullKey()).token, baseVars()));
        expectForbidden(await send((await fixtures.client('all', { superadmin: true })).token, baseVars()));
      });
      it('refuses a member of the organization who is not its admin (403)', async () => {
        expectForbidden(await send(ctx().fixtures.member.token, baseVars()));
      });
      it('refuses an admin of another organization (403)', async () => {
        const { server, fixtures } = ctx();
        const otherAdmin = await createUser(server.database.db, {
          email: `admin-${randomUUID()}@ridgeline.test`,
          name: 'Other Admin',
          password: 'other-admin-pass-1',
          memberships: [{ orgId: fixtures.orgB.id, role: 'admin' }],
        });
        expectForbidden(await send(fixtures.userToken(otherAdmin.id), baseVars()));
      });
      for (const who of ['admin', 'staff'] as const) {
        it(`serves ${who === 'admin' ? "the organization's admin" : 'a staff user'}`, async () => {
          const res = await send(ctx().fixtures[who].token, baseVars());
          (route.expectOk ?? ((r) => expect(r.status).toBe(200)))(res);
        });
      }
      return;
    }

    if (route.access !== 'authenticated') {
      const { permission, scope } = route.access;
      it(`refuses a key without ${permission} (403)`, async () => {
        const { fixtures } = ctx();
        const others = permissionKeys.filter((p) => p !== permission);
        const key = await fixtures.client(others, { orgs: [fixtures.orgA.id] });
        expectForbidden(await send(key.token, baseVars()));
      });

      if (scope) {
        it('refuses a key scoped to another organization (403)', async () => {
          const { fixtures } = ctx();
          const key = await fixtures.client('all', { orgs: [fixtures.orgB.id] });
          expectForbidden(await send(key.token, baseVars()));
        });
      }

      if (scope === 'project') {
        it('answers 404 for a project of another organization in the path', async () => {
          const { fixtures } = ctx();
          const key = await fullKey();
          const res = await send(key.token, { ...baseVars(), projectId: fixtures.projectB1.id });
          expect(res.status).toBe(404);
          expect(res.body.errorCode).toBe('not_found');
        });

        it('refuses a key scoped to another project of the same organization (403)', async () => {
          const { fixtures } = ctx();
          const key = await fixtures.client('all', {
            projects: [{ orgId: fixtures.orgA.id, projectId: fixtures.projectA2.id }],
          });
          expectForbidden(await send(key.token, baseVars()));
        });
      }
    }

    it('serves the right token', async () => {
      const key = await fullKey();
      const res = await send(key.token, baseVars());
      (route.expectOk ?? ((r) => expect(r.status).toBe(200)))(res);
    });
  });
}
