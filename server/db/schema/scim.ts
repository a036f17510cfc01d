// SCIM provisioning: the one bearer token per organization its identity provider calls /scim/v2 with.
import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, orgId, refersTo, ts } from './columns.js';
import { organizations, users } from './organizations.js';

export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: text('id').primaryKey(),
    organizationId: orgId().references(() => organizations.id),
    /** SHA-256 of the token (a 256-bit random string, like refresh tokens: argon2 is for guessable secrets, and
     *  every provisioning request looks the token up). The token itself is shown once, when made. */
    tokenDigest: text('token_digest').notNull(),
    createdByUserId: refersTo('created_by_user_id', () => users.id),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    // One token per organization: rotating replaces it.
    uniqueIndex('scim_tokens_org_idx').on(t.organizationId),
    uniqueIndex('scim_tokens_digest_idx').on(t.tokenDigest),
  ],
);
