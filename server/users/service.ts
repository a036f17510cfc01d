import type { z } from 'zod';
import type { Member, MembersQuery, Person } from '../../shared/members.js';
import type { PersonEventData } from '../../shared/webhooks.js';
import { type AuditActor, type AuditChanges, recordAudit, recordChanges } from '../audit/queries.js';
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

/** Creates a person and their memberships. Audited (`person.created`, in each organization joined, at `audit.at`)
 *  when `audit` is given: SCIM provisioning; the CLI and the seed are not administrative routes. */
export async function createUser(db: Db, input: NewUser, audit?: { actor: AuditActor; at: Date }) {
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
    if (!audit) return;
    for (const m of input.memberships ?? []) {
      await recordAudit(tx, audit.actor, {
        organizationId: m.orgId,
        action: 'person.created',
        target: { type: 'person', id },
        changes: recordChanges(
          undefined,
          { email, name: input.name, role: m.role, externalId: m.externalId },
          (r) => r,
        ),
        at: audit.at,
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
    const type = disabled ? 'person.disabled' : 'person.enabled';
    for (const organizationId of orgIds.length > 0 ? orgIds : [null]) {
      await recordPersonChange(tx, type, {
        organizationId,
        person: changed,
        actor,
        at: now,
        auditAction: type,
        changes: { disabled: { before: !disabled, after: disabled } },
      });
    }
    return changed;
  });
  if (!row) throw ApiError.notFound('User');
  await endCachedAccess(deps, userId);
  return toPerson(row);
}

/**
 * A change to a person's access in an organization, in the change's transaction: its audit event and its webhook
 * event (integrators who provision accounts subscribe to these alone). A person in no organization (null) is
 * audited only.
 */
async function recordPersonChange(
  tx: Tx,
  type: 'person.disabled' | 'person.enabled' | 'person.removed' | 'person.role_changed',
  change: {
    organizationId: string | null;
    person: { id: string; name: string; email: string };
    actor: AuditActor;
    at: Date;
    auditAction: string;
    changes: AuditChanges;
    role?: { before: string | null; after: string | null };
  },
) {
  const { organizationId, person, actor, at } = change;
  await recordAudit(tx, actor, {
    organizationId,
    action: change.auditAction,
    target: { type: 'person', id: person.id },
    changes: change.changes,
    at,
  });
  if (!organizationId) return;
  const data: PersonEventData = {
    organizationId,
    person: { id: person.id, name: person.name, email: person.email },
    ...(change.role ? { role: change.role } : {}),
    actor: { kind: actor.kind, id: actor.id, name: actor.name },
    at: at.toISOString(),
  };
  await emitEvent(tx, { organizationId, type, data, at });
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
    const roles = { before: current.role, after: role };
    await recordPersonChange(tx, 'person.role_changed', {
      organizationId: orgId,
      person: { id: userId, name: current.name, email: current.email },
      actor,
      at: now,
      auditAction: 'member.role_changed',
      changes: { role: roles },
      role: roles,
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
    const roles = { before: member.role, after: null };
    await recordPersonChange(tx, 'person.removed', {
      organizationId: orgId,
      person: { id: userId, name: member.name, email: member.email },
      actor,
      at,
      auditAction: 'member.removed',
      changes: { role: roles, email: { before: member.email, after: null } },
      role: roles,
    });
  });
  await endCachedAccess(deps, userId);
}
