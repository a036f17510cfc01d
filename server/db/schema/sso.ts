// OpenID Connect single sign-on: each organization's identity provider, and the sign-ins under way through one.
import { sql } from 'drizzle-orm';
import { boolean, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, orgId, ts, updatedAt } from './columns.js';
import { organizations } from './organizations.js';

export const ssoConnections = pgTable('sso_connections', {
  organizationId: orgId()
    .primaryKey()
    .references(() => organizations.id),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  /** The client secret sealed with AES-256-GCM under a key derived from the token signing key: never answered. */
  clientSecretSealed: text('client_secret_sealed').notNull(),
  /** Passwords are refused for the organization's people of these domains. */
  requireSso: boolean('require_sso').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * An e-mail domain on an organization's connection. Pending until its ownership is proven (a DNS TXT record with
 * the token, or staff approving it from the command line); only a verified domain signs people in or turns their
 * passwords off. Several organizations may have one pending, one at most holds it verified.
 */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    organizationId: orgId().references(() => ssoConnections.organizationId, { onDelete: 'cascade' }),
    /** Lower case. */
    domain: text('domain').notNull(),
    /** Random, published by the admin as `_sitefile-challenge.<domain>` TXT `sitefile-verification=<token>`. */
    token: text('token').notNull(),
    verifiedAt: ts('verified_at'),
    /** `dns` (the TXT record was found) or `operator` (staff approved it with `verify-domain`). */
    verifiedBy: text('verified_by', { enum: ['dns', 'operator'] }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.domain] }),
    uniqueIndex('sso_domains_verified_domain_idx').on(t.domain).where(sql`verified_at IS NOT NULL`),
  ],
);

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
