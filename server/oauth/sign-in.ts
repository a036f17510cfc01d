import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Request, Response } from 'express';
import { recordSignIn } from '../audit/queries.js';
import { digest, hashSecret, verifySecret } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { finishSsoSignIn, passwordsOffFor, startSsoSignIn } from '../sso/service.js';
import { findUserByEmail, findUserById } from '../users/queries.js';
import { clientShown, markPersonAnswered } from './authorize-checks.js';
import { type ClientShown, consentPage, signInPage, ssoRefusedPage } from './pages.js';
import { markTicketUsed, userOrganizationNames } from './queries.js';
import { createSignInThrottle, type SignInThrottle, tryAgainIn } from './throttle.js';

export const AUTHORIZE_PATH = '/oauth/authorize';
const CSRF_COOKIE = 'sitefile_oauth_csrf';
/** The state of the single sign-on under way in this browser: only its own callback completes it. */
const SSO_STATE_COOKIE = 'sitefile_sso_state';
const TICKET_LIFETIME_SECONDS = 10 * 60;
/** How long a sign-in form may stay open: its CSRF token is a token the server signed, valid this long. */
const CSRF_LIFETIME_SECONDS = 2 * 60 * 60;

/** An authorization request the SDK's handler has already validated (client, redirect URI, PKCE). */
export interface AuthorizationRequest {
  state?: string;
  scopes: string[];
  codeChallenge: string;
  redirectUri: string;
  /** The token audience the grant is for. */
  resource: string;
}

export interface SignInFlow {
  /** Renders the sign-in page (GET), checks the posted form, shows consent, and finally redirects to
   *  the client with a code from `issueCode` or with `access_denied`. */
  handle(
    client: OAuthClientInformationFull,
    request: AuthorizationRequest,
    res: Response,
    issueCode: (userId: string) => Promise<string>,
  ): Promise<void>;
}

const readCookie = (req: Request, name: string): string | undefined => {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
};

const sameSecret = (a: unknown, b: string | undefined): boolean =>
  typeof a === 'string' && b !== undefined && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const field = (body: unknown, name: string, max: number): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};

/** What the steps of every request share. */
interface SignInDeps {
  app: AppContext;
  throttle: SignInThrottle;
  /** Unknown e-mails are checked against a dummy hash so both failures take the same time. */
  dummyHash: () => Promise<string>;
  secureCookie: boolean;
  mcpResource: string;
  /** The audience of the forms' CSRF tokens, so no other token the server signs passes for one. */
  csrfAudience: string;
}

export function createSignInFlow(
  app: AppContext,
  throttle: SignInThrottle = createSignInThrottle(app.db, app.clock),
): SignInFlow {
  let dummyHash: Promise<string> | undefined;
  const deps: SignInDeps = {
    app,
    throttle,
    dummyHash: () => {
      dummyHash ??= hashSecret(randomBytes(16).toString('hex'));
      return dummyHash;
    },
    secureCookie: app.config.publicUrl.startsWith('https:'),
    mcpResource: `${app.config.publicUrl}/mcp`,
    csrfAudience: `${app.config.publicUrl}/oauth/csrf`,
  };
  return { handle: (client, request, res, issueCode) => handleAuthorization(deps, client, request, res, issueCode) };
}

/** One authorization request's pages: the sign-in form (again, with an error) or any other page. */
interface AuthorizationPages {
  req: Request;
  res: Response;
  client: OAuthClientInformationFull;
  request: AuthorizationRequest;
  shown: ClientShown;
  csrf: string;
  oauthParams: Record<string, string | undefined>;
  render(status: number, html: string): void;
  showSignIn(status: number, error?: string, email?: string): void;
}

async function handleAuthorization(
  deps: SignInDeps,
  client: OAuthClientInformationFull,
  request: AuthorizationRequest,
  res: Response,
  issueCode: (userId: string) => Promise<string>,
): Promise<void> {
  const req = res.req;
  // The page's CSP and framing rule come from http/security-headers.ts, as for every page under /oauth.
  res.setHeader('Referrer-Policy', 'no-referrer');

  const cookie = readCookie(req, CSRF_COOKIE);
  const issued = cookie !== undefined && deps.app.tokens.verify(cookie, deps.csrfAudience) ? cookie : undefined;
  const posted = req.method === 'POST' ? field(req.body, 'step', 20) : '';
  const ssoTicket = req.method === 'GET' ? req.query.sso_ticket : undefined;
  if (typeof ssoTicket === 'string') {
    await ssoReturnStep(deps, pagesFor(client, request, res, issued ?? issueCsrf(deps, res)), ssoTicket, issueCode);
    return;
  }
  if (!posted || cookie === undefined) {
    pagesFor(client, request, res, issued ?? issueCsrf(deps, res)).showSignIn(200);
    return;
  }
  // A cookie this server did not sign (planted by someone who can set cookies for the site) or an expired one is
  // refused like a form whose field does not match it.
  if (!issued || !sameSecret(req.body.csrf, issued)) {
    pagesFor(client, request, res, issued ?? issueCsrf(deps, res)).showSignIn(
      403,
      'This sign-in form has expired. Please sign in again.',
    );
    return;
  }
  const pages = pagesFor(client, request, res, issued);
  if (posted === 'signin') await signInStep(deps, pages, issueCode);
  else if (posted === 'sso') await ssoStartStep(deps, pages);
  else await consentStep(deps, pages, posted, issueCode);
}

/** A new CSRF token, signed by the server for this purpose only, set as the form's cookie. */
function issueCsrf(deps: SignInDeps, res: Response): string {
  const csrf = deps.app.tokens.sign(randomBytes(16).toString('base64url'), 'user', {
    lifetimeSeconds: CSRF_LIFETIME_SECONDS,
    audience: deps.csrfAudience,
  }).token;
  res.cookie(CSRF_COOKIE, csrf, { httpOnly: true, sameSite: 'lax', secure: deps.secureCookie, path: '/oauth' });
  return csrf;
}

function pagesFor(
  client: OAuthClientInformationFull,
  request: AuthorizationRequest,
  res: Response,
  csrf: string,
): AuthorizationPages {
  const shown = clientShown(client, request.redirectUri);
  const oauthParams = {
    client_id: client.client_id,
    redirect_uri: request.redirectUri,
    response_type: 'code',
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    scope: request.scopes.join(' '),
    state: request.state,
    resource: request.resource,
  };
  const render = (status: number, html: string) => {
    res.status(status).type('html').send(html);
  };
  return {
    req: res.req,
    res,
    client,
    request,
    shown,
    csrf,
    oauthParams,
    render,
    showSignIn: (status, error, email) =>
      render(status, signInPage({ action: AUTHORIZE_PATH, client: shown, csrf, oauthParams, email, error })),
  };
}

/**
 * The posted e-mail and password: on success the consent page, with a ticket for this request — or, for one of our
 * own apps, straight back to it with a code. Consent guards against an application nobody vouched for; our own is
 * named on the sign-in page, registered by the server with one exact redirect URI on its own origin, and bound to
 * the request by PKCE, and the person has just typed their password for it (the active interaction OAuth 2.1 asks
 * of a repeated authorization). Asking "Allow Sitefile to access Sitefile?" on every sign-in taught people to
 * click Allow without reading, which is what the unverified clients' page relies on them not doing.
 */
async function signInStep(
  deps: SignInDeps,
  pages: AuthorizationPages,
  issueCode: (userId: string) => Promise<string>,
): Promise<void> {
  const { app, throttle } = deps;
  const { req, res } = pages;
  const email = field(req.body, 'email', 320).trim();
  const password = field(req.body, 'password', 1024);
  const ip = req.ip ?? 'unknown';
  const wait = await throttle.startAttempt(ip, email);
  if (wait > 0) {
    res.setHeader('Retry-After', String(wait));
    pages.showSignIn(429, `Too many sign-in attempts. ${tryAgainIn(wait)}`, email);
    return;
  }
  const user = email ? await findUserByEmail(app.db, email) : undefined;
  const dummyHash = deps.dummyHash();
  const passwordOk = await verifySecret(user?.passwordHash ?? (await dummyHash), password);
  const valid = Boolean(user?.passwordHash && passwordOk && !user.disabledAt);
  // Said only after the right password, so the answer tells no one who is a member of which organization.
  const ssoOnly = valid && user !== undefined && (await passwordsOffFor(app, user));
  await recordSignIn(app.db, { email, user, ip, succeeded: valid && !ssoOnly, at: app.clock.now() });
  if (ssoOnly) {
    pages.showSignIn(
      403,
      'Your organization signs you in through its identity provider: use “Sign in with your organization” below.',
      email,
    );
    return;
  }
  if (!valid || !user) {
    await throttle.recordFailure(ip, email);
    pages.showSignIn(401, 'The email or password is incorrect.', email);
    return;
  }
  await throttle.recordSuccess(ip, email);
  await signedIn(deps, pages, user, issueCode);
}

/** A person known (by password or their identity provider): our own apps get their code, others the consent page. */
async function signedIn(
  { app, mcpResource }: SignInDeps,
  pages: AuthorizationPages,
  user: { id: string; name: string; email: string },
  issueCode: (userId: string) => Promise<string>,
): Promise<void> {
  const { request } = pages;
  if (pages.shown.verified) {
    await sendBack(pages, await issueCode(user.id));
    return;
  }
  const ticket = app.tokens.sign(user.id, 'user', {
    lifetimeSeconds: TICKET_LIFETIME_SECONDS,
    audience: ticketAudience(app, pages.client.client_id, request),
  }).token;
  pages.render(
    200,
    consentPage({
      action: AUTHORIZE_PATH,
      client: pages.shown,
      userName: user.name,
      userEmail: user.email,
      access: accessLines(request.resource, mcpResource),
      organizations: await userOrganizationNames(app.db, user.id),
      csrf: pages.csrf,
      ticket,
      oauthParams: pages.oauthParams,
    }),
  );
}

/** "Sign in with your organization": off to the identity provider of the e-mail's domain, this request kept to resume. */
async function ssoStartStep(deps: SignInDeps, pages: AuthorizationPages): Promise<void> {
  const email = field(pages.req.body, 'email', 320).trim();
  try {
    const { url, state } = await startSsoSignIn(deps.app, email, {
      clientId: pages.client.client_id,
      ...pages.oauthParams,
    });
    pages.res.cookie(SSO_STATE_COOKIE, state, {
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.secureCookie,
      path: '/oauth',
      maxAge: 10 * 60 * 1000,
    });
    pages.res.redirect(303, url);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    pages.showSignIn(err.code === 'service_unavailable' ? 503 : 400, err.message, email);
  }
}

/** Back from the identity provider (through the callback) with a ticket for the person it signed in. */
async function ssoReturnStep(
  deps: SignInDeps,
  pages: AuthorizationPages,
  ticket: string,
  issueCode: (userId: string) => Promise<string>,
): Promise<void> {
  const { app } = deps;
  const claims = app.tokens.verify(ticket, ssoTicketAudience(app, pages.client.client_id, pages.request));
  if (!claims || !(await markTicketUsed(app.db, claims.jti, app.clock.now(), new Date(claims.exp * 1000)))) {
    pages.showSignIn(400, 'Your sign-in has expired. Please sign in again.');
    return;
  }
  const user = await findUserById(app.db, claims.sub);
  if (!user || user.disabledAt) {
    pages.showSignIn(403, 'Your account is disabled. Ask your organization admin.');
    return;
  }
  await signedIn(deps, pages, user, issueCode);
}

/**
 * The identity provider's redirect back (`/oauth/sso/callback`): the sign-in is checked (service), and the browser
 * goes back to the authorization request it started from with a one-time ticket for the person, bound to that
 * request. A refusal is a page saying why.
 */
export function ssoCallback(app: AppContext) {
  return async (req: Request, res: Response): Promise<void> => {
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.clearCookie(SSO_STATE_COOKIE, { path: '/oauth' });
    try {
      const { userId, resume } = await finishSsoSignIn(app, {
        url: new URL(req.originalUrl, app.config.publicUrl),
        state: readCookie(req, SSO_STATE_COOKIE),
        ip: req.ip ?? 'unknown',
      });
      const { clientId, ...oauthParams } = resume as Record<string, string>;
      const target = new URL(`${app.config.publicUrl}${AUTHORIZE_PATH}`);
      for (const [key, value] of Object.entries({ client_id: clientId, ...oauthParams })) {
        if (typeof value === 'string') target.searchParams.set(key, value);
      }
      const request = {
        state: oauthParams.state,
        scopes: [],
        codeChallenge: oauthParams.code_challenge!,
        redirectUri: oauthParams.redirect_uri!,
        resource: oauthParams.resource!,
      };
      const ticket = app.tokens.sign(userId, 'user', {
        lifetimeSeconds: TICKET_LIFETIME_SECONDS,
        audience: ssoTicketAudience(app, clientId!, request),
      }).token;
      target.searchParams.set('sso_ticket', ticket);
      res.redirect(302, target.href);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const status = err.code === 'unauthorized' ? 401 : err.code === 'service_unavailable' ? 503 : 400;
      res.status(status).type('html').send(ssoRefusedPage(err.message));
    }
  };
}

/** The consent form's answer, once per ticket: back to the client with a code or with access_denied. */
async function consentStep(
  { app }: SignInDeps,
  pages: AuthorizationPages,
  posted: string,
  issueCode: (userId: string) => Promise<string>,
): Promise<void> {
  const { req, request } = pages;
  const claims = app.tokens.verify(
    field(req.body, 'ticket', 4000),
    ticketAudience(app, pages.client.client_id, request),
  );
  if (posted !== 'consent' || !claims) {
    pages.showSignIn(400, 'Your sign-in has expired. Please sign in again.');
    return;
  }
  // A consent form answers once: a second submission (a double click, a replayed post) gets no second code.
  if (!(await markTicketUsed(app.db, claims.jti, app.clock.now(), new Date(claims.exp * 1000)))) {
    pages.showSignIn(400, 'This consent was already answered. Please sign in again.');
    return;
  }
  await sendBack(pages, field(req.body, 'decision', 10) === 'allow' ? await issueCode(claims.sub) : undefined);
}

/** Back to the client with the code, or with access_denied when the person denied it. */
async function sendBack({ res, request }: AuthorizationPages, code: string | undefined): Promise<void> {
  const target = new URL(request.redirectUri);
  if (code !== undefined) {
    target.searchParams.set('code', code);
  } else {
    target.searchParams.set('error', 'access_denied');
    target.searchParams.set('error_description', 'The user denied access');
  }
  if (request.state !== undefined) target.searchParams.set('state', request.state);
  markPersonAnswered(res);
  res.redirect(302, target.href);
}

// The consent ticket proves a successful sign-in for exactly this authorization request: a short
// JWT whose audience carries a digest of the request, so it cannot be replayed for another client.
const ticketAudience = (app: AppContext, clientId: string, request: AuthorizationRequest) =>
  `${app.config.publicUrl}/oauth/consent/${digest(
    JSON.stringify([clientId, request.redirectUri, request.codeChallenge, request.resource, request.state ?? '']),
  )}`;

// The single sign-on ticket is bound to the request the same way, under an audience of its own.
const ssoTicketAudience = (app: AppContext, clientId: string, request: AuthorizationRequest) =>
  ticketAudience(app, clientId, request).replace('/oauth/consent/', '/oauth/sso/');

const accessLines = (resource: string, mcpResource: string) =>
  resource === mcpResource
    ? [
        'find your projects and read their documents, submittals and reports',
        'search e-mail dispatches and their delivery history (sent, delivered, opened, bounced)',
        'run read-only data queries (counts, lists) over that data',
      ]
    : ['use the Sitefile API as you, with your organization roles (file e-mails, read projects and documents)'];
