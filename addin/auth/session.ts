import { z } from 'zod';
import type { TokenSource } from '../api/client.js';
import { createPkcePair, randomToken } from './pkce.js';

/** The public OAuth client the server registers for the add-in and the admin console. */
export const addinClientId = 'sitefile-addin';
export const callbackPath = '/addin/auth-callback.html';

const AuthServerMetadata = z.object({
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
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

async function discover(origin: string) {
  const res = await fetch(`${origin}/.well-known/oauth-authorization-server`);
  if (!res.ok) throw new Error('The Sitefile sign-in service is not available right now. Try again later.');
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
  const res = await fetch(metadata.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: addinClientId, ...params }),
  });
  const answer = TokenAnswer.safeParse(await res.json().catch(() => undefined));
  if (!res.ok || !answer.success) throw new Error('Sign-in could not be completed. Please sign in again.');
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
  saveSession(
    await tokenRequest(origin, {
      grant_type: 'authorization_code',
      code: answer.code,
      code_verifier: pending.verifier,
      redirect_uri: `${origin}${callbackPath}`,
    }),
  );
}

function loadSession(): StoredSession | undefined {
  const parsed = StoredSession.safeParse(safeParse(localStorage.getItem(storageKey)));
  return parsed.success ? parsed.data : undefined;
}

function saveSession(session: StoredSession): void {
  localStorage.setItem(storageKey, JSON.stringify(session));
}

export function signOut(): void {
  localStorage.removeItem(storageKey);
}

export const isSignedIn = (): boolean => loadSession() !== undefined;

/** Access tokens for the API client: renewed with the refresh token shortly before they expire. */
export function sessionTokens(origin: string, onSignedOut: () => void): TokenSource {
  let renewing: Promise<string | undefined> | undefined;
  const renew = async (session: StoredSession) => {
    if (!session.refreshToken) return undefined;
    try {
      const renewed = await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: session.refreshToken });
      saveSession(renewed);
      return renewed.accessToken;
    } catch {
      signOut();
      onSignedOut();
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
    rejected() {
      signOut();
      onSignedOut();
    },
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
