import { describe, expect, it } from 'vitest';
import { addinSignIn, createBrowser, pkce, signInAndConsent, signInFirstParty, viaServer } from './browser.fixtures.js';
import { ADDIN_CLIENT_ID } from './first-party.js';
import { addinRedirect, agent, agentRedirect, authorizeUrl, base, server, tokenRequest } from './oauth.fixtures.js';

// Authorization requests, and the codes and tokens they lead to: for a registered agent and for the add-in.

const agentSignIn = async (
  extra: Record<string, string> = {},
  email = 'member@harbor.test',
  password = 'member-pass-1',
) => {
  const { verifier, challenge } = pkce();
  const redirect = await signInAndConsent(
    server,
    authorizeUrl({
      client_id: agent.client_id,
      redirect_uri: agentRedirect,
      code_challenge: challenge,
      state: 's1',
      ...extra,
    }),
    { email, password },
  );
  return { code: redirect.get('code')!, verifier };
};

const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
  tokenRequest({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: agentRedirect,
    client_id: agent.client_id,
    client_secret: agent.client_secret,
    ...extra,
  });

/** The sign-in page a client's authorization request leads to (with a fresh PKCE challenge). */
const authorizePage = (clientId: string, redirectUri: string) =>
  createBrowser(server).get(
    authorizeUrl({ client_id: clientId, redirect_uri: redirectUri, code_challenge: pkce().challenge }),
  );

describe('authorization request validation', () => {
  it('refuses an unregistered redirect URI without redirecting', async () => {
    const page = await authorizePage(agent.client_id, 'https://evil.example/cb');
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
  });

  it('accepts another port on a loopback redirect URI (RFC 8252)', async () => {
    const page = await authorizePage(agent.client_id, 'http://127.0.0.1:5999/callback');
    expect(page.status).toBe(200);
  });

  it('refuses plain PKCE, a missing challenge, unknown scopes and foreign resources on a page, not a redirect', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge: 'abc', code_challenge_method: 'plain' }, 'invalid_request'],
      [{}, 'invalid_request'],
      [{ code_challenge: pkce().challenge, scope: 'admin' }, 'invalid_scope'],
      [{ code_challenge: pkce().challenge, resource: `${base}/v1` }, 'invalid_target'],
    ];
    for (const [params, error] of cases) {
      const page = await createBrowser(server).get(
        authorizeUrl({ client_id: agent.client_id, redirect_uri: agentRedirect, state: 'x', ...params }),
      );
      // The agent registered itself: its redirect URI gets no automatic redirect (RFC 9700 §4.11.2).
      expect(page.status).toBe(400);
      expect(page.location).toBeNull();
      expect(page.html).toContain(`(${error})`);
    }
  });
});

describe('code and token exchange', () => {
  it('exchanges a code once, with the right verifier and client secret, for MCP-audience tokens', async () => {
    const { code, verifier } = await agentSignIn();
    expect((await exchange(code, pkce().verifier)).body.error).toBe('invalid_grant');
    expect((await exchange(code, verifier, { client_secret: 'wrong' })).status).toBe(401);
    const ok = await exchange(code, verifier);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'Bearer', expires_in: 86400, scope: 'sitefile' });
    const again = await exchange(code, verifier);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await server.call('/v1/me', { token: ok.body.access_token })).status).toBe(401);
  });

  it('lets a code expire after 10 minutes', async () => {
    const { code, verifier } = await agentSignIn();
    server.clock.advance(11 * 60_000);
    expect((await exchange(code, verifier)).body.error).toBe('invalid_grant');
  });

  it('rotates refresh tokens, ends the family on reuse, and honours revocation and the 90-day limit', async () => {
    const { code, verifier } = await agentSignIn();
    const first = (await exchange(code, verifier)).body;
    const refresh = (token: string) =>
      tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: agent.client_id,
        client_secret: agent.client_secret,
      });
    const second = await refresh(first.refresh_token!);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    const third = await refresh(second.body.refresh_token!);
    expect(third.status).toBe(200);

    // Revocation (RFC 7009) ends the family.
    const revoke = await viaServer(server)(`${base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: third.body.refresh_token!,
        client_id: agent.client_id,
        client_secret: agent.client_secret,
      }).toString(),
    });
    expect(revoke.status).toBe(200);
    expect((await refresh(third.body.refresh_token!)).body.error_description).toMatch(/revoked/);

    const other = await agentSignIn();
    const fresh = (await exchange(other.code, other.verifier)).body;
    server.clock.advance(91 * 24 * 3600 * 1000);
    expect((await refresh(fresh.refresh_token!)).body.error_description).toMatch(/expired/);
  });
});

describe('the Outlook add-in first-party client', () => {
  it('is registered at start-up as a public client and gets /v1 tokens through PKCE', async () => {
    const { verifier, challenge } = pkce();
    const redirect = await signInFirstParty(
      server,
      authorizeUrl({ client_id: ADDIN_CLIENT_ID, redirect_uri: addinRedirect, code_challenge: challenge }),
      { email: 'admin@harbor.test', password: 'admin-pass-1' },
    );
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: redirect.get('code')!,
      code_verifier: verifier,
      redirect_uri: addinRedirect,
      client_id: ADDIN_CLIENT_ID,
    });
    expect(tokens.status).toBe(200);
    const me = await server.call('/v1/me', { token: tokens.body.access_token });
    expect(me.status).toBe(200);
    const mcp = await server.call('/mcp', { method: 'POST', token: tokens.body.access_token, json: {} });
    expect(mcp.status).toBe(401);
  });

  it("signs staff in too: their /v1 token opens /v1/admin/*, a member's does not", async () => {
    const tokenFor = async (email: string, password: string) =>
      (await addinSignIn(server, { email, password })).access_token;
    const staff = await tokenFor('staff@sitefile.test', 'staff-pass-1');
    expect((await server.call('/v1/admin/documents', { token: staff })).status).toBe(200);
    const member = await tokenFor('member@harbor.test', 'member-pass-1');
    expect((await server.call('/v1/admin/documents', { token: member })).status).toBe(403);
  });

  it('only redirects to its registered callback', async () => {
    const page = await authorizePage(ADDIN_CLIENT_ID, `${base}/other.html`);
    expect(page.status).toBe(400);
  });
});
