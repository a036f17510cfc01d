import { and, eq, gt, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { isPermission, memberPermissions, type Permission } from '../../shared/permissions.js';
import type { Db, Tx } from '../db/connection.js';
import {
  apiKeyOrgScopes,
  apiKeyProjectScopes,
  apiKeys,
  authFailures,
  authKnownSources,
  organizationMembers,
  projects,
  revokedGrants,
  users,
} from '../db/schema.js';
import type { Caller } from './caller.js';

/** Who a caller is; the key its rate limits and idempotency keys hang on is always `kind:subject`. */
const identity = (kind: Caller['kind'], id: string, subject: string, who: { email: string; name: string }) => ({
  kind,
  id,
  subject,
  callerKey: `${kind}:${subject}`,
  email: who.email,
  name: who.name,
});

/** The caller behind a client key, or undefined when the key is unknown, deleted or disabled. */
export async function loadClientCaller(db: Db, clientId: string): Promise<Caller | undefined> {
  const [client] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.clientId, clientId), isNull(apiKeys.deletedAt)));
  if (!client?.enabled) return undefined;
  const [orgScopes, projectScopes] = await Promise.all([
    db.select().from(apiKeyOrgScopes).where(eq(apiKeyOrgScopes.clientRowId, client.id)),
    db.select().from(apiKeyProjectScopes).where(eq(apiKeyProjectScopes.clientRowId, client.id)),
  ]);
  const projects = new Map<string, Set<string>>();
  for (const scope of projectScopes) {
    const set = projects.get(scope.organizationId) ?? new Set<string>();
    set.add(scope.projectId);
    projects.set(scope.organizationId, set);
  }
  return {
    ...identity('client', client.id, client.clientId, { email: client.createdBy, name: client.name }),
    staff: false,
    superadmin: client.superadmin,
    permissions: new Set(client.permissions.filter(isPermission)),
    scope: { allOrgs: client.superadmin, orgs: new Set(orgScopes.map((s) => s.organizationId)), projects },
    roles: new Map(),
  };
}

/** The caller behind a user (undefined when unknown or disabled): scope = organization memberships; members read, admins also manage settings. */
export async function loadUserCaller(db: Db, userId: string): Promise<Caller | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user || user.disabledAt) return undefined;
  const memberships = await db.select().from(organizationMembers).where(eq(organizationMembers.userId, userId));
  const permissions = new Set<Permission>(memberships.length > 0 || user.staff ? memberPermissions : []);
  return {
    ...identity('user', user.id, user.id, user),
    staff: user.staff,
    superadmin: false,
    permissions,
    scope: { allOrgs: false, orgs: new Set(memberships.map((m) => m.organizationId)), projects: new Map() },
    roles: new Map(memberships.map((m) => [m.organizationId, m.role])),
  };
}

/**
 * SQL: whether the principal `principalId` (a key's row id or a person's id) may, as of now, read what belongs to
 * `organizationId` — or, given `projectId`, to that project of it: an enabled key scoped to the organization, to
 * that project, or superadmin; a person not disabled who is staff or a member of the organization. (The same
 * reach as `loadClientCaller`/`loadUserCaller` give `canAccessWholeOrg`/`canAccessProject`, in one query.)
 */
export const principalMayRead = (principalId: SQL, organizationId: string, projectId: string | undefined): SQL => {
  const ofProject = projectId
    ? sql`or exists (select 1 from ${apiKeyProjectScopes} p where p.client_row_id = k.id and p.project_id = ${projectId})`
    : sql``;
  return sql`(exists (
      select 1 from ${apiKeys} k where k.id = ${principalId} and k.enabled and k.deleted_at is null and (
        k.superadmin
        or exists (select 1 from ${apiKeyOrgScopes} o where o.client_row_id = k.id and o.organization_id = ${organizationId})
        ${ofProject}))
    or exists (
      select 1 from ${users} u where u.id = ${principalId} and u.disabled_at is null and (
        u.staff
        or exists (select 1 from ${organizationMembers} m where m.user_id = u.id and m.organization_id = ${organizationId}))))`;
};

/** Revoked grants some of whose access tokens have not expired yet. */
export async function liveRevokedGrantIds(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .select({ grantId: revokedGrants.grantId })
    .from(revokedGrants)
    .where(gt(revokedGrants.expiresAt, now));
  return rows.map((r) => r.grantId);
}

export async function insertRevokedGrant(db: Db, row: typeof revokedGrants.$inferInsert): Promise<void> {
  await db.insert(revokedGrants).values(row).onConflictDoNothing();
}

/** The organization that owns a project, or undefined when there is no such project. */
export async function findProjectOwner(db: Db | Tx, projectId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ organizationId: projects.organizationId })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row?.organizationId;
}

export type FailureCount = typeof authFailures.$inferSelect;

export async function failureCounts(db: Db, keys: string[]): Promise<Map<string, FailureCount>> {
  const rows = await db.select().from(authFailures).where(inArray(authFailures.key, keys));
  return new Map(rows.map((row) => [row.key, row]));
}

/**
 * One more failure for each key, in one statement (instances counting the same key at once add up); a count whose
 * last failure is before `forgetBefore` starts again at 1. Keys are locked in sorted order, so two of these never
 * deadlock.
 */
export async function addFailures(db: Db, keys: string[], at: Date, forgetBefore: Date): Promise<void> {
  await db
    .insert(authFailures)
    .values([...keys].sort().map((key) => ({ key, failures: 1, lastFailureAt: at })))
    .onConflictDoUpdate({
      target: authFailures.key,
      set: {
        failures: sql`CASE WHEN ${authFailures.lastFailureAt} < ${forgetBefore.toISOString()}::timestamptz THEN 1
                      ELSE ${authFailures.failures} + 1 END`,
        lastFailureAt: sql`excluded.last_failure_at`,
      },
    });
}

/**
 * Counts one more failure for `key` when its wait is over, in one statement, so that attempts racing on any
 * instance cannot all pass one check: true when this attempt may go ahead. A count whose last failure is before
 * `forgetBefore` starts again at 1. The wait after `free` failures doubles from 1 s up to `maxDelaySeconds`.
 */
export async function claimAttempt(
  db: Db,
  key: string,
  at: Date,
  forgetBefore: Date,
  rule: { free: number; maxDelaySeconds: number },
): Promise<boolean> {
  const forgotten = sql`${authFailures.lastFailureAt} < ${forgetBefore.toISOString()}::timestamptz`;
  const waitEnds = sql`${authFailures.lastFailureAt} + least(${rule.maxDelaySeconds}::float8,
    power(2, ${authFailures.failures} - ${rule.free}::int)) * interval '1 second'`;
  const claimed = await db
    .insert(authFailures)
    .values({ key, failures: 1, lastFailureAt: at })
    .onConflictDoUpdate({
      target: authFailures.key,
      set: {
        failures: sql`CASE WHEN ${forgotten} THEN 1 ELSE ${authFailures.failures} + 1 END`,
        lastFailureAt: sql`excluded.last_failure_at`,
      },
      setWhere: sql`${authFailures.failures} < ${rule.free}::int OR ${forgotten}
        OR ${waitEnds} <= excluded.last_failure_at`,
    })
    .returning({ key: authFailures.key });
  return claimed.length > 0;
}

export async function deleteFailures(db: Db, key: string): Promise<void> {
  await db.delete(authFailures).where(eq(authFailures.key, key));
}

export async function isKnownSource(db: Db, key: string): Promise<boolean> {
  const [row] = await db
    .select({ key: authKnownSources.key })
    .from(authKnownSources)
    .where(eq(authKnownSources.key, key));
  return row !== undefined;
}

export async function rememberSource(db: Db, key: string, at: Date): Promise<void> {
  await db
    .insert(authKnownSources)
    .values({ key, lastSuccessAt: at })
    .onConflictDoUpdate({ target: authKnownSources.key, set: { lastSuccessAt: at } });
}

/** Removes up to `limit` counts quiet since `failuresBefore` and known addresses unused since `knownBefore`. */
export async function purgeThrottleRows(db: Db, failuresBefore: Date, knownBefore: Date, limit: number): Promise<void> {
  const staleFailures = db
    .select({ key: authFailures.key })
    .from(authFailures)
    .where(lt(authFailures.lastFailureAt, failuresBefore))
    .limit(limit);
  await db.delete(authFailures).where(inArray(authFailures.key, staleFailures));
  const staleSources = db
    .select({ key: authKnownSources.key })
    .from(authKnownSources)
    .where(lt(authKnownSources.lastSuccessAt, knownBefore))
    .limit(limit);
  await db.delete(authKnownSources).where(inArray(authKnownSources.key, staleSources));
}
