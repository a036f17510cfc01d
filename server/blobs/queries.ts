import { asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import {
  blobReleases,
  drawingBundles,
  drawingRevisions,
  filedEmailAttachments,
  filedEmails,
  reports,
} from '../db/schema.js';

/** Notes that these blobs lost a reference at `at` (the latest release counts). */
export async function releaseBlobs(tx: Tx, keys: readonly string[], at: Date): Promise<void> {
  const unique = [...new Set(keys)];
  if (unique.length === 0) return;
  await tx
    .insert(blobReleases)
    .values(unique.map((blobKey) => ({ blobKey, releasedAt: at })))
    .onConflictDoUpdate({
      target: blobReleases.blobKey,
      set: { releasedAt: sql`greatest(${blobReleases.releasedAt}, excluded.released_at)` },
    });
}

/** Releases at or before `before`, oldest first, locked for this sweep (another instance's sweep skips them). */
export function claimDueReleases(tx: Tx, before: Date, limit: number) {
  return tx
    .select({ blobKey: blobReleases.blobKey })
    .from(blobReleases)
    .where(lte(blobReleases.releasedAt, before))
    .orderBy(asc(blobReleases.releasedAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function dropRelease(tx: Tx, blobKey: string): Promise<void> {
  await tx.delete(blobReleases).where(eq(blobReleases.blobKey, blobKey));
}

/** Of these keys, those a row still refers to: a filed e-mail, an attachment, a drawing or a report. */
export async function referencedBlobKeys(db: Db | Tx, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const list = [...keys];
  const columns = [
    filedEmails.rawBlobKey,
    filedEmails.htmlBlobKey,
    filedEmailAttachments.blobKey,
    drawingRevisions.blobKey,
    drawingBundles.blobKey,
    reports.pdfBlobKey,
  ];
  const found: { key: string | null }[] = [];
  // One after another: in a transaction the queries share one connection.
  for (const column of columns) {
    found.push(...(await db.select({ key: column }).from(column.table).where(inArray(column, list))));
  }
  return new Set(found.flatMap((row) => (row.key ? [row.key] : [])));
}
