import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../test/harness.js';
import { type ServerProcess, startServerProcess } from '../../test/server-process.js';
import { createClient } from '../api-keys/service.js';
import { openDatabase } from '../db/connection.js';
import { createOrganization } from '../organizations/service.js';

// What a real server writes to its log (issue 40): one JSON line per request naming the caller and the client's
// address, and no secret a URL carried — a signed link's signature, an OAuth authorization code.

const SIGNATURE = 'signature-that-must-not-be-logged';
const CODE = 'authorization-code-that-must-not-be-logged';
let database: { url: string; drop(): Promise<void> };
let server: ServerProcess;
let key: { clientId: string; client_secret: string };

beforeAll(async () => {
  database = await createPostgresDatabase({ migrated: true });
  const opened = await openDatabase({ databaseUrl: database.url });
  const org = await createOrganization(opened.db, { name: 'Log Test Builders' });
  key = await createClient(opened.db, {
    name: 'log test key',
    permissions: ['organization:read'],
    orgIds: [org.id],
    projects: [],
    createdBy: 'tests@sitefile.test',
  });
  await opened.close();
  server = await startServerProcess(database.url, { LOG_LEVEL: 'info' });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

/** The JSON lines printed after the start banner, once `count` request lines are among them. */
async function requestLines(count: number): Promise<Record<string, unknown>[]> {
  const lines = () =>
    server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
  // Each line the process prints wakes this (the log is its stdout), however late a loaded machine prints it.
  while (lines().filter((line) => line.includes('"reqId"')).length < count) await once(server.child.stdout!, 'data');
  return lines().map((line) => JSON.parse(line));
}

describe('the request log of a running server', () => {
  it('names the caller and the client address, and holds no signature, code, secret or token', async () => {
    const exchanged = await fetch(`${server.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: key.clientId, client_secret: key.client_secret }),
    });
    const { access_token: token } = (await exchanged.json()) as { access_token: string };
    expect(
      (await fetch(`${server.url}/v1/organization`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    await fetch(
      `${server.url}/v1/downloads/blob/plan.pdf?type=application%2Fpdf&expires=4102444800&signature=${SIGNATURE}`,
    );
    await fetch(`${server.url}/addin/auth-callback.html?code=${CODE}&state=s1`);

    const lines = await requestLines(4);
    const output = server.output();
    for (const secret of [SIGNATURE, CODE, key.client_secret, token]) expect(output).not.toContain(secret);
    const clientLine = lines.find((line) => (line.req as { url?: string })?.url === '/v1/organization');
    expect(clientLine).toMatchObject({ caller: `client:${key.clientId}`, clientAddress: '127.0.0.1' });
    const urls = lines.map((line) => String((line.req as { url?: string } | undefined)?.url));
    expect(urls.find((url) => url.startsWith('/v1/downloads/'))).toContain('signature=redacted');
    // Everything after the banner is a JSON line: nothing in plain text breaks the stream.
    const afterBanner = output.slice(output.indexOf('admin console'));
    const plain = afterBanner
      .split('\n')
      .slice(1)
      .filter((line) => line.trim() && !line.startsWith('{') && !/^ {2}\S/.test(line));
    expect(plain).toEqual([]);
  });
});
