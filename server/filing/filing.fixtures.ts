// One server with the standard fixtures, an RFI in project A1 and a member of organization B for each test file
// that imports this (vitest evaluates it once per file), and the requests the filing tests share. The bindings
// are live: read them inside tests and hooks.
import { afterAll, beforeAll } from 'vitest';
import { createFixtures, type Fixtures, insertDocument, startTestServer, type TestServer } from '../../test/harness.js';
import { createUser } from '../users/service.js';

export let server: TestServer;
export let f: Fixtures;
/** RFI-012 of project A1, which e-mails can be filed onto. */
export const rfiId = 'doc_rfi012';
/** Rob Ridgeline, a member of organization B only. */
export let outsider: { token: string };

beforeAll(async () => {
  server = await startTestServer();
  f = await createFixtures(server);
  await insertDocument(server.database.db, {
    id: rfiId,
    organizationId: f.orgA.id,
    projectId: f.projectA1.id,
    number: 'RFI-012',
    title: 'Pile cap reinforcement',
  });
  const ridgeline = await createUser(server.database.db, {
    email: 'rob@ridgeline.test',
    name: 'Rob Ridgeline',
    memberships: [{ orgId: f.orgB.id, role: 'member' }],
  });
  outsider = { token: f.userToken(ridgeline.id) };
});
afterAll(async () => {
  await server?.close();
});

export const emailsPath = (projectId = f.projectA1.id, orgId = f.orgA.id) =>
  `/v1/organization/${orgId}/project/${projectId}/emails`;

/** Files a raw RFC 822 message, as Mia Member into project A1 unless told otherwise. */
export const fileRaw = (
  raw: Buffer,
  options: { token?: string; path?: string; headers?: Record<string, string> } = {},
) =>
  server.call(options.path ?? emailsPath(), {
    method: 'POST',
    token: options.token ?? f.member.token,
    headers: { 'content-type': 'message/rfc822', ...options.headers },
    body: raw,
  });

/** Files the JSON form, as Mia Member into project A1 unless told otherwise. */
export const fileJson = (json: unknown, options: { token?: string; path?: string } = {}) =>
  server.call(options.path ?? emailsPath(), { method: 'POST', token: options.token ?? f.member.token, json });

/** A filed e-mail of project A1 as Mia Member reads it. */
export const detailOf = (id: string) => server.call(`${emailsPath()}/${id}`, { token: f.member.token });

export const pdf = Buffer.from('%PDF-1.4\nsketch of pile cap P-7\n%%EOF\n');

/** The signed URL as a path on the test server (URLs carry the configured public origin). */
export const download = async (url: string) => {
  const parsed = new URL(url);
  const res = await server.request(parsed.pathname + parsed.search);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

/** The context `describeAuthMatrix` asks for. */
export const ctx = () => ({ server, fixtures: f });
