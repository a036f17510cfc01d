// The column kinds and column groups the tables share, so each table states only what is its own.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, customType, text, timestamp } from 'drizzle-orm/pg-core';

export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
/**
 * The transaction that last wrote the row (`pg_current_xact_id()`, xid8: never wraps): the sync cursor's key. A
 * transaction that committed late still carries the id it began with, which a sync token taken before it
 * committed (`pg_snapshot_xmin`) is never above — so no committed change falls behind a token (issue 40).
 * Set on insert by the default and on every update by the `change_seq_stamp` trigger (migration 0028).
 */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });
export const changeSeq = () => xid8('change_seq').notNull().default(sql`pg_current_xact_id()`);
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** Millisecond precision, so keyset cursors (which travel through JavaScript Dates) round-trip exactly. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
export const createdAt = () => ts('created_at').notNull().default(sql`now()`);
export const updatedAt = () => ts('updated_at').notNull().default(sql`now()`);
export const orgId = () => text('organization_id').notNull();
export const emptyTextArray = () => sql`'{}'::text[]`;

/** The first two columns of most tenant tables: the row's own id and its organization. */
export const tenantRow = () => ({ id: text('id').primaryKey(), organizationId: orgId() });

/**
 * A required reference to another table's row. `cascade`: the row belongs to the one it names and goes with it
 * (a document's assignees, a report's sections).
 */
export const refersTo = (name: string, target: () => AnyPgColumn, onDelete?: 'cascade') =>
  text(name)
    .notNull()
    .references(target, onDelete ? { onDelete } : {});
