import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import {
  oauthApps,
  oauthAuthCodes,
  oauthRefreshTokens,
  organizationMembers,
  organizations,
  revokedGrants,
} from '../db/schema.js';

type Handle = Db | Tx;

export type OAuthAppRow = typeof oauthApps.$inferSelect;
export type AuthCodeRow = typeof oauthAuthCodes.$inferSelect;
export type RefreshTokenRow = typeof oauthRefreshTokens.$inferSelect;

export async function findApp(db: Handle, clientId: string): Promise<OAuthAppRow | undefined> {
  const [row] = await db.select().from(oauthApps).where(eq(oauthApps.clientId, clientId));
  return row;
}

export async function insertApp(db: Handle, row: typeof oauthApps.$inferInsert): Promise<void> {
  await db.insert(oauthApps).values(row);
}

/** First-party apps are (re)registered at start-up: keep the row's metadata current. */
export async function upsertApp(db: Handle, row: typeof oauthApps.$inferInsert): Promise<void> {
  await db
    .insert(oauthApps)
    .values(row)
    .onConflictDoUpdate({ target: oauthApps.clientId, set: { metadata: row.metadata } });
}

export async function insertAuthCode(db: Handle, row: typeof oauthAuthCodes.$inferInsert): Promise<void> {
  await db.insert(oauthAuthCodes).values(row);
}

export async function findAuthCode(db: Handle, codeHash: string): Promise<AuthCodeRow | undefined> {
  const [row] = await db.select().from(oauthAuthCodes).where(eq(oauthAuthCodes.codeHash, codeHash));
  return row;
}

/** Marks a code used exactly once; undefined when it was already spent (or never existed). */
export async function spendAuthCode(db: Handle, codeHash: string, now: Date): Promise<AuthCodeRow | undefined> {
  const [row] = await db
    .update(oauthAuthCodes)
    .set({ usedAt: now })
    .where(and(eq(oauthAuthCodes.codeHash, codeHash), isNull(oauthAuthCodes.usedAt)))
    .returning();
  return row;
}

export async function insertRefreshToken(db: Handle, row: typeof oauthRefreshTokens.$inferInsert): Promise<void> {
  await db.insert(oauthRefreshTokens).values(row);
}

export async function findRefreshToken(db: Handle, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  const [row] = await db.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.tokenHash, tokenHash));
  return row;
}

/** Marks a live refresh token used exactly once; undefined when it was spent or revoked meanwhile. */
export async function spendRefreshToken(
  db: Handle,
  tokenHash: string,
  now: Date,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await db
    .update(oauthRefreshTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oauthRefreshTokens.tokenHash, tokenHash),
        isNull(oauthRefreshTokens.usedAt),
        isNull(oauthRefreshTokens.revokedAt),
      ),
    )
    .returning();
  return row;
}

/** The client a refresh-token family (sign-in) was issued to. */
export async function familyClientId(db: Handle, familyId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ clientId: oauthRefreshTokens.clientId })
    .from(oauthRefreshTokens)
    .where(eq(oauthRefreshTokens.familyId, familyId))
    .limit(1);
  return row?.clientId;
}

export async function revokeFamily(db: Handle, familyId: string, now: Date): Promise<void> {
  await db
    .update(oauthRefreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(oauthRefreshTokens.familyId, familyId), isNull(oauthRefreshTokens.revokedAt)));
}

/** Names of the organizations a user belongs to (shown on the consent screen). */
export async function userOrganizationNames(db: Handle, userId: string): Promise<string[]> {
  const rows = await db
    .select({ name: organizations.name })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(eq(organizationMembers.userId, userId))
    .orderBy(organizations.name)
    .limit(50);
  return rows.map((r) => r.name);
}

/**
 * Marks a consent ticket used; false when it already was. The ticket is recorded as an ended grant (kept until
 * the ticket would have expired), so the mark holds across instances and restarts.
 */
export async function markTicketUsed(db: Db, ticketId: string, now: Date, expiresAt: Date): Promise<boolean> {
  const inserted = await db
    .insert(revokedGrants)
    .values({ grantId: `consent:${ticketId}`, revokedAt: now, expiresAt })
    .onConflictDoNothing()
    .returning({ grantId: revokedGrants.grantId });
  return inserted.length > 0;
}
