import { and, arrayContains, eq, gt, lt } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import { ssoConnections, ssoLogins } from '../db/schema.js';

export type SsoConnectionRow = typeof ssoConnections.$inferSelect;
export type SsoLoginRow = typeof ssoLogins.$inferSelect;

export async function findSsoConnection(db: Db | Tx, orgId: string): Promise<SsoConnectionRow | undefined> {
  const [row] = await db.select().from(ssoConnections).where(eq(ssoConnections.organizationId, orgId));
  return row;
}

/** The connection that claims an e-mail domain (a domain belongs to one organization at most). */
export async function findSsoConnectionByDomain(db: Db | Tx, domain: string): Promise<SsoConnectionRow | undefined> {
  const [row] = await db
    .select()
    .from(ssoConnections)
    .where(arrayContains(ssoConnections.domains, [domain]))
    .limit(1);
  return row;
}

/** Another organization's connection claiming one of `domains`, if any. */
export async function domainClaimedElsewhere(db: Db | Tx, orgId: string, domains: string[]) {
  for (const domain of domains) {
    const row = await findSsoConnectionByDomain(db, domain);
    if (row && row.organizationId !== orgId) return domain;
  }
  return undefined;
}

export async function upsertSsoConnection(tx: Tx, row: Omit<SsoConnectionRow, 'createdAt' | 'updatedAt'>, now: Date) {
  const [saved] = await tx
    .insert(ssoConnections)
    .values({ ...row, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: ssoConnections.organizationId, set: { ...row, updatedAt: now } })
    .returning();
  return saved!;
}

/** Every organization's connection, for re-sealing their secrets (one per organization: few rows). */
export async function allSsoConnections(db: Db | Tx): Promise<SsoConnectionRow[]> {
  return db.select().from(ssoConnections).for('update');
}

export async function setSealedSecret(tx: Tx, orgId: string, clientSecretSealed: string): Promise<void> {
  await tx.update(ssoConnections).set({ clientSecretSealed }).where(eq(ssoConnections.organizationId, orgId));
}

export async function deleteSsoConnection(tx: Tx, orgId: string): Promise<SsoConnectionRow | undefined> {
  const [row] = await tx.delete(ssoConnections).where(eq(ssoConnections.organizationId, orgId)).returning();
  return row;
}

/** Records a sign-in sent to the provider; the expired ones (people who never came back) go at the same time. */
export async function insertSsoLogin(db: Db, row: SsoLoginRow, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(ssoLogins).where(lt(ssoLogins.expiresAt, now));
    await tx.insert(ssoLogins).values(row);
  });
}

/** The sign-in under way with this state, taken (deleted) so that it completes once; undefined when expired. */
export async function takeSsoLogin(db: Db, stateDigest: string, now: Date): Promise<SsoLoginRow | undefined> {
  const [row] = await db
    .delete(ssoLogins)
    .where(and(eq(ssoLogins.stateDigest, stateDigest), gt(ssoLogins.expiresAt, now)))
    .returning();
  return row;
}
