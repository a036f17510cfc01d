import type { CreateClientBody, CreatedOAuthClient, OAuthClient, UsageSummary } from '../../shared/api-keys.js';
import { isPermission, type Permission } from '../../shared/permissions.js';
import { type AuditActor, recordAudit, recordChanges } from '../audit/queries.js';
import { type Caller, canAccessProject } from '../auth/caller.js';
import { createFailureThrottle } from '../auth/failure-throttle.js';
import { hashSecret, newClientSecret, verifySecret } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import type { AppContext } from '../context.js';
import { createdAtPage } from '../cursor.js';
import type { Db, Tx } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { newId, newUuid } from '../ids.js';
import {
  type ClientResource,
  type ClientRow,
  existingScopeTargets,
  findClientByClientId,
  findClientRow,
  findOrgClientRow,
  insertClient,
  listClientRows,
  replaceClientScopes,
  softDeleteClientRow,
  toClientResources,
  updateClientRow,
  usageRows,
} from './queries.js';

export interface NewClient {
  name: string;
  description?: string;
  permissions: string[];
  orgIds: string[];
  projects: { orgId: string; projectId: string }[];
  superadmin?: boolean;
  enabled?: boolean;
  createdBy: string;
  createdByClientId?: string;
  createdByUserId?: string;
  /** Only for the CLI's reproducible demo key; otherwise a random secret is made. */
  secret?: string;
}

/** What the audit log keeps of a key: the fields a change may touch, never its secret. */
const auditedKey = (key: ClientResource) => ({
  name: key.name,
  description: key.description,
  enabled: key.enabled,
  superadmin: key.superadmin,
  permissions: Object.keys(key.permissions).filter((p) => key.permissions[p as Permission]),
  scopes: [...key.scopes.orgs.map((o) => o.orgId), ...key.scopes.projects.map((p) => `${p.orgId}/${p.projectId}`)],
});

/** Records a change to a key, in the organization it is confined to (none for a key of many, or superadmin). */
async function auditKey(
  tx: Db | Tx,
  actor: AuditActor,
  action: string,
  key: { id: string; before?: ClientResource; after?: ClientResource },
  at: Date,
): Promise<void> {
  const orgIds = (key.after ?? key.before)?.orgIds ?? [];
  await recordAudit(tx, actor, {
    organizationId: orgIds.length === 1 && !(key.after ?? key.before)?.superadmin ? orgIds[0]! : null,
    action,
    target: { type: 'key', id: key.id },
    changes: recordChanges(key.before, key.after, auditedKey),
    at,
  });
}

/** The key as its row now reads in `tx` (scopes included). */
async function keyIn(tx: Db | Tx, id: string): Promise<ClientResource> {
  const [resource] = await toClientResources(tx, [(await findClientRow(tx, id))!]);
  return resource!;
}

/** Creates a key; the returned secret is the only time it is ever visible. Unknown permission keys,
 *  unknown organizations and projects not in the named organization are a 400. Audited when `actor` is given
 *  (not for the demo data's seed). */
export async function createClient(
  db: Db,
  input: NewClient,
  actor?: AuditActor,
): Promise<OAuthClient & { client_secret: string }> {
  const unknown = input.permissions.filter((p) => !isPermission(p));
  if (unknown.length > 0) throw ApiError.badRequest(`Unknown permission keys: ${unknown.join(', ')}`);
  const { orgIds, projects } = await checkScopeTargets(db, input.orgIds, input.projects);
  const secret = input.secret ?? newClientSecret();
  const secretHash = await hashSecret(secret);
  const id = newUuid();
  await db.transaction(async (tx) => {
    await insertClient(
      tx,
      {
        id,
        clientId: newUuid(),
        secretHash,
        name: input.name,
        description: input.description ?? '',
        superadmin: input.superadmin ?? false,
        enabled: input.enabled ?? true,
        permissions: [...new Set(input.permissions as Permission[])].sort(),
        createdBy: input.createdBy,
        createdByClientId: input.createdByClientId,
        createdByUserId: input.createdByUserId,
      },
      { orgs: orgIds, projects },
    );
    if (actor) await auditKey(tx, actor, 'key.created', { id, after: await keyIn(tx, id) }, new Date());
  });
  const row = await findClientRow(db, id);
  const [resource] = await toClientResources(db, [row!]);
  return { ...resource!, usageSummary: noUsage(), client_secret: secret };
}

/** Organizations that exist and projects that exist in the organization named with them; else a 400. */
async function checkScopeTargets(
  db: Db | Tx,
  orgIdList: string[],
  projectList: { orgId: string; projectId: string }[],
): Promise<{ orgIds: string[]; projects: { orgId: string; projectId: string }[] }> {
  const orgIds = [...new Set(orgIdList)];
  const projects = [...new Map(projectList.map((p) => [p.projectId, p])).values()];
  const found = await existingScopeTargets(
    db,
    [...new Set([...orgIds, ...projects.map((p) => p.orgId)])],
    projects.map((p) => p.projectId),
  );
  const missingOrgs = orgIds.filter((id) => !found.orgs.has(id));
  if (missingOrgs.length > 0) throw ApiError.badRequest(`Unknown organizations: ${missingOrgs.join(', ')}`);
  const badProjects = projects.filter((p) => found.projectOrg.get(p.projectId) !== p.orgId);
  if (badProjects.length > 0) {
    throw ApiError.badRequest(
      `Unknown projects for their organization: ${badProjects.map((p) => `${p.orgId}:${p.projectId}`).join(', ')}`,
    );
  }
  return { orgIds, projects };
}

/** The granted keys of a `{key: boolean}` map; any key that is not a permission is a 400. */
export function grantedPermissions(map: Record<string, boolean>): Permission[] {
  const unknown = Object.keys(map).filter((key) => !isPermission(key));
  if (unknown.length > 0) throw ApiError.badRequest(`Unknown permission keys: ${unknown.join(', ')}`);
  return Object.entries(map)
    .filter(([, granted]) => granted)
    .map(([key]) => key as Permission);
}

/**
 * No privilege escalation: a key grants only permissions it holds and scopes inside its own, and never
 * `superadmin` (staff users may grant anything; the route admits no other person). Scope targets outside the key's own scope are answered
 * like unknown IDs (400), so the answer does not tell whether another tenant's organization exists.
 */
function assertCanGrant(
  caller: Caller,
  grant: { permissions: Permission[]; orgIds: string[]; projects: { orgId: string; projectId: string }[] },
  superadmin: boolean,
): void {
  if (caller.staff) return;
  if (superadmin) {
    throw new ApiError('forbidden', 'Insufficient permissions', {
      details: [{ path: 'superadmin', message: 'Only staff create superadmin keys' }],
    });
  }
  const notHeld = grant.permissions.filter((p) => !caller.permissions.has(p));
  if (notHeld.length > 0) {
    throw new ApiError('forbidden', 'Insufficient permissions', {
      details: notHeld.map((p) => ({ path: `permissions.${p}`, message: 'This key does not hold this permission' })),
    });
  }
  const foreignOrgs = grant.orgIds.filter((orgId) => !caller.scope.allOrgs && !caller.scope.orgs.has(orgId));
  if (foreignOrgs.length > 0) {
    throw ApiError.badRequest(`Organizations not found or outside this key's scope: ${foreignOrgs.join(', ')}`);
  }
  const foreignProjects = grant.projects.filter((p) => !canAccessProject(caller.scope, p.orgId, p.projectId));
  if (foreignProjects.length > 0) {
    throw ApiError.badRequest(
      `Projects not found or outside this key's scope: ${foreignProjects.map((p) => `${p.orgId}:${p.projectId}`).join(', ')}`,
    );
  }
}

/** POST /v1/client: a key (with client:create) or a staff user creates a key within the caller's own rights. */
export async function createClientAs(app: AppContext, caller: Caller, body: CreateClientBody, actor: AuditActor) {
  const permissions = grantedPermissions(body.permissions);
  const grant = { permissions, orgIds: body.scopes.orgs, projects: body.scopes.projects };
  assertCanGrant(caller, grant, body.superadmin ?? false);
  return createClient(app.db, newClientOf(caller, body, permissions), actor);
}

const newClientOf = (caller: Caller, body: CreateClientBody, permissions: Permission[]): NewClient => ({
  name: body.name,
  description: body.description,
  permissions,
  orgIds: body.scopes.orgs,
  projects: body.scopes.projects,
  superadmin: body.superadmin,
  enabled: body.enabled,
  createdBy: caller.email,
  createdByClientId: caller.kind === 'client' ? caller.id : undefined,
  createdByUserId: caller.kind === 'user' ? caller.id : undefined,
});

/**
 * Organization admins manage the keys confined to their organization (server/api-keys/queries.ts
 * `confinedToOrg`): every scope they give must lie in it and there must be at least one, so the key stays
 * theirs; superadmin is never theirs to grant. A scope in another organization is a 400, as for keys.
 */
function assertOrgGrant(orgId: string, changes: { superadmin?: boolean; scopes?: ClientChanges['scopes'] }): void {
  if (changes.superadmin) {
    throw new ApiError('forbidden', 'Insufficient permissions', {
      details: [{ path: 'superadmin', message: 'Only staff create superadmin keys' }],
    });
  }
  if (!changes.scopes) return;
  const { orgs, projects } = changes.scopes;
  if (orgs.length + projects.length === 0) {
    throw ApiError.badRequest('Give at least one scope in this organization (the whole organization or a project)');
  }
  const foreign = [
    ...orgs.filter((id) => id !== orgId),
    ...projects.filter((p) => p.orgId !== orgId).map((p) => p.orgId),
  ];
  if (foreign.length > 0) {
    throw ApiError.badRequest(
      `Scopes must lie in organization ${orgId}; outside it: ${[...new Set(foreign)].join(', ')}`,
    );
  }
}

/** POST /v1/organization/{orgId}/clients: an organization admin (or staff) creates a key for that organization. */
export async function createOrgClient(
  app: AppContext,
  caller: Caller,
  orgId: string,
  body: CreateClientBody,
  actor: AuditActor,
) {
  const permissions = grantedPermissions(body.permissions);
  assertOrgGrant(orgId, { superadmin: body.superadmin, scopes: body.scopes });
  return createClient(app.db, newClientOf(caller, body, permissions), actor);
}

/** A key outside the organization, or reaching beyond it, is answered as unknown (404). */
async function assertOrgClient(app: AppContext, orgId: string, id: string): Promise<void> {
  if (!(await findOrgClientRow(app.db, id, orgId))) throw ApiError.notFound('Client');
}

export async function getOrgClient(app: AppContext, orgId: string, id: string): Promise<OAuthClient> {
  await assertOrgClient(app, orgId, id);
  return getClient(app, id);
}

export async function updateOrgClient(
  app: AppContext,
  orgId: string,
  id: string,
  changes: ClientChanges,
  actor: AuditActor,
) {
  await assertOrgClient(app, orgId, id);
  assertOrgGrant(orgId, changes);
  return updateClient(app, id, changes, actor);
}

export async function deleteOrgClient(app: AppContext, orgId: string, id: string, actor: AuditActor): Promise<void> {
  await assertOrgClient(app, orgId, id);
  await deleteClient(app, id, actor);
}

export async function rotateOrgClientSecret(app: AppContext, orgId: string, id: string, actor: AuditActor) {
  await assertOrgClient(app, orgId, id);
  return rotateClientSecret(app, id, actor);
}

const noUsage = (): UsageSummary => ({ totalRequests: 0, endpoints: [] });

/** totalRequests and per-endpoint counts: written rows plus what this instance has not flushed yet. */
export async function usageSummaries(app: AppContext, clientRowIds: string[]): Promise<Map<string, UsageSummary>> {
  const totals = new Map<string, Map<string, { count: number; totalMs: number }>>();
  for (const row of [...(await usageRows(app.db, clientRowIds)), ...app.usage.pending(clientRowIds)]) {
    const byEndpoint = totals.get(row.clientRowId) ?? new Map();
    const entry = byEndpoint.get(row.endpoint) ?? { count: 0, totalMs: 0 };
    entry.count += row.count;
    entry.totalMs += row.totalMs;
    byEndpoint.set(row.endpoint, entry);
    totals.set(row.clientRowId, byEndpoint);
  }
  return new Map(
    clientRowIds.map((id) => {
      const endpoints = [...(totals.get(id) ?? new Map()).entries()]
        .map(([endpoint, { count, totalMs }]) => ({
          endpoint,
          count,
          averageResponseTimeMs: Math.round((totalMs / count) * 100) / 100,
        }))
        .sort((a, b) => b.count - a.count || a.endpoint.localeCompare(b.endpoint));
      return [id, { totalRequests: endpoints.reduce((sum, e) => sum + e.count, 0), endpoints }];
    }),
  );
}

async function withUsage(app: AppContext, rows: ClientRow[]): Promise<OAuthClient[]> {
  const [resources, usage] = await Promise.all([
    toClientResources(app.db, rows),
    usageSummaries(
      app,
      rows.map((r) => r.id),
    ),
  ]);
  return resources.map((resource) => ({ ...resource, usageSummary: usage.get(resource.id) ?? noUsage() }));
}

/** A page of live clients, newest first: all of them (staff), those one key created, or one organization's. */
export async function listClients(
  app: AppContext,
  options: { createdByClientId?: string; confinedToOrgId?: string; cursor?: string; limit: number },
) {
  const binding = {
    list: 'clients',
    createdBy: options.createdByClientId ?? null,
    ...(options.confinedToOrgId ? { orgId: options.confinedToOrgId } : {}),
  };
  const { page, nextCursor, hasMore } = await createdAtPage(app.cursorKey, binding, options, (after) =>
    listClientRows(app.db, {
      createdByClientId: options.createdByClientId,
      confinedToOrgId: options.confinedToOrgId,
      after,
      limit: options.limit + 1,
    }),
  );
  return { data: await withUsage(app, page), nextCursor, hasMore };
}

async function liveClient(app: AppContext, id: string): Promise<ClientRow> {
  const row = await findClientRow(app.db, id);
  if (!row) throw ApiError.notFound('Client');
  return row;
}

export async function getClient(app: AppContext, id: string): Promise<OAuthClient> {
  const [resource] = await withUsage(app, [await liveClient(app, id)]);
  return resource!;
}

export interface ClientChanges {
  name?: string;
  description?: string;
  enabled?: boolean;
  superadmin?: boolean;
  permissions?: Record<string, boolean>;
  scopes?: { orgs: string[]; projects: { orgId: string; projectId: string }[] };
}

/** Staff changes to a key; permissions merge (true grants, false revokes), scopes are replaced. The key's
 *  cached caller is dropped on every instance, so the change applies to its very next request. */
export async function updateClient(
  app: AppContext,
  id: string,
  changes: ClientChanges,
  actor: AuditActor,
): Promise<OAuthClient> {
  const row = await liveClient(app, id);
  let permissions: Permission[] | undefined;
  if (changes.permissions) {
    const granted = new Set<string>([...row.permissions, ...grantedPermissions(changes.permissions)]);
    for (const [key, value] of Object.entries(changes.permissions)) if (!value) granted.delete(key);
    permissions = [...granted].filter(isPermission).sort();
  }
  const scopes = changes.scopes
    ? await checkScopeTargets(app.db, changes.scopes.orgs, changes.scopes.projects)
    : undefined;
  await app.db.transaction(async (tx) => {
    const before = await keyIn(tx, id);
    await updateClientRow(tx, id, {
      name: changes.name,
      description: changes.description,
      enabled: changes.enabled,
      superadmin: changes.superadmin,
      permissions,
      updatedAt: app.clock.now(),
    });
    if (scopes) await replaceClientScopes(tx, id, { orgs: scopes.orgIds, projects: scopes.projects });
    const action =
      changes.enabled === !before.enabled ? (changes.enabled ? 'key.enabled' : 'key.disabled') : 'key.updated';
    await auditKey(tx, actor, action, { id, before, after: await keyIn(tx, id) }, app.clock.now());
  });
  await app.guard.invalidate(`client:${row.clientId}`);
  return getClient(app, id);
}

/** Soft delete: the row stays for audit and usage history; the key stops working at once. */
export async function deleteClient(app: AppContext, id: string, actor: AuditActor): Promise<void> {
  const row = await liveClient(app, id);
  await app.db.transaction(async (tx) => {
    await auditKey(tx, actor, 'key.deleted', { id, before: await keyIn(tx, id) }, app.clock.now());
    await softDeleteClientRow(tx, id, app.clock.now());
  });
  await app.guard.invalidate(`client:${row.clientId}`);
}

/** A new secret, shown once in the answer; the old secret stops working for token exchange at once. */
export async function rotateClientSecret(app: AppContext, id: string, actor: AuditActor): Promise<CreatedOAuthClient> {
  const row = await liveClient(app, id);
  const secret = newClientSecret();
  const secretHash = await hashSecret(secret);
  await app.db.transaction(async (tx) => {
    await updateClientRow(tx, id, { secretHash, updatedAt: app.clock.now() });
    const key = await keyIn(tx, id);
    await auditKey(tx, actor, 'key.secret_rotated', { id, before: key, after: key }, app.clock.now());
  });
  await app.guard.invalidate(`client:${row.clientId}`);
  return { ...(await getClient(app, id)), client_secret: secret };
}

// Verified against when the client_id is unknown, so a miss costs the same argon2 work as a wrong secret.
let dummyHash: Promise<string> | undefined;

export type TokenExchange =
  | { ok: true; accessToken: string; expiresIn: number }
  | { ok: false; description: string; retryAfterSeconds?: number };

/** Wrong secrets one address may give for one client_id before it waits (1 s, 2 s, 4 s … 15 min, forgotten after a
 *  quiet day). */
export const KEY_PAIR_FREE_FAILURES = 3;
/** Wrong secrets for one client_id from all addresses before addresses that never got a token for it wait. */
export const KEY_CEILING = 1000;

/** The token endpoint's throttle of wrong secrets (see `auth/failure-throttle.ts`): per (client_id, address). */
export const createKeySecretThrottle = (db: Db, clock: Clock) =>
  createFailureThrottle({
    db,
    clock,
    scope: 'key-secret',
    freeFailures: KEY_PAIR_FREE_FAILURES,
    accountCeiling: KEY_CEILING,
    maxDelaySeconds: 15 * 60,
    quietSeconds: 24 * 60 * 60,
  });

/** Client credentials → access token. Unknown id, wrong secret and deleted key look alike to the caller. Wrong
 *  secrets slow down the address that gives them for that client_id, never the key's right secret elsewhere. */
export async function exchangeClientCredentials(
  app: AppContext,
  clientId: string,
  secret: string,
  source: string,
): Promise<TokenExchange> {
  const wait = await app.keySecrets.startAttempt(clientId, source);
  if (wait > 0) {
    return {
      ok: false,
      description: `Too many wrong secrets for this client_id from this address; retry after ${wait} seconds`,
      retryAfterSeconds: wait,
    };
  }
  const row = await findClientByClientId(app.db, clientId);
  dummyHash ??= hashSecret(newClientSecret());
  const valid = await verifySecret(row?.secretHash ?? (await dummyHash), secret);
  if (!row || !valid) {
    await app.keySecrets.recordFailure(clientId, source);
    return { ok: false, description: 'Invalid client credentials' };
  }
  await app.keySecrets.recordSuccess(clientId, source);
  if (!row.enabled) return { ok: false, description: 'This client is disabled' };
  // Each exchange is a grant of its own, so key tokens pass the same revocation check as people's tokens.
  const { token, expiresIn } = app.tokens.sign(row.clientId, 'client', { grant: newId('kgr') });
  return { ok: true, accessToken: token, expiresIn };
}
