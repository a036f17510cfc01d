// People sign-in: the OAuth 2.1 authorization server for users and MCP clients.
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns.js';

/** Dynamically registered (RFC 7591) or first-party public clients such as the add-in. */
export const oauthApps = pgTable('oauth_apps', {
  clientId: text('client_id').primaryKey(),
  clientSecretHash: text('client_secret_hash'),
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});

export const oauthAuthCodes = pgTable('oauth_auth_codes', {
  codeHash: text('code_hash').primaryKey(),
  clientId: text('client_id').notNull(),
  userId: text('user_id').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  codeChallenge: text('code_challenge').notNull(),
  scopes: text('scopes').array().notNull(),
  resource: text('resource'),
  /** The sign-in (refresh-token family) this code starts: revoked when the code is presented twice. */
  grantId: text('grant_id'),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

/** Sign-ins (grants) ended before their access tokens expire: every access token names its grant, and
 *  a token whose grant is listed here is refused. Rows are kept until no token of the grant can be alive. */
export const revokedGrants = pgTable(
  'revoked_grants',
  {
    grantId: text('grant_id').primaryKey(),
    revokedAt: ts('revoked_at').notNull(),
    /** When the last access token of the grant expires: the row is not needed after that. */
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('revoked_grants_expires_idx').on(t.expiresAt)],
);

export const oauthRefreshTokens = pgTable(
  'oauth_refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    familyId: text('family_id').notNull(),
    clientId: text('client_id').notNull(),
    userId: text('user_id').notNull(),
    scopes: text('scopes').array().notNull(),
    resource: text('resource'),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('oauth_refresh_tokens_family_idx').on(t.familyId)],
);

/**
 * Wrong passwords and key secrets (auth/failure-throttle.ts), in the database every instance shares so that a wait
 * holds across instances and restarts. `key` is a digest of what is counted (an account and an address, an
 * account, an address), so no address or e-mail is stored in clear. A row is forgotten after a quiet period.
 */
export const authFailures = pgTable(
  'auth_failures',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    lastFailureAt: ts('last_failure_at').notNull(),
  },
  (t) => [index('auth_failures_last_failure_idx').on(t.lastFailureAt)],
);

/** Addresses that signed in to an account before (digests of the pair): the account's ceiling does not hold them. */
export const authKnownSources = pgTable(
  'auth_known_sources',
  {
    key: text('key').primaryKey(),
    lastSuccessAt: ts('last_success_at').notNull(),
  },
  (t) => [index('auth_known_sources_last_success_idx').on(t.lastSuccessAt)],
);
