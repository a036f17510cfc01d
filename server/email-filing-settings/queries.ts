import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { emailFilingSettings, organizations } from '../db/schema.js';

export interface SettingsRow {
  organizationId: string;
  aiSuggest: boolean;
  updatedAt: Date | null;
}

/**
 * The organization's settings, read from the table on every call: this table is the single source (no cache),
 * so a change is seen by the next request on every instance. Undefined when the organization does not exist.
 */
export async function readEmailFilingSettings(db: Db | Tx, organizationId: string): Promise<SettingsRow | undefined> {
  const [row] = await db
    .select({
      organizationId: organizations.id,
      aiSuggest: emailFilingSettings.aiSuggest,
      updatedAt: emailFilingSettings.updatedAt,
    })
    .from(organizations)
    .leftJoin(emailFilingSettings, eq(emailFilingSettings.organizationId, organizations.id))
    .where(eq(organizations.id, organizationId));
  if (!row) return undefined;
  // Every organization gets its row when created; a missing one reads as the default (off).
  return { organizationId: row.organizationId, aiSuggest: row.aiSuggest ?? false, updatedAt: row.updatedAt ?? null };
}

/** The current row, locked for this transaction (created with the defaults first if missing). */
export async function lockEmailFilingSettings(tx: Tx, organizationId: string): Promise<SettingsRow> {
  await tx.insert(emailFilingSettings).values({ organizationId, aiSuggest: false }).onConflictDoNothing();
  const [row] = await tx
    .select({
      organizationId: emailFilingSettings.organizationId,
      aiSuggest: emailFilingSettings.aiSuggest,
      updatedAt: emailFilingSettings.updatedAt,
    })
    .from(emailFilingSettings)
    .where(eq(emailFilingSettings.organizationId, organizationId))
    .for('update');
  return row!;
}

export async function writeEmailFilingSettings(
  tx: Tx,
  input: { organizationId: string; aiSuggest: boolean; updatedAt: Date; updatedById: string },
): Promise<void> {
  await tx
    .update(emailFilingSettings)
    .set({ aiSuggest: input.aiSuggest, updatedAt: input.updatedAt, updatedById: input.updatedById })
    .where(eq(emailFilingSettings.organizationId, input.organizationId));
}
