import { beforeAll, describe, expect, it } from 'vitest';
import { DOWNLOADS_PATH } from '../server/downloads/signing.js';
import { pluralAlias, type Route } from '../server/http/route.js';
import { allRoutes } from '../server/routes.js';
import { f, server } from './fixture-server.js';
import type { ClientFixture } from './harness.js';

let superKey: ClientFixture;

beforeAll(async () => {
  superKey = await f.client('all', { superadmin: true });
});

/** A path of the route with real fixture ids where the access rule checks them, any id elsewhere. */
const concretePath = (path: string) =>
  path.replace(':orgId', f.orgA.id).replace(':projectId', f.projectA1.id).replace(/:\w+/g, 'some-id');

/** A caller the route's access rule admits: staff for people-only rules, a superadmin key with every permission
 *  otherwise. */
const tokenFor = (route: Route) =>
  ['staff', 'user', 'orgAdmin', 'ownerOrOrgAdmin'].includes(route.access.kind) ? f.staff.token : superKey.token;

describe('content negotiation honours q-values', () => {
  const submittals = () => `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/document/submittals`;
  const activity = () => `/v1/organization/${f.orgA.id}/activity`;

  it.each([
    ['text/csv;q=0, application/json', 'json'],
    ['application/json, text/csv;q=0.5', 'json'],
    ['text/csv;q=0.4, application/json;q=0.5', 'json'],
    ['image/png', 'json'],
    ['*/*', 'json'],
    ['text/csv', 'csv'],
    ['application/json;q=0.5, text/csv', 'csv'],
    ['text/*', 'csv'],
  ])('Accept: %s → %s', async (accept, expected) => {
    for (const path of [submittals(), activity(), '/v1/admin/documents']) {
      const token = path.startsWith('/v1/admin') ? f.staff.token : superKey.token;
      const type = (await server.request(path, { token, headers: { accept } })).headers.get('content-type');
      expect(type, `${path} ${accept}`).toMatch(expected === 'csv' ? /^text\/csv/ : /^application\/json/);
    }
  });
});

describe('unknown query parameters are a 400 on every route', () => {
  // Signed download URLs are checked by their signature, not by shape (server/downloads).
  const routes = () => allRoutes().filter((r) => r.method === 'get' && !r.path.startsWith(DOWNLOADS_PATH));

  it('names the parameter, for lists and single resources alike', async () => {
    for (const route of routes()) {
      const res = await server.call(`${concretePath(route.path)}?bogusParam=1`, { token: tokenFor(route) });
      expect(res.status, `${route.method} ${route.path}`).toBe(400);
      // Required parameters left out are named too (the lookup's internetMessageId).
      expect(res.body, route.path).toMatchObject({
        error: expect.stringMatching(/^Invalid query parameters?: (.*, )?bogusParam/),
        errorCode: 'validation_failed',
      });
      expect(res.body.details).toContainEqual({ path: 'bogusParam', message: 'Unknown query parameter: bogusParam' });
    }
  });

  it('covers the lists the issue names: comms sender misspelt, activity, directory, document activity, clients', async () => {
    const lists = [
      `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/comms?senderEmail=a@b.test`,
      `/v1/organization/${f.orgA.id}/activity?actor=x`,
      `/v1/organization/${f.orgA.id}/directory?q=x`,
      `/v1/client?page=2`,
    ];
    for (const path of lists) expect((await server.call(path, { token: superKey.token })).status, path).toBe(400);
    for (const path of ['/v1/admin/documents/doc_1/activity?include=emails', '/v1/admin/clients?offset=5']) {
      expect((await server.call(path, { token: f.staff.token })).status, path).toBe(400);
    }
  });
});

describe('an unsupported method on a known path is a JSON 405 with Allow', () => {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

  it('on every path of the route table, its plural aliases, the OpenAPI document and the pages', async () => {
    const allowed = new Map<string, Set<string>>();
    for (const route of allRoutes()) {
      for (const path of [route.path, pluralAlias(route.path)]) {
        if (!path) continue;
        allowed.set(path, (allowed.get(path) ?? new Set()).add(route.method.toUpperCase()));
      }
    }
    for (const path of ['/v1/openapi.json', '/docs', '/docs/init.js', '/admin']) allowed.set(path, new Set(['GET']));
    for (const [path, served] of allowed) {
      for (const method of methods.filter((m) => !served.has(m))) {
        const res = await server.call(concretePath(path), { method });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow'), path).toBe([...served].join(', '));
        expect(res.body).toMatchObject({ errorCode: 'method_not_allowed', requestId: expect.any(String) });
      }
    }
  });
});
