// Our SCIM answers checked by a SCIM implementation we did not write: SCIMMY (npm `scimmy`, MIT) builds the
// requests and validates every answer against its RFC 7643 User schema and RFC 7644 messages, and its own PatchOp
// engine applies each PATCH to the resource we answered, so our result is compared with an independent one.
import SCIMMY from 'scimmy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { keepsScimContract } from '../../test/response-contract.js';

let server: TestServer;
let f: Fixtures;
let token: string;

const SCIM_JSON = 'application/scim+json';

async function scim(path: string, init: { method?: string; json?: unknown } = {}) {
  const res = await fetch(`${server.url}/scim/v2${path}`, {
    method: init.method ?? 'GET',
    headers: {
      accept: SCIM_JSON,
      authorization: `Bearer ${token}`,
      ...(init.json === undefined ? {} : { 'content-type': SCIM_JSON }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  // Every answer, errors included, as the OpenAPI document declares it.
  keepsScimContract(init.method ?? 'GET', res, body);
  return { status: res.status, type: res.headers.get('content-type') ?? '', body };
}

/** SCIMMY's User schema, read as a client reads an answer: throws on a wrong type, shape or `schemas`. */
const asUser = (body: unknown) => new SCIMMY.Schemas.User(body as Record<string, unknown>, 'out');

/** SCIMMY's own PatchOp engine, applied to a copy of the resource as we answered it. */
async function patchedBySCIMMY(resource: Record<string, unknown>, patch: unknown) {
  const message = new SCIMMY.Messages.PatchOp(patch as ConstructorParameters<typeof SCIMMY.Messages.PatchOp>[0]);
  return message.apply(new SCIMMY.Schemas.User(resource, 'out'));
}

/**
 * A SCIM error as SCIMMY reads one: its constructor refuses a status or scimType RFC 7644 §3.12 does not allow
 * together (given the body's `schemas`, it rethrows instead, so they are checked here).
 */
function asError(body: { schemas: string[]; status: string; scimType?: string; detail?: string }) {
  expect(body.schemas).toEqual([SCIMMY.Messages.ErrorResponse.id]);
  const cause = { status: Number(body.status), scimType: body.scimType, detail: body.detail };
  return new SCIMMY.Messages.ErrorResponse(cause as SCIMMY.Messages.ErrorResponse.CauseDetails);
}

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
/** The attributes a patch is compared on: Sitefile keeps one name, so displayName and name move together. */
const pick = (user: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, user[k]]));

beforeAll(async () => {
  SCIMMY.Resources.declare(SCIMMY.Resources.User);
  server = await startTestServer();
  f = await createFixtures(server);
  const minted = await server.call(`/v1/organization/${f.orgA.id}/scim-token`, {
    method: 'POST',
    token: f.admin.token,
  });
  token = minted.body.data.token;
});
afterAll(() => server?.close());

describe('SCIM answers, validated by SCIMMY', () => {
  it('creates, patches, deactivates and deletes a person; every answer is a valid User, ListResponse or Error', async () => {
    // The request body is SCIMMY's: it refuses anything not in the RFC 7643 User schema.
    const create = new SCIMMY.Schemas.User(
      {
        userName: 'vera.validator@ridgeline.test',
        displayName: 'Vera Validator',
        name: { givenName: 'Vera', familyName: 'Validator' },
        emails: [{ value: 'vera.validator@ridgeline.test', type: 'work', primary: true }],
        externalId: 'scimmy-1',
        active: true,
      },
      'in',
    );
    const created = await scim('/Users', { method: 'POST', json: JSON.parse(JSON.stringify(create)) });
    expect(created).toMatchObject({ status: 201, type: expect.stringContaining(SCIM_JSON) });
    const user = asUser(created.body);
    expect(user).toMatchObject({ id: created.body.id, userName: 'vera.validator@ridgeline.test', active: true });

    const listed = await scim(`/Users?filter=${encodeURIComponent('userName eq "vera.validator@ridgeline.test"')}`);
    const list = new SCIMMY.Messages.ListResponse(listed.body);
    expect(list).toMatchObject({ totalResults: 1, startIndex: 1 });
    for (const resource of listed.body.Resources) asUser(resource);

    const unchanged = ['userName', 'emails', 'externalId'];
    for (const [patch, compared] of [
      [{ Operations: [{ op: 'replace', path: 'displayName', value: 'Vera V. Validator' }] }, ['displayName', 'active']],
      [{ Operations: [{ op: 'replace', path: 'name.givenName', value: 'Verity' }] }, ['active']],
      [{ Operations: [{ op: 'replace', value: { active: false } }] }, ['displayName', 'name', 'active']],
    ] as const) {
      const message = { schemas: [SCIMMY.Messages.PatchOp.id], ...patch };
      const before = (await scim(`/Users/${created.body.id}`)).body;
      const expected = await patchedBySCIMMY(before, message);
      const patched = await scim(`/Users/${created.body.id}`, { method: 'PATCH', json: message });
      expect(patched.status).toBe(200);
      const keys = [...unchanged, ...compared];
      expect(pick(plain(asUser(patched.body)), keys)).toEqual(pick(plain(expected), keys));
    }
    expect((await scim(`/Users/${created.body.id}`)).body.active).toBe(false);

    expect((await scim(`/Users/${created.body.id}`, { method: 'DELETE' })).status).toBe(204);
    const gone = await scim(`/Users/${created.body.id}`);
    expect(gone.status).toBe(404);
    // SCIMMY's ErrorResponse refuses a status or scimType the RFC does not allow together.
    expect(asError(gone.body)).toMatchObject({ status: '404' });
  });

  it('answers bad requests, conflicts and Groups with RFC 7644 errors', async () => {
    const body = { schemas: [SCIMMY.Schemas.User.definition.id], userName: 'dup.validator@ridgeline.test' };
    expect((await scim('/Users', { method: 'POST', json: body })).status).toBe(201);
    const answers = [
      await scim('/Users', { method: 'POST', json: body }),
      await scim(`/Users?filter=${encodeURIComponent('userName xx "a"')}`),
      await scim('/Users', { method: 'POST', json: { schemas: [SCIMMY.Schemas.User.definition.id] } }),
      await scim('/Groups'),
    ];
    expect(answers.map((a) => a.status)).toEqual([409, 400, 400, 404]);
    for (const answer of answers) {
      expect(answer.type).toContain(SCIM_JSON);
      expect(asError(answer.body)).toMatchObject({ status: String(answer.status) });
    }
  });
});
