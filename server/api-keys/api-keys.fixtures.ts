// One server with the standard fixtures per test file that imports this (vitest evaluates it once per
// file), and the requests the client tests share.
import { afterAll, beforeAll } from 'vitest';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';

export let server: TestServer;
export let f: Fixtures;
beforeAll(async () => {
  server = await startTestServer();
  f = await createFixtures(server);
});
afterAll(async () => {
  await server.close();
});
export const ctx = () => ({ server, fixtures: f });

export const exchange = (clientId: string, secret: string) =>
  server.call('/v1/oauth/token', { method: 'POST', json: { client_id: clientId, client_secret: secret } });

export const form = (fields: Record<string, string>) =>
  server.call('/v1/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

export const createAs = (token: string, json: unknown) => server.call('/v1/client', { method: 'POST', token, json });
