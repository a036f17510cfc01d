// A real OpenID provider (panva's certified oidc-provider) on a real port, for the single sign-on tests, and a
// browser that signs in through it: our sign-in page → the provider's login and consent → our callback → the app.
import { createServer, type Server } from 'node:http';
import { decodeJwt, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import Provider from 'oidc-provider';
import type { TestServer } from '../../test/harness.js';
import { listenOnLoopback } from '../../test/loopback-server.js';
import { hiddenFields, viaServer } from '../oauth/browser.fixtures.js';
import { SSO_CALLBACK_PATH } from './service.js';

export interface Account {
  email: string;
  email_verified?: boolean;
  /** Entra ID's "e-mail domain owner verified" optional claim. */
  xms_edov?: boolean;
  name: string;
}

/** A change the test makes to the ID token on its way out of the provider's token endpoint. */
export type Tamper = (claims: JWTPayload) => { claims: JWTPayload; key?: 'rogue' };

export interface IdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, Account>;
  /** Set to change the next ID tokens (undefined: as the provider signed them). */
  tamper: Tamper | undefined;
  /** A new signing key (a new key id), the old one no longer published: as a provider rotating its key. */
  rotateKey(): Promise<void>;
  /** The key id the provider signs with now. */
  kid(): string;
  /** How many requests the provider has had for a path (`/.well-known/openid-configuration`, `/jwks`). */
  requests(path: string): number;
  close(): Promise<void>;
}

const signingKey = async (kid: string) => {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' } as JWK & { kid: string };
};

export async function startIdentityProvider(sitefile: TestServer): Promise<IdentityProvider> {
  const http: Server = createServer();
  const { port, close } = await listenOnLoopback(http);
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, Account>();
  const rogue = await signingKey('rogue');
  let key = await signingKey('key-1');
  let keys = 1;
  const requested = new Map<string, number>();
  const idp: IdentityProvider = {
    issuer,
    clientId: 'sitefile-client',
    clientSecret: 'sitefile-client-secret-0123456789',
    accounts,
    tamper: undefined,
    async rotateKey() {
      keys += 1;
      key = await signingKey(`key-${keys}`);
      mount();
    },
    kid: () => key.kid,
    requests: (path) => requested.get(path) ?? 0,
    close,
  };
  // A provider is made with its keys: rotating makes a new one on the same issuer and port.
  const mount = () => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          redirect_uris: [`${sitefile.config.publicUrl}${SSO_CALLBACK_PATH}`],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [key] },
      cookies: { keys: ['identity-provider-test-cookies'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
      conformIdTokenClaims: false,
      findAccount: (_ctx, sub) => {
        const account = accounts.get(sub);
        return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
      },
    });
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path === '/token' && idp.tamper && body?.id_token) {
        const changed = idp.tamper(decodeJwt(body.id_token));
        const signer = changed.key === 'rogue' ? { ...rogue, kid: key.kid } : key;
        ctx.body = {
          ...body,
          id_token: await new SignJWT(changed.claims)
            .setProtectedHeader({ alg: 'RS256', kid: signer.kid })
            .sign(await importPrivate(signer)),
        };
      }
    });
    http.removeAllListeners('request');
    http.on('request', (req) => {
      const path = new URL(req.url ?? '/', issuer).pathname;
      requested.set(path, (requested.get(path) ?? 0) + 1);
    });
    http.on('request', provider.callback());
  };
  mount();
  return idp;
}

const importPrivate = async (jwk: JWK) => (await import('jose')).importJWK(jwk, 'RS256');

/** Cookies by name, sent to whichever server the browser is at (two servers, one test). */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    keep(res: Response) {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        const value = pair!.slice(at + 1);
        if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(pair!.slice(0, at));
        else cookies.set(pair!.slice(0, at), value);
      }
    },
  };
}

export interface SsoOutcome {
  /** The last answer: a redirect to the app (302 with `code`), or a page (the refusal). */
  status: number;
  html: string;
  location: string | null;
  /** The app's redirect parameters when the sign-in completed. */
  params?: URLSearchParams;
}

/**
 * Signs in through the identity provider from our sign-in page at `authorizeUrl`: "Sign in with your organization"
 * with `email`, the provider's login as `accountId`, its consent, our callback. Stops at the first answer that is not
 * a redirect (a refusal page) or at the redirect to the app.
 */
export async function ssoSignIn(
  sitefile: TestServer,
  authorizeUrl: string | URL,
  email: string,
  accountId: string,
): Promise<SsoOutcome> {
  const jar = cookieJar();
  const open = viaServer(sitefile);
  const send = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', jar.header());
    const res = await open(url, { ...init, headers, redirect: 'manual' });
    jar.keep(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), url };
  };
  const postForm = (url: string, fields: Record<string, string>) =>
    send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  const appRedirect = new URL(authorizeUrl).searchParams.get('redirect_uri')!;
  const page = await send(String(authorizeUrl));
  const ssoForm = page.html.slice(0, page.html.indexOf('step" value="signin"'));
  let at = await postForm(`${sitefile.config.publicUrl}/oauth/authorize`, { ...hiddenFields(ssoForm), email });
  for (let hops = 0; hops < 20; hops++) {
    if (at.status >= 300 && at.status < 400 && at.location) {
      const next = new URL(at.location, at.url);
      if (next.href.startsWith(appRedirect)) return { ...at, params: next.searchParams };
      at = await send(next.href);
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(at.html)?.[1];
    if (at.status === 200 && action && at.html.includes('name="prompt" value="login"')) {
      at = await postForm(new URL(action, at.url).href, { prompt: 'login', login: accountId, password: 'x' });
      continue;
    }
    if (at.status === 200 && action && at.html.includes('name="prompt" value="consent"')) {
      at = await postForm(new URL(action, at.url).href, { prompt: 'consent' });
      continue;
    }
    return at;
  }
  throw new Error('single sign-on did not finish in 20 steps');
}
