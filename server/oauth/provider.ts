import { randomBytes } from 'node:crypto';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
  OAuthError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Response } from 'express';
import { digest } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import { newId } from '../ids.js';
import { FIRST_PARTY_APPS } from './first-party.js';
import {
  familyClientId,
  findApp,
  findAuthCode,
  findRefreshToken,
  insertApp,
  insertAuthCode,
  insertRefreshToken,
  revokeFamily,
  spendAuthCode,
  spendRefreshToken,
} from './queries.js';
import type { SignInFlow } from './sign-in.js';

export const ACCESS_TOKEN_LIFETIME_SECONDS = 24 * 3600;
export const REFRESH_TOKEN_LIFETIME_SECONDS = 90 * 24 * 3600;
const AUTH_CODE_LIFETIME_SECONDS = 10 * 60;
/** The one scope: tokens act as the signed-in person, limited by their memberships. */
export const SITEFILE_SCOPE = 'sitefile';

const randomToken = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

export interface OAuthResources {
  /** Audience of tokens for the MCP endpoint (`{publicUrl}/mcp`). */
  mcp: string;
  /** Audience of tokens for the REST API (`{publicUrl}/v1`). */
  api: string;
}

export const oauthResources = (app: AppContext): OAuthResources => ({
  mcp: `${app.config.publicUrl}/mcp`,
  api: app.tokens.apiAudience,
});

/** Which audiences a client may ask for, and the default when it names none. Dynamically registered
 *  (MCP) clients get MCP tokens only; first-party apps declare theirs. */
export function allowedResources(clientId: string, resources: OAuthResources): { allowed: string[]; default: string } {
  const firstParty = FIRST_PARTY_APPS.find((a) => a.clientId === clientId);
  if (!firstParty) return { allowed: [resources.mcp], default: resources.mcp };
  const map = { mcp: resources.mcp, api: resources.api };
  return { allowed: firstParty.resources.map((r) => map[r]), default: map[firstParty.resources[0]!] };
}

/** The audience for an authorization or token request, or an invalid_target error. */
export function resolveResource(clientId: string, requested: URL | undefined, resources: OAuthResources): string {
  const { allowed, default: fallback } = allowedResources(clientId, resources);
  if (!requested) return fallback;
  const wanted = requested.href.replace(/\/$/, '');
  if (!allowed.includes(wanted)) throw new InvalidTargetError(`This client may not request tokens for ${wanted}`);
  return wanted;
}

export function checkScopes(requested: string[] | undefined): string[] {
  const scopes = (requested ?? []).filter(Boolean);
  const unknown = scopes.filter((s) => s !== SITEFILE_SCOPE);
  if (unknown.length > 0)
    throw new InvalidScopeError(`Unknown scope: ${unknown.join(' ')}; supported: ${SITEFILE_SCOPE}`);
  return [SITEFILE_SCOPE];
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** RFC 7591 §3.2.2: a redirect URI the server will not register. */
class InvalidRedirectUriError extends OAuthError {
  static override errorCode = 'invalid_redirect_uri';
}

/** Client authentication methods the token and revocation endpoints honour. */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;

/** Refuses registration metadata the server cannot honour (RFC 7591 §3.2.2), rather than ignoring it. */
function checkHonourable(client: OAuthClientInformationFull): void {
  const method = client.token_endpoint_auth_method;
  if (method !== undefined && !(TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(method)) {
    throw new InvalidClientMetadataError(`token_endpoint_auth_method ${method} is not supported.`);
  }
  const grants = client.grant_types ?? ['authorization_code'];
  if (grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    throw new InvalidClientMetadataError('Only the authorization_code and refresh_token grant types are supported.');
  }
  if ((client.response_types ?? ['code']).some((t) => t !== 'code')) {
    throw new InvalidClientMetadataError('Only the code response type is supported.');
  }
}

/** Redirect URIs of dynamically registered clients: https, http on loopback (RFC 8252 §7.3), or a
 *  private-use scheme of a native app (§7.1). Never plain http to a remote host. */
export function checkRedirectUris(uris: string[]): void {
  if (uris.length === 0 || uris.length > 10) throw new InvalidRedirectUriError('Register 1 to 10 redirect_uris.');
  for (const uri of uris) {
    if (!URL.canParse(uri)) throw new InvalidRedirectUriError('A redirect_uri is not a valid URL.');
    const url = new URL(uri);
    const ok =
      uri.length <= 2000 &&
      !url.hash &&
      (url.protocol === 'https:' ||
        (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) ||
        (!['http:', 'https:', 'data:', 'file:', 'javascript:', 'vbscript:'].includes(url.protocol) &&
          url.protocol.includes('.')));
    if (!ok)
      throw new InvalidRedirectUriError('Redirect URIs must be https, http on loopback, or a private-use scheme.');
  }
}

export function createClientsStore(app: AppContext): OAuthRegisteredClientsStore {
  return {
    async getClient(clientId) {
      const row = await findApp(app.db, clientId);
      if (!row) return undefined;
      // The secret is checked against its digest by verifyClientSecret before the SDK's handlers run,
      // so the stored information never carries it.
      return { ...(row.metadata as Omit<OAuthClientInformationFull, 'client_id'>), client_id: row.clientId };
    },
    async registerClient(registered) {
      checkRedirectUris(registered.redirect_uris);
      checkHonourable(registered as OAuthClientInformationFull);
      // RFC 7591 §2: a client that names no method uses client_secret_basic; say so in the answer.
      const client = {
        ...registered,
        token_endpoint_auth_method: registered.token_endpoint_auth_method ?? 'client_secret_basic',
      };
      if (client.client_name && client.client_name.length > 200) {
        throw new InvalidClientMetadataError('client_name must be at most 200 characters');
      }
      const clientId = (client as OAuthClientInformationFull).client_id ?? newId('mcp');
      const { client_secret: secret, ...metadata } = client as OAuthClientInformationFull;
      await insertApp(app.db, {
        clientId,
        clientSecretHash: secret ? digest(secret) : null,
        metadata: { ...metadata, client_id: clientId },
      });
      return { ...client, client_id: clientId } as OAuthClientInformationFull;
    },
  };
}

/**
 * Our OAuth 2.1 provider for the SDK's auth router: the authorize step hands over to the sign-in
 * flow (server-rendered pages); codes and refresh tokens live in the database as digests; access
 * tokens are our JWTs with the requested resource as audience.
 */
export function createOAuthProvider(app: AppContext, signIn: SignInFlow): OAuthServerProvider {
  const resources = oauthResources(app);
  return {
    clientsStore: createClientsStore(app),

    async authorize(client, params: AuthorizationParams, res: Response) {
      const scopes = checkScopes(params.scopes);
      const resource = resolveResource(client.client_id, params.resource, resources);
      await signIn.handle(client, { ...params, scopes, resource }, res, (userId) =>
        issueAuthCode(app, { clientId: client.client_id, userId, params, scopes, resource }),
      );
    },

    async challengeForAuthorizationCode(client, code) {
      return (await liveCode(app, client.client_id, code)).codeChallenge;
    },

    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) =>
      exchangeAuthorizationCode(app, client.client_id, code, redirectUri, resource),

    exchangeRefreshToken: (client, refreshToken, scopes, resource) =>
      exchangeRefreshToken(app, client.client_id, refreshToken, scopes, resource),

    verifyAccessToken: (token) => verifyAccessToken(app, resources, token),

    revokeToken: (client, request) => revokeToken(app, resources, client.client_id, request.token),
  };
}

/** Ends a sign-in: its refresh tokens and, on every instance, its access tokens. */
async function endSignIn(app: AppContext, familyId: string) {
  await revokeFamily(app.db, familyId, app.clock.now());
  await app.guard.revokeGrant(familyId, new Date(app.clock.now().getTime() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000));
}

/** A code for a completed sign-in; each code starts a new sign-in (grant). */
async function issueAuthCode(
  app: AppContext,
  grant: { clientId: string; userId: string; params: AuthorizationParams; scopes: string[]; resource: string },
): Promise<string> {
  const code = randomToken('sfc');
  await insertAuthCode(app.db, {
    codeHash: digest(code),
    clientId: grant.clientId,
    userId: grant.userId,
    redirectUri: grant.params.redirectUri,
    codeChallenge: grant.params.codeChallenge,
    scopes: grant.scopes,
    resource: grant.resource,
    grantId: newId('fam'),
    expiresAt: new Date(app.clock.now().getTime() + AUTH_CODE_LIFETIME_SECONDS * 1000),
  });
  return code;
}

// The refresh-token family is the sign-in (grant): every access token names it.
async function issueTokens(
  app: AppContext,
  grant: { clientId: string; userId: string; scopes: string[]; resource: string },
  familyId: string,
): Promise<OAuthTokens> {
  const access = app.tokens.sign(grant.userId, 'user', {
    lifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS,
    audience: grant.resource,
    grant: familyId,
  });
  const refreshToken = randomToken('sfr');
  await insertRefreshToken(app.db, {
    tokenHash: digest(refreshToken),
    familyId,
    clientId: grant.clientId,
    userId: grant.userId,
    scopes: grant.scopes,
    resource: grant.resource,
    createdAt: app.clock.now(),
    expiresAt: new Date(app.clock.now().getTime() + REFRESH_TOKEN_LIFETIME_SECONDS * 1000),
  });
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    refresh_token: refreshToken,
    scope: grant.scopes.join(' '),
  };
}

async function liveCode(app: AppContext, clientId: string, code: string) {
  const row = await findAuthCode(app.db, digest(code));
  // A code presented twice has leaked (RFC 6749 §4.1.2): end the sign-in it started.
  if (row?.usedAt && row.clientId === clientId && row.grantId) await endSignIn(app, row.grantId);
  if (!row || row.clientId !== clientId || row.usedAt || row.expiresAt <= app.clock.now()) {
    throw new InvalidGrantError('Invalid, expired or already used authorization code');
  }
  return row;
}

async function exchangeAuthorizationCode(
  app: AppContext,
  clientId: string,
  code: string,
  redirectUri: string | undefined,
  resource: URL | undefined,
): Promise<OAuthTokens> {
  const row = await liveCode(app, clientId, code);
  if (redirectUri !== undefined && redirectUri !== row.redirectUri) {
    throw new InvalidGrantError('redirect_uri does not match the authorization request');
  }
  if (resource && resource.href.replace(/\/$/, '') !== row.resource) {
    throw new InvalidTargetError('resource does not match the authorization request');
  }
  const spent = await spendAuthCode(app.db, row.codeHash, app.clock.now());
  if (!spent) {
    if (row.grantId) await endSignIn(app, row.grantId);
    throw new InvalidGrantError('Invalid, expired or already used authorization code');
  }
  return issueTokens(
    app,
    { clientId, userId: spent.userId, scopes: spent.scopes, resource: spent.resource! },
    spent.grantId ?? newId('fam'),
  );
}

async function exchangeRefreshToken(
  app: AppContext,
  clientId: string,
  refreshToken: string,
  scopes: string[] | undefined,
  resource: URL | undefined,
): Promise<OAuthTokens> {
  const row = await findRefreshToken(app.db, digest(refreshToken));
  if (!row || row.clientId !== clientId) throw new InvalidGrantError('Invalid refresh token');
  if (row.revokedAt) throw new InvalidGrantError('Refresh token has been revoked');
  if (row.usedAt) {
    // A spent token presented again means it leaked (or the client lost a race): end the whole family.
    await endSignIn(app, row.familyId);
    throw new InvalidGrantError('Refresh token was already used; the session has been revoked');
  }
  if (row.expiresAt <= app.clock.now()) throw new InvalidGrantError('Refresh token has expired');
  if (scopes?.some((s) => !row.scopes.includes(s))) {
    throw new InvalidScopeError('A refresh may not widen the granted scope');
  }
  if (resource && resource.href.replace(/\/$/, '') !== row.resource) {
    throw new InvalidTargetError('resource does not match the original grant');
  }
  const spent = await spendRefreshToken(app.db, row.tokenHash, app.clock.now());
  if (!spent) {
    await endSignIn(app, row.familyId);
    throw new InvalidGrantError('Refresh token was already used; the session has been revoked');
  }
  if (!(await app.guard.callerOf('user', row.userId))) throw new InvalidGrantError('The account no longer exists');
  return issueTokens(
    app,
    { clientId: row.clientId, userId: row.userId, scopes: row.scopes, resource: row.resource! },
    row.familyId,
  );
}

async function verifyAccessToken(app: AppContext, resources: OAuthResources, token: string): Promise<AuthInfo> {
  // MCP accepts people's tokens minted for the MCP resource and client-key tokens from /v1/oauth/token,
  // as long as their sign-in has not been revoked.
  const user = await app.guard.verify(token, resources.mcp);
  const key = user ? undefined : await app.guard.verify(token, resources.api);
  const claims = user?.typ === 'user' ? user : key?.typ === 'client' ? key : undefined;
  if (!claims) throw new InvalidTokenError('Invalid or expired token');
  return {
    token,
    clientId: claims.typ === 'client' ? claims.sub : '',
    scopes: [SITEFILE_SCOPE],
    expiresAt: claims.exp,
    resource: new URL(resources.mcp),
    extra: { kind: claims.typ, subject: claims.sub },
  };
}

async function revokeToken(app: AppContext, resources: OAuthResources, clientId: string, token: string) {
  // Revoking either kind of token ends the whole sign-in (RFC 7009 §2.1 allows it for access tokens).
  // Tokens of other clients, unknown or expired tokens: nothing to do, and the answer is the same 200.
  const row = await findRefreshToken(app.db, digest(token));
  if (row) {
    if (row.clientId === clientId) await endSignIn(app, row.familyId);
    return;
  }
  const claims = app.tokens.verify(token, resources.mcp) ?? app.tokens.verify(token, resources.api);
  if (claims?.typ !== 'user' || !claims.gid) return;
  if ((await familyClientId(app.db, claims.gid)) === clientId) await endSignIn(app, claims.gid);
}
