import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { f, server, startInstance } from './fixture-server.js';
import { type CallResult, startTestServer, type TestServer } from './harness.js';

/**
 * The contract's error side, checked against the server for every operation of /v1/openapi.json:
 * each probe's status must be one the operation documents, with a body valid against the schema (and the
 * headers) documented for it; and every error status an operation documents must be one the probes saw,
 * unless it is listed below with the reason it cannot be provoked from here and the test that covers it.
 */
let limitedServer: TestServer;
// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked generically
let doc: any;
let ajv: Ajv2020;

interface Operation {
  method: string;
  template: string;
  permission: string | null;
  params: string[];
  queryParams: string[];
  hasBody: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: see above
  responses: Record<string, any>;
}
let operations: Operation[];
/** `METHOD template` → statuses seen by any probe. */
const seen = new Map<string, Set<number>>();
const problems: string[] = [];

/** Documented error statuses that no probe here can provoke, with what covers them instead. */
const notProvokedHere: Record<string, string> = {
  'POST /v1/organization/{orgId}/explorer/query 503': 'statement timeout: server/explorer tests',
  'POST /v1/commands/ping/{entityId} 409': 'an attempt in flight: server/commands tests',
  'GET /v1/downloads/{blobKey}/{fileName} 416': 'a valid signed link with a bad range: server/downloads tests',
  'GET /v1/downloads/{blobKey}/{fileName} 404': 'a valid signed link to a missing blob: server/downloads tests',
  'POST /v1/organization/{orgId}/project/{projectId}/emails 413':
    'a message over 25 MB (a 40 MB upload races the close of the connection on a loaded machine): server/filing tests',
  'POST /v1/organization/{orgId}/webhooks 409': 'an organization with 20 webhooks: server/webhooks tests',
  'POST /v1/organization/{orgId}/webhooks/{webhookId}/test 409': 'a disabled webhook: server/webhooks tests',
  'POST /v1/organization/{orgId}/webhooks/{webhookId}/replay 409':
    'a disabled webhook: server/webhooks/webhook-held.test.ts',
  'POST /v1/organization/{orgId}/project/{projectId}/emails 503':
    'every filing slot of the process taken for longer than the wait (FILINGS_MAX): a load this probe does not make',
  'PATCH /v1/organization/{orgId}/members/{userId} 409': "demoting the organization's last admin: server/users tests",
  'DELETE /v1/organization/{orgId}/members/{userId} 409': "removing the organization's last admin: server/users tests",
  'PATCH /v1/admin/users/{userId} 409': 'staff disabling themselves: server/users tests',
  'PUT /v1/organization/{orgId}/sso 404':
    'staff naming an unknown organization with a valid connection: server/sso tests',
  'PUT /v1/organization/{orgId}/sso 409': 'a domain another organization verified: server/sso tests',
  'POST /v1/organization/{orgId}/sso/domains/{domain}/verify 404': 'a domain not on the connection: server/sso tests',
  'POST /v1/organization/{orgId}/sso/domains/{domain}/verify 409':
    'a domain another organization verified: server/sso tests',
  'POST /v1/organization/{orgId}/sso/domains/{domain}/verify 503':
    'a DNS server that fails (the test DNS server of server/sso tests answers SERVFAIL)',
  'POST /v1/organization/{orgId}/project/{projectId}/emails 409':
    'filing again with another RFI an e-mail already on a document: server/filing tests (filing-upload)',
  'POST /v1/organization/{orgId}/project/{projectId}/emails/{emailId}/move 409':
    'moving into a project holding the e-mail: server/filing/refile.test.ts',
  'PUT /v1/organization/{orgId}/project/{projectId}/emails/{emailId}/sent-message-id 409':
    'a Message-ID the record has already, or another filing has: server/filing tests (filed-on-send)',
};

const key = (op: Operation) => `${op.method} ${op.template}`;
// biome-ignore lint/suspicious/noExplicitAny: see above
const namesIn = (op: any, where: string): string[] =>
  (op.parameters ?? []).filter((p: { in: string }) => p.in === where).map((p: { name: string }) => p.name);

const MB = 1024 * 1024;

/** Filing e-mail: its body limit is the message's 25 MB, probed apart. */
const fileEmail = 'POST /v1/organization/{orgId}/project/{projectId}/emails';

/** Bodies that pass validation, so that what follows it (a missing record, a wrong secret) is reached. */
const validBodies: Record<string, unknown> = {
  'POST /v1/oauth/token': { client_id: 'no-such-client', client_secret: 'wrong' },
  'PATCH /v1/admin/clients/{id}': { name: 'renamed' },
  'PATCH /v1/organization/{orgId}/clients/{id}': { name: 'renamed' },
  'POST /v1/organization/{orgId}/project': { name: 'New project' },
  'PATCH /v1/organization/{orgId}/project/{projectId}': { name: 'Renamed project' },
  'PATCH /v1/organization/{orgId}/email-filing-settings': { aiSuggest: true },
  'PATCH /v1/admin/organizations/{orgId}/email-filing-settings': { aiSuggest: true },
  'PATCH /v1/organization/{orgId}/webhooks/{webhookId}': { description: 'renamed' },
  'POST /v1/organization/{orgId}/webhooks/{webhookId}/replay': { from: '2025-01-01T00:00:00.000Z' },
  'PATCH /v1/organization/{orgId}/members/{userId}': { role: 'member' },
  'PATCH /v1/admin/users/{userId}': { disabled: true },
};

/** Path values: the fixtures' organization and project, a fresh UUID for every other identifier. */
function pathOf(op: Operation, overrides: Record<string, string> = {}): string {
  return op.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name in overrides) return encodeURIComponent(overrides[name]!);
    if (name === 'orgId') return f.orgA.id;
    if (name === 'projectId') return f.projectA1.id;
    return randomUUID();
  });
}

let tokens: {
  right: (op: Operation) => string | undefined;
  wrong: (op: Operation) => string | undefined;
  /** A caller that reaches every organization, so that an unknown one is a 404 rather than a 403. */
  wide: (op: Operation) => string | undefined;
};

async function probe(
  target: TestServer,
  op: Operation,
  what: string,
  init: {
    path?: string;
    query?: string;
    token?: string;
    json?: unknown;
    body?: string;
    contentType?: string;
    headers?: Record<string, string>;
  },
): Promise<CallResult> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.contentType) headers['content-type'] = init.contentType;
  const res = await target.call(`${init.path ?? pathOf(op)}${init.query ?? ''}`, {
    method: op.method,
    token: init.token,
    headers,
    ...(init.json !== undefined ? { json: init.json } : {}),
    ...(init.body !== undefined ? { body: init.body } : {}),
    ...(op.hasBody && init.json === undefined && init.body === undefined ? { json: {} } : {}),
  });
  const statuses = seen.get(key(op)) ?? new Set();
  statuses.add(res.status);
  seen.set(key(op), statuses);
  check(op, what, res);
  return res;
}

/** The answer matches the document: a documented status, and for errors the documented body and headers. */
function check(op: Operation, what: string, res: CallResult): void {
  const where = `${key(op)} (${what}) → ${res.status}`;
  const documented = op.responses[String(res.status)];
  if (!documented) {
    problems.push(`${where}: status not documented (${JSON.stringify(res.body).slice(0, 120)})`);
    return;
  }
  if (res.status < 400) return;
  const schema = documented.content?.['application/json']?.schema;
  if (!schema) {
    problems.push(`${where}: no JSON body documented`);
    return;
  }
  const validate = ajv.compile(refsToDocument(schema));
  if (!validate(res.body))
    problems.push(`${where}: body ${JSON.stringify(res.body)} ${ajv.errorsText(validate.errors)}`);
  for (const header of Object.keys(documented.headers ?? {}))
    if (res.status === 429 && !res.headers.has(header)) problems.push(`${where}: documented header ${header} missing`);
}

/** Points the operation's local `#/components/...` references at the whole document registered in Ajv. */
const refsToDocument = (schema: unknown): object =>
  JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi.json#/'));

beforeAll(async () => {
  limitedServer = await startInstance({ env: { RATE_LIMIT_PER_MINUTE: '1' } });
  doc = (await server.call('/v1/openapi.json')).body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  // SCIM's operations (their own token, RFC 7644 errors) are probed by server/scim/scim-openapi.test.ts.
  operations = Object.entries(doc.paths)
    .filter(([template]) => !template.startsWith('/scim/'))
    .flatMap(([template, item]) =>
      // biome-ignore lint/suspicious/noExplicitAny: see above
      Object.entries(item as Record<string, any>).map(([method, op]) => ({
        method: method.toUpperCase(),
        template,
        permission: op['x-permission'] ?? null,
        params: namesIn(op, 'path'),
        queryParams: namesIn(op, 'query'),
        hasBody: Boolean(op.requestBody),
        responses: op.responses,
      })),
    );
  const orgKey = await f.client('all', { orgs: [f.orgA.id] });
  const noPermissionKey = await f.client([], { orgs: [f.orgA.id] });
  const superKey = await f.client('all', { superadmin: true });
  tokens = {
    right: (op) =>
      op.permission === 'staff'
        ? f.staff.token
        : op.permission === 'org-admin'
          ? f.admin.token
          : op.permission === 'user' || op.permission === 'owner-or-org-admin'
            ? f.member.token
            : orgKey.token,
    wrong: (op) =>
      op.permission === 'staff' || op.permission === 'org-admin' || op.permission === 'client-key'
        ? f.member.token
        : op.permission === 'user' || op.permission === 'owner-or-org-admin'
          ? orgKey.token
          : op.permission
            ? noPermissionKey.token
            : f.member.token,
    wide: (op) =>
      op.permission === 'staff' || op.permission === 'org-admin'
        ? f.staff.token
        : op.permission === 'user'
          ? f.member.token
          : superKey.token,
  };
}, 120_000);

describe('every documented error is the one the server sends', () => {
  it('probes every operation: no token, a bad token, the wrong caller, bad parameters and bodies', async () => {
    for (const op of operations) {
      const secured = op.permission !== null || op.responses['401'];
      if (secured) {
        await probe(server, op, 'no token', {});
        await probe(server, op, 'malformed token', { token: 'not-a-token' });
        const wrong = tokens.wrong(op);
        if (wrong) await probe(server, op, 'wrong caller', { token: wrong });
      }
      const token = tokens.right(op);
      await probe(server, op, 'right caller', { token });
      await probe(server, op, 'unknown query parameter', { token, query: '?zzUnknown=1' });
      await probe(server, op, 'NUL in a query value', { token, query: '?zzUnknown=%00' });
      if (op.queryParams.includes('projectId'))
        await probe(server, op, 'projectId of another organization', { token, query: `?projectId=${f.projectB1.id}` });
      for (const name of op.params) {
        await probe(server, op, `malformed ${name}`, { token, path: pathOf(op, { [name]: 'not an id' }) });
        if (name === 'orgId') {
          await probe(server, op, 'other organization', { token, path: pathOf(op, { orgId: f.orgB.id }) });
          await probe(server, op, 'no such organization', {
            token: tokens.wide(op),
            path: pathOf(op, { orgId: randomUUID() }),
            json: validBodies[key(op)],
          });
        }
        if (name === 'projectId') {
          await probe(server, op, 'project of another organization', {
            token,
            path: pathOf(op, { projectId: f.projectB1.id }),
          });
          await probe(server, op, 'no such project', { token, path: pathOf(op, { projectId: randomUUID() }) });
        }
      }
      if (op.hasBody) {
        await probe(server, op, 'malformed JSON', { token, body: '{"a":', contentType: 'application/json' });
        await probe(server, op, 'a JSON array body', { token, json: [1, 2] });
        await probe(server, op, 'a text body', { token, body: 'hello', contentType: 'text/plain' });
        if (validBodies[key(op)]) await probe(server, op, 'a valid body', { token, json: validBodies[key(op)] });
        // Filing's limit is 25 MB of message: its 413 is covered apart (listed above).
        if (key(op) !== fileEmail)
          await probe(server, op, 'a body over the limit', {
            token,
            body: JSON.stringify({ pad: 'x'.repeat(2 * MB) }),
            contentType: 'application/json',
          });
      }
    }
    const ping = operations.find((op) => op.template === '/v1/commands/ping/{entityId}')!;
    const entity = pathOf(ping);
    const headers = { 'idempotency-key': randomUUID() };
    await probe(server, ping, 'first use of a key', { token: tokens.right(ping), path: entity, headers, json: {} });
    await probe(server, ping, 'the key again, another body', {
      token: tokens.right(ping),
      path: entity,
      headers,
      json: { note: 'another' },
    });
    expect(problems).toEqual([]);
  }, 600_000);

  it('answers 429 with Retry-After on every rate-limited operation once the caller is over its limit', async () => {
    for (const op of operations.filter(
      (o) => o.responses['429'] && o.responses['401'] && !(`${key(o)} 429` in notProvokedHere),
    )) {
      const token = tokens.right(op);
      await probe(limitedServer, op, 'first request', { token, json: validBodies[key(op)] });
      const res = await probe(limitedServer, op, 'over the limit', { token, json: validBodies[key(op)] });
      expect(res.status, key(op)).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('answers 503 on /readyz when the database is gone', async () => {
    const lonely = await startTestServer();
    await lonely.database.close();
    const readyz = operations.find((op) => op.template === '/readyz')!;
    expect((await probe(lonely, readyz, 'database closed', {})).status).toBe(503);
    await lonely.close().catch(() => undefined); // its database is already closed
    expect(problems).toEqual([]);
  }, 120_000);

  it('sends every error status each operation documents (or the list above says why not)', () => {
    const unseen: string[] = [];
    for (const op of operations) {
      for (const status of Object.keys(op.responses)) {
        const name = `${key(op)} ${status}`;
        if (!seen.get(key(op))?.has(Number(status)) && !(name in notProvokedHere) && Number(status) >= 400)
          unseen.push(name);
      }
    }
    expect(unseen).toEqual([]);
    for (const name of Object.keys(notProvokedHere)) {
      const [method, template, status] = name.split(' ');
      const op = operations.find((o) => o.method === method && o.template === template);
      expect(op?.responses[status!], `${name} is still documented`).toBeDefined();
    }
  });
});
