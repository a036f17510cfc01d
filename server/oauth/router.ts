import { timingSafeEqual } from 'node:crypto';
import type { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import express, { type RequestHandler, type Router } from 'express';
import { basicCredentials } from '../api-keys/token-request.js';
import { digest } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import { formBody } from '../http/route.js';
import { SSO_CALLBACK_PATH } from '../sso/service.js';
import { checkAuthorizationRequest } from './authorize-checks.js';
import { oneSentenceErrors } from './error-description.js';
import { registerFirstPartyApps } from './first-party.js';
import {
  checkRedirectUris,
  createOAuthProvider,
  type OAuthResources,
  oauthResources,
  SITEFILE_SCOPE,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from './provider.js';
import { findApp } from './queries.js';
import { AUTHORIZE_PATH, createSignInFlow, ssoCallback } from './sign-in.js';

const TOKEN_PATH = '/oauth/token';
const REGISTER_PATH = '/oauth/register';
const REVOKE_PATH = '/oauth/revoke';

export interface OAuthServer {
  router: Router;
  provider: OAuthServerProvider;
  /** `{publicUrl}/.well-known/oauth-protected-resource/mcp`, for the 401's WWW-Authenticate. */
  mcpResourceMetadataUrl: string;
}

/**
 * The OAuth 2.1 authorization server for people (RFC 8414 metadata, RFC 9728 resource metadata for
 * /mcp, RFC 7591 registration, authorization code + PKCE S256, refresh rotation, RFC 7009
 * revocation), assembled from the MCP SDK's handlers around our provider. The handlers are mounted
 * one by one rather than through `mcpAuthRouter` so that our endpoints live under /oauth and the
 * issuer is the configured public URL (the SDK's router refuses non-https issuers other than localhost).
 */
export function createOAuthServer(app: AppContext): OAuthServer {
  const provider = createOAuthProvider(app, createSignInFlow(app));
  const resources = oauthResources(app);
  const router = express.Router();
  // Its pages post forms, and token and revocation requests are forms (RFC 6749): parsed for /oauth alone.
  router.use('/oauth', formBody);
  router.use(['/oauth', '/.well-known'], firstPartyAppsRegistered(app));
  router.use('/oauth', oneSentenceErrors);
  router.get(SSO_CALLBACK_PATH, ssoCallback(app));
  router.use(AUTHORIZE_PATH, checkAuthorizationRequest(provider.clientsStore), authorizationHandler({ provider }));
  const verifyClient = verifyClientSecret(app);
  router.use(TOKEN_PATH, verifyClient, tokenHandler({ provider }));
  router.use(REVOKE_PATH, verifyClient, revocationHandler({ provider }));
  // Registered clients' secrets do not expire: their refresh tokens live 90 days.
  router.use(
    REGISTER_PATH,
    express.json(),
    checkRegisteredRedirects,
    clientRegistrationHandler({ clientsStore: provider.clientsStore, clientSecretExpirySeconds: 0 }),
  );
  router.use('/.well-known/oauth-authorization-server', metadataHandler(serverMetadata(app.config.publicUrl)));
  // Only /mcp is a protected resource with OAuth metadata; the origin itself is not (no root document).
  router.use(
    '/.well-known/oauth-protected-resource/mcp',
    metadataHandler(mcpResourceMetadata(app.config.publicUrl, resources)),
  );

  return {
    router,
    provider,
    mcpResourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(resources.mcp)),
  };
}

/** RFC 8414 authorization server metadata. */
const serverMetadata = (base: string): OAuthMetadata => ({
  issuer: base,
  authorization_endpoint: `${base}${AUTHORIZE_PATH}`,
  token_endpoint: `${base}${TOKEN_PATH}`,
  registration_endpoint: `${base}${REGISTER_PATH}`,
  revocation_endpoint: `${base}${REVOKE_PATH}`,
  response_types_supported: ['code'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
  revocation_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
  scopes_supported: [SITEFILE_SCOPE],
});

/** RFC 9728 metadata of the one protected resource, /mcp. */
const mcpResourceMetadata = (base: string, resources: OAuthResources): OAuthProtectedResourceMetadata => ({
  resource: resources.mcp,
  authorization_servers: [base],
  scopes_supported: [SITEFILE_SCOPE],
  bearer_methods_supported: ['header'],
  resource_name: 'Sitefile MCP',
});

/**
 * First-party apps are registered before the first OAuth request is answered — on that request, not at
 * construction: the server listens before migrations have run (start-up waits for the database), and OAuth
 * requests reach here only once it is ready. A failed registration is tried again by the next request.
 */
function firstPartyAppsRegistered(app: AppContext): RequestHandler {
  let registered: Promise<void> | undefined;
  return (_req, _res, next) => {
    registered ??= registerFirstPartyApps(app).catch((err) => {
      registered = undefined;
      throw err;
    });
    registered.then(() => next(), next);
  };
}

/**
 * Confidential clients' secrets are stored as digests; check them here so the SDK's handlers
 * (which compare plain secrets) only ever see clients already authenticated. The credentials come in
 * the body (client_secret_post) or as HTTP Basic (client_secret_basic); the SDK reads the body only,
 * so Basic credentials are moved there once checked.
 */
function verifyClientSecret(app: AppContext): RequestHandler {
  return async (req, res, next) => {
    const refuse = (status: number, error: string, description: string) => {
      res.setHeader('Cache-Control', 'no-store');
      res.status(status).json({ error, error_description: description });
    };
    const body = (req.body ?? {}) as Record<string, unknown>;
    const basic = basicCredentials(req.headers.authorization);
    if (basic === 'malformed') return refuse(400, 'invalid_request', 'The Basic authorization header is malformed.');
    if (basic && body.client_secret !== undefined) {
      return refuse(400, 'invalid_request', 'Use one client authentication method, not both.');
    }
    const clientId = basic?.id ?? body.client_id;
    const secret = basic?.secret ?? body.client_secret;
    const row = typeof clientId === 'string' ? await findApp(app.db, clientId) : undefined;
    if (row?.clientSecretHash) {
      const given = Buffer.from(typeof secret === 'string' ? digest(secret) : '');
      const stored = Buffer.from(row.clientSecretHash);
      if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
        if (basic) res.setHeader('WWW-Authenticate', 'Basic realm="sitefile"');
        return refuse(401, 'invalid_client', 'Invalid client credentials.');
      }
    }
    if (basic) req.body = { ...body, client_id: basic.id };
    next();
  };
}

// Redirect URIs are checked before the SDK's schema, so a bad one is invalid_redirect_uri (RFC 7591).
const checkRegisteredRedirects: RequestHandler = (req, res, next) => {
  const uris = (req.body as Record<string, unknown> | undefined)?.redirect_uris;
  try {
    if (Array.isArray(uris) && uris.every((u) => typeof u === 'string')) checkRedirectUris(uris);
    next();
  } catch (err) {
    res.status(400).json((err as OAuthError).toResponseObject());
  }
};
