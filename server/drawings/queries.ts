import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { KeysetPosition } from '../cursor.js';
import type { Db } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { drawingBundles, drawingPackages, drawingRevisions, drawings, projects } from '../db/schema.js';
import { isoUtc } from '../db/sql-text.js';

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

export interface DrawingFilter {
  organizationId: string;
  projectId: string;
  packageId?: string;
  drawingId?: string;
}

const bySheetNumber = keysetOrder(drawings.number, drawings.id, 'asc');

/** The latest revision of `drawings` (highest sequence), as one JSON object or null. */
const latestRevision = sql<LatestRevisionRow | null>`(select json_build_object('id', r.id, 'revision', r.revision,
    'fileName', r.file_name, 'fileSize', r.file_size, 'uploadedAt', ${isoUtc(sql`r.uploaded_at`)}, 'blobKey', r.blob_key)
  from drawing_revisions r where r.drawing_id = drawings.id order by r.sequence desc limit 1)`;

export interface LatestRevisionRow {
  id: string;
  revision: string;
  fileName: string;
  fileSize: number;
  /** ISO 8601 in UTC. */
  uploadedAt: string;
  blobKey: string | null;
}

export type DrawingRow = Awaited<ReturnType<typeof drawingPage>>[number];

/** Drawings of the project by sheet number then id, `limit` of them after `position`, each with its latest revision. */
export function drawingPage(db: Db, filter: DrawingFilter, position: KeysetPosition | undefined, limit: number) {
  return db
    .select({
      id: drawings.id,
      number: drawings.number,
      title: drawings.title,
      discipline: drawings.discipline,
      packageId: drawings.packageId,
      createdAt: drawings.createdAt,
      latestRevision,
    })
    .from(drawings)
    .where(
      and(
        eq(drawings.organizationId, filter.organizationId),
        eq(drawings.projectId, filter.projectId),
        filter.packageId ? eq(drawings.packageId, filter.packageId) : undefined,
        filter.drawingId ? eq(drawings.id, filter.drawingId) : undefined,
        bySheetNumber.after(position),
      ),
    )
    .orderBy(...bySheetNumber.orderBy)
    .limit(limit);
}
