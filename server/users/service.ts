import type { z } from 'zod';
import type { Member, MembersQuery, Person } from '../../shared/members.js';
import type { PersonEventData } from '../../shared/webhooks.js';
import { type AuditActor, recordAudit, recordChanges } from '../audit/queries.js';
import { CALLERS_CHANNEL } from '../auth/guard.js';
import { hashSecret } from '../auth/secrets.js';
import type { AppContext, ListContext } from '../context.js';
import { cursorPosition, cutPage, keysetCursor } from '../cursor.js';
import type { Db, Tx } from '../db/connection.js';
import { type DirectoryRow, directoryPage } from '../directory/queries.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { findOrganization } from '../organizations/queries.js';
import { emitEvent } from '../outbox/queries.js';
import {
  deleteMembership,
  findMember,
  findUserByEmail,
  insertUser,
  lockOrgAdmins,
  membershipOrgIds,
  type PersonRow,
  setUserDisabledAt,
  updateMembershipRole,
} from './queries.js';

export interface NewUser {
  email: string;
  name: string;
  password?: string;
  staff?: boolean;
  /** `externalId`, `scimUserName`: the identity provider's ids for the person in that organization (SCIM). */
  memberships?: {
    orgId: string;
    role: 'admin' | 'member';
    externalId?: string | null;
    scimUserName?: string | null;
  }[];
  company?: string;
  title?: string;
  phone?: string;
}

/** What changing a person needs: the database, the bus that drops their cached authorization on every
 *  instance, and the clock. The server passes its context; the CLI its own session. */
export type PeopleDeps = Pick<AppContext, 'db' | 'bus' | 'clock'>;

/** Creates a person and their memberships. Audited (`person.created`, in each organization joined) when `actor`
 *  is given: SCIM provisioning; the CLI and the seed are not administrative routes. */
export async function createUser(db: Db, input: NewUser, actor?: AuditActor) {
  const email = input.email.trim();
  if (await findUserByEmail(db, email)) throw new ApiError('conflict', `A user with e-mail ${email} already exists`);
  for (const m of input.memberships ?? []) {
    if (!(await findOrganization(db, m.orgId))) throw ApiError.badRequest(`Unknown organization: ${m.orgId}`);
  }
  const id = newId('usr');
  const passwordHash = input.password ? await hashSecret(input.password) : null;
  await db.transaction(async (tx) => {
    await insertUser(
      tx,
      {
        id,
        email,
        name: input.name,
        passwordHash,
        staff: input.staff ?? false,
        company: input.company,
        title: input.title,
        phone: input.phone,
      },
      (input.memberships ?? []).map((m) => ({
        id: newId('mem'),
        organizationId: m.orgId,
        userId: id,
        role: m.role,
        externalId: m.externalId,
        scimUserName: m.scimUserName,
      })),
    );
    if (!actor) return;
    for (const m of input.memberships ?? []) {
      await recordAudit(tx, actor, {
        organizationId: m.orgId,
        action: 'person.created',
        target: { type: 'person', id },
        changes: recordChanges(
          undefined,
          { email, name: input.name, role: m.role, externalId: m.externalId },
          (r) => r,
        ),
        at: new Date(),
      });
    }
  });
  return { id, email, name: input.name, staff: input.staff ?? false };
}

const toPerson = (row: NonNullable<PersonRow>): Person => ({
  id: row.id,
  email: row.email,
  name: row.name,
  staff: row.staff,
  disabledAt: row.disabledAt?.toISOString() ?? null,
});

type MemberRow = Pick<
  DirectoryRow,
  'id' | 'userId' | 'name' | 'email' | 'role' | 'disabledAt' | 'createdAt' | 'updatedAt'
>;

const toMember = (row: MemberRow): Member => ({
  uid: row.id,
  userId: row.userId,
  name: row.name,
  email: row.email,
  role: row.role,
  disabled: row.disabledAt !== null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Drops the person's cached authorization on every instance: the change holds from their next request on. */
const endCachedAccess = (deps: PeopleDeps, userId: string) => deps.bus.publish(CALLERS_CHANNEL, `user:${userId}`);

/**
 * Disables or enables a person. Disabled: no new sign-in, and every token of theirs is refused on the next
 * request on every instance (the cached caller is dropped through the bus). `actor`, the person asking, may
 * not disable themselves (409): the platform must keep someone who can enable people again. Audited once in each
 * organization of the person (once, of none, when they belong to none).
 */
export async function setUserDisabled(
  deps: PeopleDeps,
  userId: string,
  disabled: boolean,
  actor: AuditActor,
): Promise<Person> {
  if (disabled && userId === actor.id) throw new ApiError('conflict', 'You cannot disable yourself');
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const changed = await setUserDisabledAt(tx, userId, disabled ? now : null, now);
    if (!changed) return undefined;
    const orgIds = await membershipOrgIds(tx, userId);
    for (const organizationId of orgIds.length > 0 ? orgIds : [null]) {
      await recordAudit(tx, actor, {
        organizationId,
        action: disabled ? 'person.disabled' : 'person.enabled',
        target: { type: 'person', id: userId },
        changes: { disabled: { before: !disabled, after: disabled } },
        at: now,
      });
      if (organizationId) {
        const type = disabled ? 'person.disabled' : 'person.enabled';
        await emitPersonEvent(tx, type, { organizationId, person: changed, actor, at: now });
      }
    }
    return changed;
  });
  if (!row) throw ApiError.notFound('User');
  await endCachedAccess(deps, userId);
  return toPerson(row);
}

/**
 * The webhook event of a change to a person's access in an organization, in the change's transaction (the audit
 * event records the same change; integrators who provision accounts subscribe to these alone).
 */
function emitPersonEvent(
  tx: Tx,
  type: 'person.disabled' | 'person.enabled' | 'person.removed' | 'person.role_changed',
  change: {
    organizationId: string;
    person: { id: string; name: string; email: string };
    actor: AuditActor;
    at: Date;
    role?: { before: string | null; after: string | null };
  },
) {
  const data: PersonEventData = {
    organizationId: change.organizationId,
    person: { id: change.person.id, name: change.person.name, email: change.person.email },
    ...(change.role ? { role: change.role } : {}),
    actor: { kind: change.actor.kind, id: change.actor.id, name: change.actor.name },
    at: change.at.toISOString(),
  };
  return emitEvent(tx, { organizationId: change.organizationId, type, data, at: change.at });
}

/** A page of an organization's members by name, with role and whether each is disabled. */
export async function listMembers(list: ListContext, orgId: string, query: z.output<typeof MembersQuery>) {
  const binding = { list: 'members', orgId, search: query.search };
  const position = cursorPosition(list.cursorKey, query.cursor, binding, 'text');
  const rows = await directoryPage(
    list.db,
    { organizationId: orgId, visibleProjects: 'all', search: query.search },
    position,
    query.limit,
  );
  const { page, nextCursor, hasMore } = cutPage(
    rows,
    query.limit,
    keysetCursor(list.cursorKey, binding, (row: { sortName: string; id: string }) => ({
      key: row.sortName,
      id: row.id,
    })),
  );
  return { data: page.map(toMember), nextCursor, hasMore };
}

const lastAdmin = () => new ApiError('conflict', 'An organization keeps at least one admin');

/** Changes a member's role; demoting the organization's last admin is a 409. */
export async function changeMemberRole(
  deps: PeopleDeps,
  orgId: string,
  userId: string,
  role: 'admin' | 'member',
  actor: AuditActor,
): Promise<Member> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const admins = await lockOrgAdmins(tx, orgId);
    const current = await findMember(tx, orgId, userId);
    if (!current) throw ApiError.notFound('Member');
    if (current.role === role) return;
    if (role === 'member' && admins.length === 1 && admins[0] === userId) throw lastAdmin();
    await updateMembershipRole(tx, orgId, userId, role, now);
    await recordAudit(tx, actor, {
      organizationId: orgId,
      action: 'member.role_changed',
      target: { type: 'person', id: userId },
      changes: { role: { before: current.role, after: role } },
      at: now,
    });
    const person = { id: userId, name: current.name, email: current.email };
    await emitPersonEvent(tx, 'person.role_changed', {
      organizationId: orgId,
      person,
      actor,
      at: now,
      role: { before: current.role, after: role },
    });
  });
  await endCachedAccess(deps, userId);
  const changed = await findMember(deps.db, orgId, userId);
  if (!changed) throw ApiError.notFound('Member');
  return toMember(changed);
}

/** Removes a person from an organization (and its projects): their tokens no longer reach it from the next
 *  request on. Removing the organization's last admin is a 409. */
export async function removeMember(deps: PeopleDeps, orgId: string, userId: string, actor: AuditActor): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const admins = await lockOrgAdmins(tx, orgId);
    const member = await findMember(tx, orgId, userId);
    if (!member) throw ApiError.notFound('Member');
    if (admins.length === 1 && admins[0] === userId) throw lastAdmin();
    await deleteMembership(tx, orgId, userId);
    const at = deps.clock.now();
    await recordAudit(tx, actor, {
      organizationId: orgId,
      action: 'member.removed',
      target: { type: 'person', id: userId },
      changes: { role: { before: member.role, after: null }, email: { before: member.email, after: null } },
      at,
    });
    const person = { id: userId, name: member.name, email: member.email };
    await emitPersonEvent(tx, 'person.removed', {
      organizationId: orgId,
      person,
      actor,
      at,
      role: { before: member.role, after: null },
    });
  });
  await endCachedAccess(deps, userId);
}
