import { beforeAll, describe, expect, it } from 'vitest';
import { server } from '../../test/fixture-server.js';
import { authorizeUrl, createBrowser, oauthForm, type PageResult, pkce } from './browser.fixtures.js';
import { ADDIN_CLIENT_ID } from './first-party.js';

const redirect = 'http://127.0.0.1:33418/callback';
let client: { client_id: string; client_secret: string; token_endpoint_auth_method: string };

beforeAll(async () => {
  const res = await server.call('/oauth/register', { method: 'POST', json: { redirect_uris: [redirect] } });
  expect(res.status).toBe(201);
  client = res.body;
});

const addinRedirect = 'http://sitefile.test/addin/auth-callback.html';

/** What a browser gets for the registered client's authorization request with these parameters. */
const authorize = (params: Record<string, string>) =>
  createBrowser(server).get(authorizeUrl(server, { client_id: client.client_id, redirect_uri: redirect, ...params }));

/** A self-registered client's faulty request: an error page naming the redirect host, never a redirect. */
const expectErrorPage = (page: PageResult, error: string) => {
  expect(page.status).toBe(400);
  expect(page.location).toBeNull();
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.html).toContain(`(${error})`);
  expect(page.html).toContain('asked to be sent back to <strong>127.0.0.1:33418</strong>');
  expect(page.html).toContain('you were not sent there');
};

describe('no automatic redirect to a client nobody vouched for (RFC 9700 §4.11.2)', () => {
  it('response_type=token of a self-registered client: an error page, not a 302', async () => {
    expectErrorPage(
      await authorize({ response_type: 'token', code_challenge: pkce().challenge, state: 'st-1' }),
      'unsupported_response_type',
    );
  });

  it('a code_challenge of the wrong length, or none: an error page', async () => {
    for (const challenge of ['a'.repeat(42), 'a'.repeat(129)]) {
      expectErrorPage(await authorize({ code_challenge: challenge, state: 'st-2' }), 'invalid_request');
    }
    expectErrorPage(await authorize({ state: 'st-2' }), 'invalid_request');
  });

  it("errors the SDK's handler would redirect (an unknown scope) are an error page too", async () => {
    expectErrorPage(await authorize({ code_challenge: pkce().challenge, scope: 'admin' }), 'invalid_scope');
  });

  it('our own add-in (verified client and redirect URI) gets the error at its redirect URI, with the state', async () => {
    const page = await createBrowser(server).get(
      authorizeUrl(server, {
        client_id: ADDIN_CLIENT_ID,
        redirect_uri: addinRedirect,
        response_type: 'token',
        code_challenge: pkce().challenge,
        state: 'st-3',
      }),
    );
    expect(page.status).toBe(302);
    const params = new URL(page.location!).searchParams;
    expect(page.location!.startsWith(addinRedirect)).toBe(true);
    expect(params.get('error')).toBe('unsupported_response_type');
    expect(params.get('state')).toBe('st-3');
    expect(params.get('error_description')).toMatch(/^[^"\n{[]+\.$/);
  });

  it('the consent page marks a self-registered client unverified and names the redirect host; the add-in asks none', async () => {
    const browser = createBrowser(server);
    const form = await authorize({ code_challenge: pkce().challenge });
    expect(form.html).toContain('An unverified application wants to connect');
    const named = await server.call('/oauth/register', {
      method: 'POST',
      json: { client_name: 'Sitefile Outlook add-in (official)', redirect_uris: [redirect] },
    });
    const signIn = await browser.get(
      authorizeUrl(server, {
        client_id: named.body.client_id,
        redirect_uri: redirect,
        code_challenge: pkce().challenge,
      }),
    );
    expect(signIn.html).toContain(
      'An unverified application calling itself “Sitefile Outlook add-in (official)” wants to connect',
    );
    const consent = await browser.post(signIn, { email: 'member@harbor.test', password: 'member-pass-1' });
    expect(consent.status).toBe(200);
    expect(consent.html).toContain(
      '<h1 tabindex="-1" autofocus>Allow an unverified application to access Sitefile?</h1>',
    );
    expect(consent.html).toContain(
      'It calls itself “Sitefile Outlook add-in (official)”, a name Sitefile has not verified.',
    );
    expect(consent.html).toContain('you will be sent to <strong>127.0.0.1:33418</strong>');

    const addin = createBrowser(server);
    const addinForm = await addin.get(
      authorizeUrl(server, {
        client_id: ADDIN_CLIENT_ID,
        redirect_uri: addinRedirect,
        code_challenge: pkce().challenge,
      }),
    );
    expect(addinForm.html).toContain('Sitefile for Outlook wants to connect');
    expect(addinForm.html).not.toContain('unverified');
    // Our own add-in asks no consent: the sign-in sends the person back to it.
    const addinSignedIn = await addin.post(addinForm, { email: 'member@harbor.test', password: 'member-pass-1' });
    expect(addinSignedIn.status).toBe(302);
    expect(addinSignedIn.location).toMatch(new RegExp(`^${addinRedirect}\\?code=`));
  });
});

describe('OAuth details (RFC 6749, 7591, 7636, 9728)', () => {
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
