// OpenID Connect single sign-on: each organization's identity provider, and the sign-ins under way through one.
import { boolean, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, emptyTextArray, orgId, ts, updatedAt } from './columns.js';
import { organizations } from './organizations.js';

export const ssoConnections = pgTable('sso_connections', {
  organizationId: orgId()
    .primaryKey()
    .references(() => organizations.id),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  /** The client secret sealed with AES-256-GCM under a key derived from the token signing key: never answered. */
  clientSecretSealed: text('client_secret_sealed').notNull(),
  /** Lower-case e-mail domains the organization has verified: their people sign in through this provider. */
  domains: text('domains').array().notNull().default(emptyTextArray()),
  /** Passwords are refused for the organization's people of these domains. */
  requireSso: boolean('require_sso').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A sign-in sent to the provider and not yet back: what the callback needs, found by its state, used once. */
export const ssoLogins = pgTable('sso_logins', {
  /** SHA-256 of the `state` sent to the provider. */
  stateDigest: text('state_digest').primaryKey(),
  organizationId: orgId().references(() => organizations.id),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  /** Our own authorization request (client, redirect URI, PKCE challenge, scopes, resource, state) to resume. */
  authorization: jsonb('authorization').notNull(),
  expiresAt: ts('expires_at').notNull(),
});
