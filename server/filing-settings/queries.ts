import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import { emailFilingSettings, organizations } from '../db/schema.js';

export interface SettingsRow {
  organizationId: string;
  aiSuggest: boolean;
  updatedAt: Date | null;
}

/** The default row every organization gets when it is created: AI suggestions off, never changed. */
export async function insertDefaultEmailFilingSettings(tx: Db | Tx, organizationId: string): Promise<void> {
  await tx.insert(emailFilingSettings).values({ organizationId, aiSuggest: false });
}

/**
 * The settings of each existing organization among `organizationIds`, read from the table on every call: this
 * table is the single source (no cache), so a change is seen by the next request on every instance. With
 * `lock`, the organizations' rows stay locked until the transaction ends, so concurrent changes take turns.
 */
export async function readEmailFilingSettings(
  db: Db | Tx,
  organizationIds: readonly string[],
  options: { lock?: boolean } = {},
): Promise<SettingsRow[]> {
  if (organizationIds.length === 0) return [];
  const query = db
    .select({
      organizationId: organizations.id,
      aiSuggest: emailFilingSettings.aiSuggest,
      updatedAt: emailFilingSettings.updatedAt,
    })
    .from(organizations)
    .leftJoin(emailFilingSettings, eq(emailFilingSettings.organizationId, organizations.id))
    .where(inArray(organizations.id, [...organizationIds]));
  // The organization's row is locked, not the settings row: it always exists, and a no-key lock does not
  // hold up inserts that reference the organization.
  const rows = await (options.lock ? query.for('no key update', { of: organizations }) : query);
  // Every organization gets its row when created; a missing one reads as the default (off).
  return rows.map((row) => ({
    organizationId: row.organizationId,
    aiSuggest: row.aiSuggest ?? false,
    updatedAt: row.updatedAt ?? null,
  }));
}

/** Writes a change (creating the row should an organization lack it). */
export async function writeEmailFilingSettings(
  tx: Tx,
  input: { organizationId: string; aiSuggest: boolean; updatedAt: Date; updatedById: string },
): Promise<void> {
  const change = { aiSuggest: input.aiSuggest, updatedAt: input.updatedAt, updatedById: input.updatedById };
  await tx
    .insert(emailFilingSettings)
    .values({ organizationId: input.organizationId, ...change })
    .onConflictDoUpdate({ target: emailFilingSettings.organizationId, set: change });
}
