// The column kinds and column groups the tables share, so each table states only what is its own.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, customType, text, timestamp } from 'drizzle-orm/pg-core';

export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
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
