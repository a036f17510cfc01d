// The file's test server (test/fixture-server.ts) with a registered agent client for each test file that imports
// this (vitest evaluates it once per file), and the requests the OAuth tests share. The bindings are live.
import { beforeAll, expect } from 'vitest';
import { server } from '../../test/fixture-server.js';
import { authorizeUrl as authorizeUrlOf, oauthForm } from './browser.fixtures.js';

export { server };
/** A client registered through dynamic registration, with a name that needs escaping. */
export let agent: { client_id: string; client_secret: string };

export const base = 'http://sitefile.test';
export const addinRedirect = `${base}/addin/auth-callback.html`;
export const agentRedirect = 'http://127.0.0.1:33418/callback';

export const authorizeUrl = (params: Record<string, string>) => authorizeUrlOf(server, params);

export const tokenRequest = async (params: Record<string, string>) => {
  const { status, body } = await oauthForm(server, '/oauth/token', params);
  return { status, body };
};

export const register = async (metadata: Record<string, unknown>) =>
  server.call('/oauth/register', { method: 'POST', json: metadata });

beforeAll(async () => {
  const res = await register({ client_name: 'Agent <b>X</b>', redirect_uris: [agentRedirect] });
  expect(res.status).toBe(201);
  agent = res.body;
});
