import { createHash, randomBytes } from 'node:crypto';
import type { TestServer } from '../../test/harness.js';
import { ADDIN_CLIENT_ID } from './first-party.js';

/** A minimal browser for the sign-in pages in tests: keeps the cookie, reads hidden fields, posts forms. */

const decodeEntities = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export const hiddenFields = (html: string): Record<string, string> =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
      decodeEntities(m[1]!),
      decodeEntities(m[2]!),
    ]),
  );

/** Public URL → the test server's real address. */
export const viaServer = (server: TestServer) => (url: string | URL, init?: RequestInit) =>
  fetch(String(url).replace(server.config.publicUrl, server.url), init);

export interface PageResult {
  status: number;
  html: string;
  location: string | null;
  headers: Headers;
}

/** `from`: the address the server sees (X-Forwarded-For, which it trusts from loopback as from a proxy). */
export function createBrowser(server: TestServer, options: { from?: string } = {}) {
  let cookie = '';
  const send = async (url: string, init: RequestInit = {}): Promise<PageResult> => {
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    if (options.from) headers.set('x-forwarded-for', options.from);
    const res = await viaServer(server)(url, { ...init, headers, redirect: 'manual' });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0]!;
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), headers: res.headers };
  };
  return {
    get: (url: string | URL) => send(String(url)),
    /** Posts the page's form: its hidden fields plus `fields`. */
    post: (page: PageResult, fields: Record<string, string>, csrf?: string) =>
      send(`${server.config.publicUrl}/oauth/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          ...hiddenFields(page.html),
          ...fields,
          ...(csrf !== undefined ? { csrf } : {}),
        }).toString(),
      }),
    clearCookie: () => {
      cookie = '';
    },
  };
}

/** Signs in on the authorization page and allows (or denies) the client: the redirect's parameters. */
export async function signInAndConsent(
  server: TestServer,
  authorizationUrl: string | URL,
  credentials: { email: string; password: string },
  decision: 'allow' | 'deny' = 'allow',
): Promise<URLSearchParams> {
  const browser = createBrowser(server);
  const form = await browser.get(authorizationUrl);
  if (form.status !== 200) throw new Error(`sign-in page: ${form.status} ${form.html}`);
  const consent = await browser.post(form, credentials);
  if (consent.status !== 200) throw new Error(`sign-in: ${consent.status} ${consent.html}`);
  const done = await browser.post(consent, { decision });
  if (done.status !== 302 || !done.location) throw new Error(`consent: ${done.status} ${done.html}`);
  return new URL(done.location).searchParams;
}

/** Signs in on the authorization page of one of our own apps, which asks no consent: the redirect's parameters. */
export async function signInFirstParty(
  server: TestServer,
  authorizationUrl: string | URL,
  credentials: { email: string; password: string },
): Promise<URLSearchParams> {
  const browser = createBrowser(server);
  const form = await browser.get(authorizationUrl);
  if (form.status !== 200) throw new Error(`sign-in page: ${form.status} ${form.html}`);
  const done = await browser.post(form, credentials);
  if (done.status !== 302 || !done.location) throw new Error(`sign-in: ${done.status} ${done.html}`);
  return new URL(done.location).searchParams;
}

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** `/oauth/authorize?…` with response_type=code and S256 unless given. */
export const authorizeUrl = (server: TestServer, params: Record<string, string>) => {
  const url = new URL(`${server.config.publicUrl}/oauth/authorize`);
  for (const [k, v] of Object.entries({ response_type: 'code', code_challenge_method: 'S256', ...params })) {
    url.searchParams.set(k, v);
  }
  return url;
};

/** The add-in's sign-in page (a fresh PKCE challenge), as a path on the server. */
export const addinSignInPath = (server: TestServer) =>
  authorizeUrl(server, {
    client_id: ADDIN_CLIENT_ID,
    redirect_uri: `${server.config.publicUrl}/addin/auth-callback.html`,
    code_challenge: pkce().challenge,
  }).href.replace(server.config.publicUrl, '');

/** A form POST to an OAuth endpoint (`/oauth/token`, `/oauth/revoke`): status and JSON body. */
export async function oauthForm(
  server: TestServer,
  pathname: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const res = await viaServer(server)(`${server.config.publicUrl}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as Record<string, string> };
}

/** The Outlook add-in's sign-in (first-party public client, PKCE): its /v1 tokens. */
export async function addinSignIn(server: TestServer, credentials: { email: string; password: string }) {
  const { verifier, challenge } = pkce();
  const redirectUri = `${server.config.publicUrl}/addin/auth-callback.html`;
  const redirect = await signInFirstParty(
    server,
    authorizeUrl(server, { client_id: ADDIN_CLIENT_ID, redirect_uri: redirectUri, code_challenge: challenge }),
    credentials,
  );
  const tokens = await oauthForm(server, '/oauth/token', {
    grant_type: 'authorization_code',
    code: redirect.get('code')!,
    code_verifier: verifier,
    redirect_uri: redirectUri,
    client_id: ADDIN_CLIENT_ID,
  });
  if (tokens.status !== 200) throw new Error(`add-in token: ${tokens.status} ${JSON.stringify(tokens.body)}`);
  return tokens.body as { access_token: string; refresh_token: string };
}
