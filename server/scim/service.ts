import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { CreatedScimToken, ScimToken } from '../../shared/scim.js';
import { type AuditActor, changedFields, recordAudit, recordChanges } from '../audit/queries.js';
import { digest } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { findOrganization } from '../organizations/queries.js';
import { findUserByEmail, membershipOrgIds } from '../users/queries.js';
import { createUser, type PeopleDeps, removeMember, setUserDisabled } from '../users/service.js';
import { peopleFilter } from './filter.js';
import { applyPatch } from './patch.js';
import {
  deleteOrgScimToken,
  externalIdTaken,
  findOrgScimToken,
  findScimPerson,
  findScimTokenByDigest,
  replaceOrgScimToken,
  type ScimTokenRow,
  scimPeoplePage,
  setMemberScimIds,
  touchScimToken,
  updatePersonProfile,
} from './queries.js';
import {
  listResponse,
  parseScim,
  type ScimUserList,
  type ScimUserState,
  scimError,
  stateOf,
  toScimUser,
  userStateFrom,
} from './resources.js';

/** What provisioning needs: people's services (database, bus, clock) and the public URL resources name. */
export type ScimDeps = PeopleDeps & Pick<AppContext, 'config'>;

/** The organization a SCIM request acts in, and the token that made it (the audit log's actor). */
export interface ScimCaller {
  tokenId: string;
  orgId: string;
  ip: string | null;
}

const TOKEN_PREFIX = 'sfscim_';

export const scimBaseUrl = (deps: Pick<AppContext, 'config'>) => `${deps.config.publicUrl}/scim/v2`;

const toToken = (deps: ScimDeps, row: ScimTokenRow): ScimToken => ({
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  createdByUserId: row.createdByUserId,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  baseUrl: scimBaseUrl(deps),
});

/** What the audit log keeps of a token: never the token or its digest. */
const auditedToken = (row: ScimTokenRow) => ({ id: row.id, createdByUserId: row.createdByUserId });

/** Staff reach any organization id: one that does not exist is a 404, not an empty answer or a foreign key's 500. */
async function assertOrganization(deps: ScimDeps, orgId: string): Promise<void> {
  if (!(await findOrganization(deps.db, orgId))) throw ApiError.notFound('Organization');
}

export async function getScimToken(deps: ScimDeps, orgId: string): Promise<ScimToken | null> {
  await assertOrganization(deps, orgId);
  const row = await findOrgScimToken(deps.db, orgId);
  return row ? toToken(deps, row) : null;
}

/** Makes the organization's token, or a new one in place of the old, which is refused from then on. The token is
 *  in this answer only; the table keeps its SHA-256. Audited (`scim_token.created` or `.rotated`). */
export async function createScimToken(
  deps: ScimDeps,
  orgId: string,
  createdByUserId: string,
  actor: AuditActor,
): Promise<CreatedScimToken['data']> {
  await assertOrganization(deps, orgId);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const { before, after } = await replaceOrgScimToken(tx, {
      id: newId('scim'),
      organizationId: orgId,
      tokenDigest: digest(token),
      createdByUserId,
      createdAt: now,
    });
    await recordAudit(tx, actor, {
      organizationId: orgId,
      action: before ? 'scim_token.rotated' : 'scim_token.created',
      target: { type: 'scim_token', id: after.id },
      changes: recordChanges(before, after, auditedToken),
      at: now,
    });
    return after;
  });
  return { ...toToken(deps, row), token };
}

/** Revokes the organization's token: the provider's next request is a 401. Audited (`scim_token.revoked`). */
export async function revokeScimToken(deps: ScimDeps, orgId: string, actor: AuditActor): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const row = await deleteOrgScimToken(tx, orgId);
    if (!row) throw ApiError.notFound('SCIM token');
    await recordAudit(tx, actor, {
      organizationId: orgId,
      action: 'scim_token.revoked',
      target: { type: 'scim_token', id: row.id },
      changes: recordChanges(row, undefined, auditedToken),
      at: now,
    });
  });
}

/** The organization a bearer token provisions, or a 401 (missing, malformed, revoked or replaced). */
export async function authenticateScim(
  deps: ScimDeps,
  authorization: string | undefined,
  ip: string | null,
): Promise<ScimCaller> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token?.startsWith(TOKEN_PREFIX) || token.length > 200) throw ApiError.unauthorized();
  const row = await findScimTokenByDigest(deps.db, digest(token));
  if (!row) throw ApiError.unauthorized();
  await touchScimToken(deps.db, row.id, deps.clock.now());
  return { tokenId: row.id, orgId: row.organizationId, ip };
}

const actorOf = (caller: ScimCaller): AuditActor => ({
  kind: 'scim',
  id: caller.tokenId,
  name: 'SCIM provisioning',
  email: '',
  ip: caller.ip,
});

/** Largest page a Users list answers (RFC 7644 §3.4.2.4 lets the server cap `count`). */
export const MAX_COUNT = 200;
const DEFAULT_COUNT = 100;

/**
 * A Users list's query (RFC 7644 §3.4.2). `startIndex` and `count` are read as §3.4.2.4 says: below 1 is 1, a
 * negative count is 0; a count above MAX_COUNT is answered with MAX_COUNT, and a value that is not an integer is
 * the default.
 */
export const ScimListQuery = z.object({
  filter: z
    .string()
    .max(1000, { error: 'The filter is too long' })
    .optional()
    .meta({
      description:
        'Equality on userName, externalId, emails (`emails[type eq "work"].value`) and active, joined by `and` ' +
        '(e.g. `userName eq "ada@example.com"`); any other filter is a 400 invalidFilter',
    }),
  startIndex: z.coerce
    .number()
    .int()
    .catch(1)
    .transform((n) => Math.max(1, n))
    .meta({ description: '1-based index of the first result; below 1 is read as 1', minimum: 1, default: 1 }),
  count: z.coerce
    .number()
    .int()
    .catch(DEFAULT_COUNT)
    .transform((n) => Math.min(MAX_COUNT, Math.max(0, n)))
    .meta({
      description: `Page size; above ${MAX_COUNT} is answered with ${MAX_COUNT}, a negative count is read as 0`,
      minimum: 0,
      maximum: MAX_COUNT,
      default: DEFAULT_COUNT,
    }),
});

/** A page of the organization's people. */
export async function listScimUsers(
  deps: ScimDeps,
  caller: ScimCaller,
  query: z.input<typeof ScimListQuery>,
): Promise<ScimUserList> {
  const { filter, startIndex, count } = parseScim(ScimListQuery, query, 'invalidFilter');
  const { total, rows } = await scimPeoplePage(deps.db, caller.orgId, peopleFilter(filter), startIndex - 1, count);
  return listResponse(
    rows.map((row) => toScimUser(row, scimBaseUrl(deps))),
    total,
    startIndex,
  );
}

async function personOf(deps: ScimDeps, caller: ScimCaller, userId: string) {
  const row = await findScimPerson(deps.db, caller.orgId, userId);
  if (!row) throw ApiError.notFound('User');
  return row;
}

export async function getScimUser(deps: ScimDeps, caller: ScimCaller, userId: string) {
  return toScimUser(await personOf(deps, caller, userId), scimBaseUrl(deps));
}

const scimIdsOf = (state: ScimUserState) => ({
  externalId: state.externalId,
  scimUserName: state.userName.toLowerCase() === state.email.toLowerCase() ? null : state.userName,
});

/** Creates a person in the token's organization (role member), disabled at once when `active` is false. An
 *  e-mail address or externalId already in use is a 409 uniqueness. */
export async function createScimUser(deps: ScimDeps, caller: ScimCaller, body: unknown) {
  const state = userStateFrom(body);
  if (await findUserByEmail(deps.db, state.email)) {
    throw scimError('conflict', 'uniqueness', 'A person with this e-mail address already exists');
  }
  if (state.externalId !== null && (await externalIdTaken(deps.db, caller.orgId, state.externalId, ''))) {
    throw scimError('conflict', 'uniqueness', 'A person with this externalId already exists');
  }
  const actor = actorOf(caller);
  const created = await createUser(
    deps.db,
    {
      email: state.email,
      name: state.name,
      memberships: [{ orgId: caller.orgId, role: 'member', ...scimIdsOf(state) }],
    },
    { actor, at: deps.clock.now() },
  );
  if (!state.active) await setUserDisabled(deps, created.id, true, actor);
  return getScimUser(deps, caller, created.id);
}

/**
 * Brings a person of the organization to `wanted`: profile (userName, e-mail, name, externalId) in one
 * transaction with its audit event (`person.updated`), then `active` through the people service, which ends
 * every session and token of theirs on the next request on every instance (`person.disabled`/`.enabled`).
 * A person who also belongs to another organization is that organization's too: changing them here is a 403.
 */
async function bringTo(deps: ScimDeps, caller: ScimCaller, userId: string, wanted: ScimUserState) {
  const row = await personOf(deps, caller, userId);
  const current = stateOf(row);
  const profile = changedFields(current, { ...wanted, active: undefined });
  const changesActive = current.active !== wanted.active;
  if (Object.keys(profile).length === 0 && !changesActive) return getScimUser(deps, caller, userId);
  const orgIds = await membershipOrgIds(deps.db, userId);
  if (orgIds.some((orgId) => orgId !== caller.orgId)) {
    throw scimError('forbidden', 'mutability', 'This person also belongs to another organization: change them there');
  }
  const actor = actorOf(caller);
  if (Object.keys(profile).length > 0) {
    if (wanted.email.toLowerCase() !== current.email.toLowerCase()) {
      const other = await findUserByEmail(deps.db, wanted.email);
      if (other && other.id !== userId) {
        throw scimError('conflict', 'uniqueness', 'A person with this e-mail address already exists');
      }
    }
    if (wanted.externalId !== null && (await externalIdTaken(deps.db, caller.orgId, wanted.externalId, userId))) {
      throw scimError('conflict', 'uniqueness', 'A person with this externalId already exists');
    }
    const now = deps.clock.now();
    await deps.db.transaction(async (tx) => {
      await updatePersonProfile(tx, userId, { email: wanted.email, name: wanted.name }, now);
      await setMemberScimIds(tx, caller.orgId, userId, scimIdsOf(wanted), now);
      await recordAudit(tx, actor, {
        organizationId: caller.orgId,
        action: 'person.updated',
        target: { type: 'person', id: userId },
        changes: profile,
        at: now,
      });
    });
  }
  if (changesActive) await setUserDisabled(deps, userId, !wanted.active, actor);
  return getScimUser(deps, caller, userId);
}

/** PUT: the resource replaces the person's attributes Sitefile keeps (RFC 7644 §3.5.1). */
export const replaceScimUser = (deps: ScimDeps, caller: ScimCaller, userId: string, body: unknown) =>
  bringTo(deps, caller, userId, userStateFrom(body));

/** PATCH: the operations applied to the person's current state (RFC 7644 §3.5.2). */
export async function patchScimUser(deps: ScimDeps, caller: ScimCaller, userId: string, body: unknown) {
  const current = stateOf(await personOf(deps, caller, userId));
  return bringTo(deps, caller, userId, applyPatch(current, body));
}

/**
 * DELETE: removes the person from the organization through the people service (`member.removed`: their tokens no
 * longer reach it from the next request on). A person of this organization alone is disabled first
 * (`person.disabled`), so that every session and token of theirs ends; one who belongs elsewhere too keeps their
 * account for the other organizations.
 */
export async function deleteScimUser(deps: ScimDeps, caller: ScimCaller, userId: string): Promise<void> {
  const row = await personOf(deps, caller, userId);
  const actor = actorOf(caller);
  const onlyHere = (await membershipOrgIds(deps.db, userId)).every((orgId) => orgId === caller.orgId);
  if (onlyHere && row.disabledAt === null) await setUserDisabled(deps, userId, true, actor);
  await removeMember(deps, caller.orgId, userId, actor);
}
