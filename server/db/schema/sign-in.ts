// People sign-in: the OAuth 2.1 authorization server for users and MCP clients.
import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
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
