// The SCIM side of the OpenAPI document, checked against the server as test/documented-errors.test.ts checks the
// API's: every answer to the probes keeps the served document (media type, status, body, errors included), and
// every status each SCIM operation documents is one a probe provoked.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { f, server, startInstance } from '../../test/fixture-server.js';
import type { TestServer } from '../../test/harness.js';
import { keepsScimContract, type ResponseContract, responseContract } from '../../test/response-contract.js';
import { createUser } from '../users/service.js';
import { SCHEMA } from './resources.js';

const SCIM_JSON = 'application/scim+json';
// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked generically
let doc: any;
let contract: ResponseContract;
let token: string;
let limited: TestServer;
/** `METHOD template` → statuses the probes saw. */
const seen = new Map<string, Set<number>>();

interface Probe {
  token?: string;
  json?: unknown;
  /** A raw body sent as `application/scim+json`. */
  body?: string;
  on?: TestServer;
}

/** Sends `method path` (under /scim/v2), checks the answer against the document and records its status. */
async function probe(operation: string, path: string, init: Probe = {}) {
  const [method = 'GET'] = operation.split(' ');
  const headers: Record<string, string> = { accept: SCIM_JSON };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const body = init.json === undefined ? init.body : JSON.stringify(init.json);
  if (body !== undefined) headers['content-type'] = SCIM_JSON;
  const res = await fetch(`${(init.on ?? server).url}/scim/v2${path}`, { method, headers, body });
  const text = await res.text();
  const answer = text ? JSON.parse(text) : undefined;
  keepsScimContract(method, res, answer, contract);
  const statuses = seen.get(operation) ?? new Set();
  seen.set(operation, statuses.add(res.status));
  return { status: res.status, body: answer };
}

const person = (name: string) => ({
  schemas: [SCHEMA.user],
  userName: `${name}-${randomUUID()}@harbor.test`,
  name: { givenName: name, familyName: 'Probe' },
});

beforeAll(async () => {
  doc = (await server.call('/v1/openapi.json')).body;
  contract = responseContract(doc);
  const minted = await server.call(`/v1/organization/${f.orgA.id}/scim-token`, {
    method: 'POST',
    token: f.admin.token,
  });
  token = minted.body.data.token;
  limited = await startInstance({ env: { RATE_LIMIT_PER_MINUTE: '1' } });
}, 120_000);

const scimOperations = () =>
  Object.entries<Record<string, unknown>>(doc.paths)
    .filter(([path]) => path.startsWith('/scim/v2/'))
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path.slice(8)}`));

describe('the SCIM operations of /v1/openapi.json', () => {
  it('declare their own bearer scheme and answer application/scim+json, errors as RFC 7644 errors', () => {
    expect(doc.components.securitySchemes.scimToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(scimOperations()).toHaveLength(11);
    for (const [path, item] of Object.entries<Record<string, Record<string, unknown>>>(doc.paths)) {
      if (!path.startsWith('/scim/v2/')) continue;
      // biome-ignore lint/suspicious/noExplicitAny: see above
      for (const [method, operation] of Object.entries<any>(item)) {
        const where = `${method} ${path}`;
        expect(operation.security, where).toEqual([{ scimToken: [] }]);
        for (const [status, response] of Object.entries<{ content?: Record<string, { schema: unknown }> }>(
          operation.responses,
        )) {
          if (status === '204') continue;
          expect(Object.keys(response.content ?? {}), `${where} ${status}`).toEqual([SCIM_JSON]);
          if (Number(status) >= 400)
            expect(response.content?.[SCIM_JSON]?.schema, `${where} ${status}`).toEqual({
              $ref: '#/components/schemas/ScimError',
            });
        }
      }
    }
    expect(doc.components.schemas.ScimError.properties.status).toMatchObject({ type: 'string' });
    const list = doc.paths['/scim/v2/Users'].get.parameters;
    expect(Object.fromEntries(list.map((p: { name: string; schema: unknown }) => [p.name, p.schema]))).toMatchObject({
      filter: { type: 'string', maxLength: 1000 },
      startIndex: { type: 'integer', minimum: 1, default: 1 },
      count: { type: 'integer', minimum: 0, maximum: 200, default: 100 },
    });
  });

  it('keep the document in every answer, and every documented status is one the server sends', async () => {
    // Every operation: no token, an API token (refused: /scim/v2 takes its own), and the rate limit.
    const first = await probe('POST /Users', '/Users', { token, json: person('Ada') });
    expect(first.status).toBe(201);
    const id: string = first.body.id;
    const paths: Record<string, string> = {
      '/ServiceProviderConfig': '/ServiceProviderConfig',
      '/ResourceTypes': '/ResourceTypes',
      '/ResourceTypes/{id}': '/ResourceTypes/User',
      '/Schemas': '/Schemas',
      '/Schemas/{id}': `/Schemas/${SCHEMA.user}`,
      '/Users': '/Users',
      '/Users/{id}': `/Users/${id}`,
    };
    const operations = scimOperations().filter((o) => o !== 'DELETE /Users/{id}');
    for (const operation of operations) {
      const path = paths[operation.split(' ')[1]!]!;
      const json = operation.startsWith('PATCH')
        ? { schemas: [SCHEMA.patch], Operations: [{ op: 'replace', path: 'active', value: true }] }
        : operation.startsWith('P')
          ? person('Ada')
          : undefined;
      expect((await probe(operation, path, {})).status, operation).toBe(401);
      expect((await probe(operation, `${path}?x=%00`, { token, json })).body, operation).toMatchObject({
        status: '400',
        detail: 'NUL characters are not accepted in the URL',
      });
      expect((await probe(operation, path, { token: f.admin.token })).status, operation).toBe(401);
      await probe(operation, path, { token, json, on: limited });
      expect((await probe(operation, path, { token, json, on: limited })).status, operation).toBe(429);
    }

    // The resources: found, not found, bad requests, too large, conflicts, another organization's person.
    for (const operation of ['GET /ServiceProviderConfig', 'GET /ResourceTypes', 'GET /Schemas']) {
      expect((await probe(operation, operation.slice(4), { token })).status).toBe(200);
    }
    expect((await probe('GET /ResourceTypes/{id}', '/ResourceTypes/User', { token })).status).toBe(200);
    expect((await probe('GET /ResourceTypes/{id}', '/ResourceTypes/Group', { token })).status).toBe(404);
    expect((await probe('GET /Schemas/{id}', `/Schemas/${SCHEMA.user}`, { token })).status).toBe(200);
    expect((await probe('GET /Schemas/{id}', `/Schemas/${SCHEMA.patch}`, { token })).status).toBe(404);
    expect((await probe('GET /Schemas/{id}', '/Schemas/%E0%A4%A', { token })).status).toBe(404);
    expect((await probe('GET /Users', '/Users?count=500&startIndex=-3', { token })).body).toMatchObject({
      startIndex: 1,
    });
    const badFilter = await probe('GET /Users', `/Users?filter=${encodeURIComponent('title sw "x"')}`, { token });
    expect(badFilter.body).toMatchObject({ status: '400', scimType: 'invalidFilter' });
    expect((await probe('GET /Users', `/Users?filter=${'a'.repeat(1001)}`, { token })).status).toBe(400);

    const big = JSON.stringify({ ...person('Big'), pad: 'x'.repeat(1_100_000) });
    const other = await createUser(server.database.db, {
      email: `both-${randomUUID()}@harbor.test`,
      name: 'Bo Both',
      memberships: [
        { orgId: f.orgA.id, role: 'member' },
        { orgId: f.orgB.id, role: 'member' },
      ],
    });
    const takenEmail = { ...person('Ada'), emails: [{ type: 'work', value: first.body.userName }] };
    expect((await probe('POST /Users', '/Users', { token, json: { ...person('A'), userName: 7 } })).body).toMatchObject(
      { status: '400', scimType: 'invalidValue' },
    );
    expect((await probe('POST /Users', '/Users', { token, body: '{"userName":' })).status).toBe(400);
    const nulName = { ...person('Nul'), displayName: 'Nul\u0000Probe' };
    expect((await probe('POST /Users', '/Users', { token, json: nulName })).body).toMatchObject({ status: '400' });
    expect((await probe('POST /Users', '/Users', { token, body: big })).status).toBe(413);
    expect((await probe('POST /Users', '/Users', { token, json: takenEmail })).body).toMatchObject({
      status: '409',
      scimType: 'uniqueness',
    });
    const second = (await probe('POST /Users', '/Users', { token, json: person('Grace') })).body.id as string;
    const patchEmail = (value: string) => ({
      schemas: [SCHEMA.patch],
      Operations: [{ op: 'Replace', path: 'emails[type eq "work"].value', value }],
    });
    for (const [method, change, bad] of [
      ['PUT', takenEmail, { ...person('A'), active: 'maybe' }],
      ['PATCH', patchEmail(first.body.userName), { schemas: [SCHEMA.patch], Operations: [{ op: 'move' }] }],
    ] as const) {
      const operation = `${method} /Users/{id}`;
      expect((await probe(operation, `/Users/${id}`, { token, json: bad })).status).toBe(400);
      expect((await probe(operation, `/Users/${id}`, { token, body: '[' })).status).toBe(400);
      expect((await probe(operation, `/Users/${id}`, { token, body: big })).status).toBe(413);
      expect((await probe(operation, `/Users/${second}`, { token, json: change })).status).toBe(409);
      // The same address on its own person is no conflict.
      expect((await probe(operation, `/Users/${id}`, { token, json: change })).status).toBe(200);
      const elsewhere = method === 'PUT' ? person('Bo') : patchEmail(`bo-${randomUUID()}@harbor.test`);
      expect((await probe(operation, `/Users/${other.id}`, { token, json: elsewhere })).body).toMatchObject({
        status: '403',
        scimType: 'mutability',
      });
      expect((await probe(operation, `/Users/${randomUUID()}`, { token, json: change })).status).toBe(404);
    }
    expect((await probe('GET /Users/{id}', `/Users/${id}`, { token })).status).toBe(200);
    expect((await probe('DELETE /Users/{id}', `/Users/${id}`, {})).status).toBe(401);
    expect((await probe('DELETE /Users/{id}', `/Users/${id}?x=%00`, { token })).status).toBe(400);
    expect((await probe('DELETE /Users/{id}', `/Users/${id}`, { token })).status).toBe(204);
    expect((await probe('DELETE /Users/{id}', `/Users/${id}`, { token })).status).toBe(404);
    expect((await probe('GET /Users/{id}', `/Users/${id}`, { token })).status).toBe(404);
    await probe('DELETE /Users/{id}', `/Users/${second}`, { token, on: limited });
    expect((await probe('DELETE /Users/{id}', `/Users/${second}`, { token, on: limited })).status).toBe(429);

    const unseen = Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths)
      .filter(([path]) => path.startsWith('/scim/v2/'))
      .flatMap(([path, item]) =>
        Object.entries(item).flatMap(([method, operation]) => {
          const name = `${method.toUpperCase()} ${path.slice(8)}`;
          return Object.keys(operation.responses)
            .filter((status) => !seen.get(name)?.has(Number(status)))
            .map((status) => `${name} ${status}`);
        }),
      );
    expect(unseen).toEqual([]);
  }, 120_000);
});
