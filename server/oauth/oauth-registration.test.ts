import { describe, expect, it } from 'vitest';
import { oauthForm } from './browser.fixtures.js';
import { agentRedirect, base, register, server, tokenRequest } from './oauth.fixtures.js';

// What an OAuth client learns before signing anyone in: the metadata, registration and how errors read.

describe('discovery', () => {
  it('publishes authorization server metadata (PKCE S256 only, code + refresh grants)', async () => {
    const res = await server.call('/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
    });
  });

  it('publishes protected resource metadata for /mcp at both well-known paths', async () => {
    expect((await server.call('/.well-known/oauth-protected-resource')).status).toBe(404);
    for (const path of ['/.well-known/oauth-protected-resource/mcp']) {
      const res = await server.call(path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    }
  });
});

describe('error descriptions', () => {
  it('are one short sentence naming the parameter, never a dump of the schema check', async () => {
    const answers = [
      await tokenRequest({ grant_type: 'authorization_code', client_id: 'sitefile-addin' }),
      await oauthForm(server, '/oauth/revoke', { client_id: 'sitefile-addin' }),
      await register({ redirect_uris: [agentRedirect], grant_types: 5 }),
    ];
    expect(answers.map((a) => [a.status, a.body.error_description])).toEqual([
      [400, 'The parameter code is missing or invalid.'],
      [400, 'The parameter token is missing or invalid.'],
      [400, 'The parameter grant_types is missing or invalid.'],
    ]);
  });
});

describe('dynamic registration', () => {
  it('refuses plain-http redirect URIs to remote hosts and fragments (invalid_redirect_uri, RFC 7591)', async () => {
    for (const uri of ['http://evil.example/cb', 'https://ok.example/cb#frag']) {
      const res = await register({ redirect_uris: [uri] });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_redirect_uri');
    }
  });

  it('accepts https, loopback and private-use scheme redirect URIs', async () => {
    const res = await register({
      redirect_uris: ['https://agent.example/cb', 'http://localhost/cb', 'com.example.agent:/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(res.status).toBe(201);
    expect(res.body.client_secret).toBeUndefined();
  });
});
