import { and, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { KeysetPosition } from '../cursor.js';
import type { DateWindow } from '../date-window.js';
import type { Db, Tx } from '../db/connection.js';
import type { CsvColumn } from '../db/csv-cells.js';
import { keysetOrder } from '../db/keyset.js';
import { auditEvents, organizationMembers } from '../db/schema.js';
import { isoUtc } from '../db/sql-text.js';
import { newId } from '../ids.js';
import { emitEvent } from '../outbox/queries.js';

/** Who made a change, and from which address: what every audit event records of its author. */
export interface AuditActor {
  /** `cli`: the operator at the command line (server/cli), known by their system account alone. `scim`: the
   *  organization's identity provider, through its SCIM token (id: the token's id). */
  kind: 'user' | 'client' | 'anonymous' | 'cli' | 'scim';
  /** User id or key (client row) id; null for an anonymous attempt. */
  id: string | null;
  name: string;
  email: string;
  /** The client address as the route saw it. */
  ip: string | null;
}

/** Before and after of each changed field. Never a secret: only hashes or "rotated" ever stand for one. */
export type AuditChanges = Record<string, { before: unknown; after: unknown }>;

/** The fields of `after` whose value differs from `before` (compared as JSON), as before/after pairs. */
export function changedFields<T extends object>(before: Partial<T>, after: Partial<T>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = (before as Record<string, unknown>)[field] ?? null;
    if (JSON.stringify(old) !== JSON.stringify(value)) changes[field] = { before: old, after: value };
  }
  return changes;
}

/** Every field of a record that is gone (deleted, removed), as before/after pairs with `after` null. */
export const removedFields = (before: object): AuditChanges =>
  Object.fromEntries(Object.entries(before).map(([field, value]) => [field, { before: value, after: null }]));

/** The audited view (`view`) of a record created (no `before`), changed, or removed (no `after`), as changes. */
export function recordChanges<R>(
  before: R | undefined,
  after: R | undefined,
  view: (record: R) => object,
): AuditChanges {
  if (after === undefined) return before === undefined ? {} : removedFields(view(before));
  return changedFields(before === undefined ? {} : view(before), view(after));
}

export interface AuditEntry {
  /** The organization the change concerns; null when it concerns none (then only the table keeps it). */
  organizationId: string | null;
  action: string;
  target: { type: string; id: string | null };
  changes?: AuditChanges;
  at: Date;
}

/**
 * Records one audit event in the caller's transaction (it commits or rolls back with the change it describes)
 * and pushes it to the organization's endpoints that subscribed to `audit.event`. The table refuses any UPDATE or
 * DELETE (migration 0025): there is no other function here on purpose.
 */
export async function recordAudit(tx: Db | Tx, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const row = {
    id: newId('aud'),
    organizationId: entry.organizationId,
    actorKind: actor.kind,
    actorId: actor.id,
    actorName: actor.name,
    actorEmail: actor.email,
    ip: actor.ip,
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    changes: entry.changes ?? {},
    createdAt: entry.at,
  };
  await tx.insert(auditEvents).values(row);
  if (entry.organizationId) {
    await emitEvent(tx, {
      organizationId: entry.organizationId,
      type: 'audit.event',
      data: presentAuditRow(row),
      at: entry.at,
    });
  }
}

export type AuditRow = typeof auditEvents.$inferSelect;

/** An audit event as the API answers it (and as its webhook event carries it). */
export const presentAuditRow = (row: AuditRow) => ({
  id: row.id,
  organizationId: row.organizationId,
  actor: { kind: row.actorKind as AuditActor['kind'], id: row.actorId, name: row.actorName, email: row.actorEmail },
  ip: row.ip,
  action: row.action,
  target: { type: row.targetType, id: row.targetId },
  changes: row.changes,
  createdAt: row.createdAt.toISOString(),
});

export interface AuditFilters extends DateWindow {
  organizationId: string;
  actorId?: string;
  actions?: readonly string[];
}

const conditions = (f: AuditFilters): SQL | undefined =>
  and(
    eq(auditEvents.organizationId, f.organizationId),
    f.actorId === undefined ? undefined : eq(auditEvents.actorId, f.actorId),
    f.actions?.length ? inArray(auditEvents.action, [...f.actions]) : undefined,
    f.from ? gte(auditEvents.createdAt, f.from) : undefined,
    f.before ? lt(auditEvents.createdAt, f.before) : undefined,
  );

const newestFirst = keysetOrder(auditEvents.createdAt, auditEvents.id, 'desc', 'timestamptz');

/** One page (plus one row, to tell whether there is more) of an organization's audit events, newest first. */
export const auditPage = (db: Db, f: AuditFilters, position: KeysetPosition | undefined, limit: number) =>
  db
    .select()
    .from(auditEvents)
    .where(and(conditions(f), newestFirst.after(position)))
    .orderBy(...newestFirst.orderBy)
    .limit(limit + 1);

export const auditCsvColumns: CsvColumn[] = [
  { header: 'id', value: sql`${auditEvents.id}` },
  { header: 'createdAt', value: isoUtc(auditEvents.createdAt) },
  { header: 'action', value: sql`${auditEvents.action}` },
  { header: 'actorKind', value: sql`${auditEvents.actorKind}` },
  { header: 'actorId', value: sql`${auditEvents.actorId}` },
  { header: 'actorName', value: sql`${auditEvents.actorName}` },
  { header: 'actorEmail', value: sql`${auditEvents.actorEmail}` },
  { header: 'ip', value: sql`${auditEvents.ip}` },
  { header: 'targetType', value: sql`${auditEvents.targetType}` },
  { header: 'targetId', value: sql`${auditEvents.targetId}` },
  { header: 'changes', value: sql`${auditEvents.changes}::text` },
];

/** The audit events for the CSV export: the query after its select list, ordered, without LIMIT. */
export const auditCsvFrom = (f: AuditFilters, position: KeysetPosition | undefined): SQL =>
  sql`from ${auditEvents} where ${and(conditions(f), newestFirst.after(position))}
    order by ${sql.join(newestFirst.orderBy, sql`, `)}`;

/** A person's password sign-in, answered or refused: one event in each organization of the person (one of none
 *  for an e-mail address no one has, or a person of no organization), so each organization's admins see theirs. */
export async function recordSignIn(
  db: Db,
  attempt: { email: string; user?: { id: string; name: string }; ip: string; succeeded: boolean; at: Date },
): Promise<void> {
  const actor: AuditActor = {
    kind: attempt.user ? 'user' : 'anonymous',
    id: attempt.user?.id ?? null,
    name: attempt.user?.name ?? '',
    email: attempt.email,
    ip: attempt.ip,
  };
  await db.transaction(async (tx) => {
    const memberships = attempt.user
      ? await tx
          .select({ organizationId: organizationMembers.organizationId })
          .from(organizationMembers)
          .where(eq(organizationMembers.userId, attempt.user.id))
      : [];
    const orgIds = memberships.length > 0 ? memberships.map((m) => m.organizationId) : [null];
    for (const organizationId of orgIds) {
      await recordAudit(tx, actor, {
        organizationId,
        action: attempt.succeeded ? 'signin.succeeded' : 'signin.failed',
        target: { type: 'person', id: attempt.user?.id ?? null },
        at: attempt.at,
      });
    }
  });
}
