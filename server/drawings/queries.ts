import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../db/connection.js';
import { drawingBundles, drawingPackages, drawingRevisions, drawings, projects } from '../db/schema.js';

export async function findPackage(db: Db, packageId: string) {
  const [row] = await db
    .select({ id: drawingPackages.id, projectId: drawingPackages.projectId })
    .from(drawingPackages)
    .where(eq(drawingPackages.id, packageId));
  return row;
}

export async function findProject(db: Db, projectId: string) {
  const [row] = await db
    .select({ id: projects.id, organizationId: projects.organizationId, name: projects.name })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row;
}

export interface LatestSheet {
  drawingId: string;
  number: string;
  title: string;
  revisionId: string | null;
  revision: string | null;
  blobKey: string | null;
  fileSize: number | null;
}

/** Every drawing of the project (or package) with its latest revision (highest sequence), if any. */
export async function latestSheets(
  db: Db,
  scope: { organizationId: string; projectId: string; packageId?: string },
): Promise<LatestSheet[]> {
  const filters: SQL[] = [eq(drawings.organizationId, scope.organizationId), eq(drawings.projectId, scope.projectId)];
  if (scope.packageId) filters.push(eq(drawings.packageId, scope.packageId));
  return db
    .selectDistinctOn([drawings.id], {
      drawingId: drawings.id,
      number: drawings.number,
      title: drawings.title,
      revisionId: drawingRevisions.id,
      revision: drawingRevisions.revision,
      blobKey: drawingRevisions.blobKey,
      fileSize: drawingRevisions.fileSize,
    })
    .from(drawings)
    .leftJoin(drawingRevisions, eq(drawingRevisions.drawingId, drawings.id))
    .where(and(...filters))
    .orderBy(drawings.id, desc(drawingRevisions.sequence));
}

export type BundleRow = typeof drawingBundles.$inferSelect;

export async function findBundle(db: Db, organizationId: string, cacheKey: string): Promise<BundleRow | undefined> {
  const [row] = await db
    .select()
    .from(drawingBundles)
    .where(and(eq(drawingBundles.organizationId, organizationId), eq(drawingBundles.cacheKey, cacheKey)));
  return row;
}

/** Stores (or refreshes, when its file had gone) the bundle built for a cache key. */
export async function saveBundle(db: Db, row: typeof drawingBundles.$inferInsert): Promise<void> {
  await db
    .insert(drawingBundles)
    .values(row)
    .onConflictDoUpdate({
      target: [drawingBundles.organizationId, drawingBundles.cacheKey],
      set: {
        blobKey: row.blobKey,
        drawingCount: row.drawingCount,
        totalSourceBytes: row.totalSourceBytes,
        skippedDrawings: row.skippedDrawings,
        createdAt: row.createdAt,
      },
    });
}
