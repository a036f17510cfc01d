import { z } from 'zod';
import { ApiCallError, type TokenSource, unreachable } from '../api/client.js';
import { createPkcePair, randomToken } from './pkce.js';

/** The public OAuth client the server registers for the add-in and the admin console. */
export const addinClientId = 'sitefile-addin';
export const callbackPath = '/addin/auth-callback.html';

const AuthServerMetadata = z.object({
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  revocation_endpoint: z.string().optional(),
  scopes_supported: z.array(z.string()).optional(),
});

const TokenAnswer = z.object({
  access_token: z.string(),
  refresh_token: z.string().optional(),
  expires_in: z.number(),
});

const StoredSession = z.object({
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  expiresAt: z.number(),
});
type StoredSession = z.infer<typeof StoredSession>;

/** What the authorization request needs to be finished by the page the code comes back to. */
export interface PendingSignIn {
  state: string;
  verifier: string;
}

const storageKey = 'sitefile.session';
/** Where the admin console keeps its pending sign-in while the browser visits the sign-in page. */
export const adminPendingKey = 'sitefile.admin.pending';
/** Renew this long before the access token expires. */
const renewMarginMs = 60_000;

/** Why the session ended: the person signed out, or the server no longer accepts it (expired or revoked). */
export type SignedOutReason = 'signed-out' | 'expired';

/** The server refused the refresh token: the sign-in is over and only a new sign-in helps. */
export class SessionExpiredError extends Error {
  constructor() {
    super('Your sign-in has expired. Sign in again to continue.');
    this.name = 'SessionExpiredError';
  }
}

/** A fetch that fails with no answer (offline, server down) becomes the one "cannot be reached" error. */
async function fetchOrUnreachable(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    throw unreachable();
  }
}

async function discover(origin: string) {
  const res = await fetchOrUnreachable(`${origin}/.well-known/oauth-authorization-server`);
  if (!res.ok) throw new ApiCallError('The Sitefile sign-in service is not available right now.', res.status);
  return AuthServerMetadata.parse(await res.json());
}

/** Starts the authorization-code + PKCE flow: the URL to open, and what the callback needs to finish it. */
export async function beginSignIn(origin: string, statePrefix: 'pane' | 'admin') {
  const [metadata, pkce] = await Promise.all([discover(origin), createPkcePair()]);
  const state = `${statePrefix}.${randomToken(16)}`;
  const url = new URL(metadata.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: addinClientId,
    redirect_uri: `${origin}${callbackPath}`,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state,
    ...(metadata.scopes_supported?.length ? { scope: metadata.scopes_supported.join(' ') } : {}),
  }).toString();
  return { url: url.toString(), pending: { state, verifier: pkce.verifier } satisfies PendingSignIn };
}

async function tokenRequest(origin: string, params: Record<string, string>): Promise<StoredSession> {
  const metadata = await discover(origin);
  const res = await fetchOrUnreachable(metadata.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: addinClientId, ...params }),
  });
  if (res.status >= 500 || res.status === 429) {
    throw new ApiCallError('The Sitefile sign-in service is not available right now.', res.status);
  }
  const answer = TokenAnswer.safeParse(await res.json().catch(() => undefined));
  if (!res.ok || !answer.success) throw new SessionExpiredError();
  return {
    accessToken: answer.data.access_token,
    refreshToken: answer.data.refresh_token ?? params.refresh_token,
    expiresAt: Date.now() + answer.data.expires_in * 1000,
  };
}

/** Exchanges the authorization code (checked against the state we sent) and stores the session. */
export async function completeSignIn(
  origin: string,
  pending: PendingSignIn,
  answer: { code?: string; state?: string; error?: string },
): Promise<void> {
  if (answer.error) throw new Error(answer.error === 'access_denied' ? 'Sign-in was cancelled.' : 'Sign-in failed.');
  if (!answer.code || answer.state !== pending.state) throw new Error('Sign-in failed (the answer did not match).');
  const session = await tokenRequest(origin, {
    grant_type: 'authorization_code',
    code: answer.code,
    code_verifier: pending.verifier,
    redirect_uri: `${origin}${callbackPath}`,
  }).catch((error: unknown) => {
    throw error instanceof SessionExpiredError ? new Error('Sign-in could not be completed. Sign in again.') : error;
  });
  saveSession(session);
}

function loadSession(): StoredSession | undefined {
  const parsed = StoredSession.safeParse(safeParse(localStorage.getItem(storageKey)));
  return parsed.success ? parsed.data : undefined;
}

function saveSession(session: StoredSession): void {
  localStorage.setItem(storageKey, JSON.stringify(session));
}

/** Forgets the session here; see signOutEverywhere for ending it at the server too. */
export function forgetSession(): void {
  localStorage.removeItem(storageKey);
}

/**
 * Signs out: the session is forgotten at once, and its refresh token is revoked at the server's revocation
 * endpoint (RFC 7009), so a copy of it is worthless. The revocation is best effort: when the server cannot be
 * reached the token still expires on its own.
 */
export async function signOutEverywhere(origin: string): Promise<void> {
  const session = loadSession();
  forgetSession();
  if (!session?.refreshToken) return;
  try {
    const metadata = await discover(origin);
    if (!metadata.revocation_endpoint) return;
    await fetch(metadata.revocation_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: addinClientId,
        token: session.refreshToken,
        token_type_hint: 'refresh_token',
      }),
    });
  } catch {
    // Offline: nothing more can be done from here.
  }
}

export const isSignedIn = (): boolean => loadSession() !== undefined;

/**
 * Access tokens for the API client: renewed with the refresh token shortly before they expire. Only the server's
 * refusal ends the session; a renewal that cannot reach the server keeps it and fails as "cannot be reached", so
 * the add-in can say it is offline and try again.
 */
export function sessionTokens(origin: string, onSignedOut: (reason: SignedOutReason) => void): TokenSource {
  let renewing: Promise<string | undefined> | undefined;
  const expire = () => {
    forgetSession();
    onSignedOut('expired');
  };
  const renew = async (session: StoredSession) => {
    if (!session.refreshToken) {
      expire();
      return undefined;
    }
    try {
      const renewed = await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: session.refreshToken });
      saveSession(renewed);
      return renewed.accessToken;
    } catch (error) {
      if (!(error instanceof SessionExpiredError)) throw error;
      expire();
      return undefined;
    }
  };
  return {
    async accessToken() {
      const session = loadSession();
      if (!session) return undefined;
      if (session.expiresAt - renewMarginMs > Date.now()) return session.accessToken;
      renewing ??= renew(session).finally(() => {
        renewing = undefined;
      });
      return renewing;
    },
    rejected: expire,
  };
}

function safeParse(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
