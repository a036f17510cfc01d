import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { ADDIN_CLIENT_ID } from './first-party.js';
import {
  authorizeUrl as authorizeUrlOf,
  createBrowser,
  hiddenFields,
  oauthForm,
  pkce,
  signInAndConsent,
  viaServer,
} from './test-browser.js';
import { ACCOUNT_FAILURES, ADDRESS_FAILURES } from './throttle.js';

let server: TestServer;
const base = 'http://sitefile.test';
const addinRedirect = `${base}/addin/auth-callback.html`;
const agentRedirect = 'http://127.0.0.1:33418/callback';

const authorizeUrl = (params: Record<string, string>) => authorizeUrlOf(server, params);

const tokenRequest = async (params: Record<string, string>) => {
  const { status, body } = await oauthForm(server, '/oauth/token', params);
  return { status, body };
};

const register = async (metadata: Record<string, unknown>) =>
  server.call('/oauth/register', { method: 'POST', json: metadata });

let agent: { client_id: string; client_secret: string };

beforeAll(async () => {
  server = await startTestServer();
  await createFixtures(server);
  const res = await register({ client_name: 'Agent <b>X</b>', redirect_uris: [agentRedirect] });
  expect(res.status).toBe(201);
  agent = res.body;
});
afterAll(() => server?.close());

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

describe('sign-in page', () => {
  it('is an accessible form with labelled inputs, a CSRF token and anti-framing headers', async () => {
    const { challenge } = pkce();
    const page = await createBrowser(server).get(
      authorizeUrl({ client_id: agent.client_id, redirect_uri: agentRedirect, code_challenge: challenge }),
    );
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toMatch(
      /<label for="email">Email<\/label>\s*<input id="email" name="email" type="email" autocomplete="username"/,
    );
    expect(page.html).toMatch(
      /<label for="password">Password<\/label>\s*<input id="password" name="password" type="password" autocomplete="current-password"/,
    );
    expect(hiddenFields(page.html).csrf).toMatch(/^[\w-]{20,}$/);
    // The client's self-chosen name is shown escaped.
    expect(page.html).toContain('Agent &lt;b&gt;X&lt;/b&gt; wants to connect');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly/i);
  });

  it('gives the same generic error for a wrong password and an unknown e-mail', async () => {
    const { challenge } = pkce();
    const url = authorizeUrl({ client_id: agent.client_id, redirect_uri: agentRedirect, code_challenge: challenge });
    const browser = createBrowser(server);
    const form = await browser.get(url);
    const wrong = await browser.post(form, { email: 'admin@harbor.test', password: 'nope' });
    const unknown = await browser.post(form, { email: 'nobody@harbor.test', password: 'nope' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.html).toContain(
        '<p class="error" role="alert" id="signin-error">The email or password is incorrect.</p>',
      );
      expect(res.html).toContain('aria-invalid="true"');
    }
  });

  it('refuses a post without the CSRF cookie or with a wrong token', async () => {
    const { challenge } = pkce();
    const url = authorizeUrl({ client_id: agent.client_id, redirect_uri: agentRedirect, code_challenge: challenge });
    const browser = createBrowser(server);
    const form = await browser.get(url);
    const forged = await browser.post(
      form,
      { email: 'member@harbor.test', password: 'member-pass-1' },
      'forged-token-value-0000000',
    );
    expect(forged.status).toBe(403);
    expect(forged.html).not.toContain('Allow');
    browser.clearCookie();
    const noCookie = await browser.post(form, { email: 'member@harbor.test', password: 'member-pass-1' });
    expect(noCookie.status).toBe(200);
    expect(noCookie.html).toContain('Sign in to Sitefile'); // a fresh form, not the consent screen
  });

  it('shows a consent screen naming the client, the person, the organizations and the access', async () => {
    const { challenge } = pkce();
    const browser = createBrowser(server);
    const form = await browser.get(
      authorizeUrl({ client_id: agent.client_id, redirect_uri: agentRedirect, code_challenge: challenge }),
    );
    const consent = await browser.post(form, { email: 'admin@harbor.test', password: 'admin-pass-1' });
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('Allow Agent &lt;b&gt;X&lt;/b&gt; to access Sitefile?');
    expect(consent.html).toContain('Ada Admin (admin@harbor.test)');
    expect(consent.html).toContain('Harbor Construction');
    expect(consent.html).toContain('search e-mail dispatches');
  });

  it('redirects with access_denied and the state when the person denies', async () => {
    const { challenge } = pkce();
    const redirect = await signInAndConsent(
      server,
      authorizeUrl({ client_id: agent.client_id, redirect_uri: agentRedirect, code_challenge: challenge, state: 'st' }),
      { email: 'member@harbor.test', password: 'member-pass-1' },
      'deny',
    );
    expect(redirect.get('error')).toBe('access_denied');
    expect(redirect.get('state')).toBe('st');
    expect(redirect.get('code')).toBeNull();
  });

  it('does not accept a consent ticket for a different authorization request', async () => {
    const browser = createBrowser(server);
    const form = await browser.get(
      authorizeUrl({ client_id: agent.client_id, redirect_uri: agentRedirect, code_challenge: pkce().challenge }),
    );
    const consent = await browser.post(form, { email: 'member@harbor.test', password: 'member-pass-1' });
    const swapped = await browser.post(consent, { decision: 'allow', code_challenge: pkce().challenge });
    expect(swapped.status).toBe(400);
    expect(swapped.html).toContain('Your sign-in has expired');
  });

  it('answers a consent form once: a second submission gets no second code', async () => {
    const browser = createBrowser(server);
    const form = await browser.get(
      authorizeUrl({ client_id: agent.client_id, redirect_uri: agentRedirect, code_challenge: pkce().challenge }),
    );
    const consent = await browser.post(form, { email: 'member@harbor.test', password: 'member-pass-1' });
    const first = await browser.post(consent, { decision: 'allow' });
    expect(first.status).toBe(302);
    expect(new URL(first.location!).searchParams.get('code')).toBeTruthy();
    const again = await browser.post(consent, { decision: 'allow' });
    expect(again.status).toBe(400);
    expect(again.location).toBeNull();
    expect(again.html).toContain('This consent was already answered');
  });
});

describe('authorization request validation', () => {
  it('refuses an unregistered redirect URI without redirecting', async () => {
    const page = await createBrowser(server).get(
      authorizeUrl({
        client_id: agent.client_id,
        redirect_uri: 'https://evil.example/cb',
        code_challenge: pkce().challenge,
      }),
    );
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
  });

  it('accepts another port on a loopback redirect URI (RFC 8252)', async () => {
    const page = await createBrowser(server).get(
      authorizeUrl({
        client_id: agent.client_id,
        redirect_uri: 'http://127.0.0.1:5999/callback',
        code_challenge: pkce().challenge,
      }),
    );
    expect(page.status).toBe(200);
  });

  it('refuses plain PKCE, a missing challenge, unknown scopes and foreign resources', async () => {
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
      expect(page.status).toBe(302);
      const location = new URL(page.location!);
      expect(location.searchParams.get('error')).toBe(error);
      // The SDK echoes the state once the request parsed; a malformed request comes back without it.
      if (error !== 'invalid_request') expect(location.searchParams.get('state')).toBe('x');
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
    const redirect = await signInAndConsent(
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
    const tokenFor = async (email: string, password: string) => {
      const { verifier, challenge } = pkce();
      const redirect = await signInAndConsent(
        server,
        authorizeUrl({ client_id: ADDIN_CLIENT_ID, redirect_uri: addinRedirect, code_challenge: challenge }),
        { email, password },
      );
      const tokens = await tokenRequest({
        grant_type: 'authorization_code',
        code: redirect.get('code')!,
        code_verifier: verifier,
        redirect_uri: addinRedirect,
        client_id: ADDIN_CLIENT_ID,
      });
      return tokens.body.access_token!;
    };
    const staff = await tokenFor('staff@sitefile.test', 'staff-pass-1');
    expect((await server.call('/v1/admin/documents', { token: staff })).status).toBe(200);
    const member = await tokenFor('member@harbor.test', 'member-pass-1');
    expect((await server.call('/v1/admin/documents', { token: member })).status).toBe(403);
  });

  it('only redirects to its registered callback', async () => {
    const page = await createBrowser(server).get(
      authorizeUrl({
        client_id: ADDIN_CLIENT_ID,
        redirect_uri: `${base}/other.html`,
        code_challenge: pkce().challenge,
      }),
    );
    expect(page.status).toBe(400);
  });
});

describe('sign-in throttling', () => {
  it(`locks an account after ${ACCOUNT_FAILURES} failures, even for the right password, with Retry-After`, async () => {
    const browser = createBrowser(server);
    const form = await browser.get(
      authorizeUrl({ client_id: agent.client_id, redirect_uri: agentRedirect, code_challenge: pkce().challenge }),
    );
    for (let i = 0; i < ACCOUNT_FAILURES; i++) {
      expect((await browser.post(form, { email: 'staff@sitefile.test', password: `guess-${i}` })).status).toBe(401);
    }
    const locked = await browser.post(form, { email: 'STAFF@sitefile.test', password: 'staff-pass-1' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.html).toContain('Too many sign-in attempts');
    // Other accounts are not affected.
    expect((await browser.post(form, { email: 'member@harbor.test', password: 'member-pass-1' })).status).toBe(200);
  });

  it(`slows an address after ${ADDRESS_FAILURES} failures across accounts`, async () => {
    const own = await startTestServer();
    try {
      const ownFixtures = await createFixtures(own);
      const res = await own.call('/oauth/register', {
        method: 'POST',
        json: { redirect_uris: [agentRedirect], token_endpoint_auth_method: 'none' },
      });
      const browser = createBrowser(own);
      const form = await browser.get(
        authorizeUrl({ client_id: res.body.client_id, redirect_uri: agentRedirect, code_challenge: pkce().challenge }),
      );
      for (let i = 0; i < ADDRESS_FAILURES; i++) {
        expect((await browser.post(form, { email: `spray-${i}@harbor.test`, password: 'x' })).status).toBe(401);
      }
      const blocked = await browser.post(form, { email: ownFixtures.member.email, password: 'member-pass-1' });
      expect(blocked.status).toBe(429);
    } finally {
      await own.close();
    }
  });
});
