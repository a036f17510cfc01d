import { and, asc, eq, getTableColumns, gt, inArray, isNotNull, isNull, lt, ne, notInArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import { ssoConnections, ssoDomains, ssoLogins } from '../db/schema.js';

export type SsoConnectionRow = typeof ssoConnections.$inferSelect;
export type SsoDomainRow = typeof ssoDomains.$inferSelect;
export type SsoLoginRow = typeof ssoLogins.$inferSelect;

export async function findSsoConnection(db: Db | Tx, orgId: string): Promise<SsoConnectionRow | undefined> {
  const [row] = await db.select().from(ssoConnections).where(eq(ssoConnections.organizationId, orgId));
  return row;
}

/** The organization's domains, verified or pending, in the order they were added. */
export async function findSsoDomains(db: Db | Tx, orgId: string): Promise<SsoDomainRow[]> {
  return db
    .select()
    .from(ssoDomains)
    .where(eq(ssoDomains.organizationId, orgId))
    .orderBy(asc(ssoDomains.createdAt), asc(ssoDomains.domain));
}

export async function findSsoDomain(db: Db | Tx, orgId: string, domain: string): Promise<SsoDomainRow | undefined> {
  const [row] = await db
    .select()
    .from(ssoDomains)
    .where(and(eq(ssoDomains.organizationId, orgId), eq(ssoDomains.domain, domain)));
  return row;
}

/** The connection of the organization that VERIFIED an e-mail domain (one at most; a pending claim counts for
 *  nothing). */
export async function findSsoConnectionByVerifiedDomain(
  db: Db | Tx,
  domain: string,
): Promise<SsoConnectionRow | undefined> {
  const [row] = await db
    .select(getTableColumns(ssoConnections))
    .from(ssoConnections)
    .innerJoin(ssoDomains, eq(ssoDomains.organizationId, ssoConnections.organizationId))
    .where(and(eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt)));
  return row;
}

/** One of `domains` that another organization has verified, if any. */
export async function domainVerifiedElsewhere(db: Db | Tx, orgId: string, domains: string[]) {
  if (domains.length === 0) return undefined;
  const [row] = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(
      and(inArray(ssoDomains.domain, domains), isNotNull(ssoDomains.verifiedAt), ne(ssoDomains.organizationId, orgId)),
    )
    .limit(1);
  return row?.domain;
}

/** The organization's domains become `domains`: new ones are added pending with their token, those left out go,
 *  the others keep their state. */
export async function replaceSsoDomains(
  tx: Tx,
  orgId: string,
  domains: { domain: string; token: string }[],
  now: Date,
): Promise<void> {
  const names = domains.map((d) => d.domain);
  await tx
    .delete(ssoDomains)
    .where(and(eq(ssoDomains.organizationId, orgId), names.length ? notInArray(ssoDomains.domain, names) : undefined));
  if (domains.length === 0) return;
  await tx
    .insert(ssoDomains)
    .values(domains.map((d) => ({ organizationId: orgId, ...d, createdAt: now })))
    .onConflictDoNothing();
}

/** Marks the domain verified; undefined when the organization has no such domain. */
export async function markSsoDomainVerified(
  tx: Tx,
  orgId: string,
  domain: string,
  how: 'dns' | 'operator',
  now: Date,
): Promise<SsoDomainRow | undefined> {
  const [row] = await tx
    .update(ssoDomains)
    .set({ verifiedAt: now, verifiedBy: how })
    .where(and(eq(ssoDomains.organizationId, orgId), eq(ssoDomains.domain, domain)))
    .returning();
  return row;
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

/** Whether some organization has `domain` on its connection, not yet verified. */
export async function ssoDomainPending(db: Db | Tx, domain: string): Promise<boolean> {
  const [row] = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.domain, domain), isNull(ssoDomains.verifiedAt)))
    .limit(1);
  return row !== undefined;
}
