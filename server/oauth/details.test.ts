import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { authorizeUrl, createBrowser, oauthForm, pkce } from './browser.fixtures.js';

let server: TestServer;
const redirect = 'http://127.0.0.1:33418/callback';
let client: { client_id: string; client_secret: string; token_endpoint_auth_method: string };

beforeAll(async () => {
  server = await startTestServer();
  await createFixtures(server);
  const res = await server.call('/oauth/register', { method: 'POST', json: { redirect_uris: [redirect] } });
  expect(res.status).toBe(201);
  client = res.body;
});
afterAll(() => server?.close());

const errorRedirect = async (params: Record<string, string>) => {
  const page = await createBrowser(server).get(
    authorizeUrl(server, { client_id: client.client_id, redirect_uri: redirect, ...params }),
  );
  expect(page.status).toBe(302);
  return new URL(page.location!).searchParams;
};

describe('OAuth details (RFC 6749, 7591, 7636, 9728)', () => {
  it('response_type=token → unsupported_response_type, with state and a one-sentence description', async () => {
    const params = await errorRedirect({ response_type: 'token', code_challenge: pkce().challenge, state: 'st-1' });
    expect(params.get('error')).toBe('unsupported_response_type');
    expect(params.get('state')).toBe('st-1');
    expect(params.get('error_description')).toMatch(/^[^"\n{[]+\.$/);
  });

  it('code_challenge must be 43 to 128 characters (invalid_request, with state)', async () => {
    for (const challenge of ['a'.repeat(42), 'a'.repeat(129)]) {
      const params = await errorRedirect({ code_challenge: challenge, state: 'st-2' });
      expect(params.get('error')).toBe('invalid_request');
      expect(params.get('state')).toBe('st-2');
    }
  });

  it('a registration without token_endpoint_auth_method is told client_secret_basic, which the token endpoint honours', async () => {
    expect(client.token_endpoint_auth_method).toBe('client_secret_basic');
    const basic = `Basic ${Buffer.from(`${client.client_id}:wrong`).toString('base64')}`;
    const res = await oauthForm(
      server,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { authorization: basic },
    );
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    const good = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`;
    const passed = await oauthForm(
      server,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { authorization: good },
    );
    expect(passed.body.error).toBe('invalid_grant');
  });

  it('refuses metadata it cannot honour, and bad redirect URIs with invalid_redirect_uri', async () => {
    const method = await server.call('/oauth/register', {
      method: 'POST',
      json: { redirect_uris: [redirect], token_endpoint_auth_method: 'private_key_jwt' },
    });
    expect(method.status).toBe(400);
    expect(method.body.error).toBe('invalid_client_metadata');
    for (const uris of [['not a url'], ['http://evil.example/cb']]) {
      const res = await server.call('/oauth/register', { method: 'POST', json: { redirect_uris: uris } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_redirect_uri');
    }
  });

  it('the root protected-resource document is absent; the /mcp one describes /mcp', async () => {
    expect((await server.call('/.well-known/oauth-protected-resource')).status).toBe(404);
    const mcp = await server.call('/.well-known/oauth-protected-resource/mcp');
    expect(mcp.body.resource).toBe(`${server.config.publicUrl}/mcp`);
  });
});
