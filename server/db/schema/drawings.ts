// Drawings: packages, drawings, their revisions and the PDF bundles made of them.
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, refersTo, tenantRow, ts } from './columns.js';

export const drawingPackages = pgTable(
  'drawing_packages',
  {
    ...tenantRow(),
    projectId: text('project_id').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('drawing_packages_project_idx').on(t.projectId)],
);

export const drawings = pgTable(
  'drawings',
  {
    ...tenantRow(),
    projectId: text('project_id').notNull(),
    packageId: text('package_id').references(() => drawingPackages.id),
    number: text('number').notNull(),
    title: text('title').notNull(),
    discipline: text('discipline'),
    createdAt: createdAt(),
  },
  (t) => [index('drawings_project_idx').on(t.projectId, t.number), index('drawings_package_idx').on(t.packageId)],
);

export const drawingRevisions = pgTable(
  'drawing_revisions',
  {
    ...tenantRow(),
    drawingId: refersTo('drawing_id', () => drawings.id, 'cascade'),
    revision: text('revision').notNull(),
    sequence: integer('sequence').notNull(),
    blobKey: text('blob_key'),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull().default(0),
    uploadedAt: ts('uploaded_at').notNull(),
  },
  (t) => [uniqueIndex('drawing_revisions_drawing_seq_idx').on(t.drawingId, t.sequence)],
);

export const drawingBundles = pgTable(
  'drawing_bundles',
  {
    ...tenantRow(),
    projectId: text('project_id').notNull(),
    packageId: text('package_id'),
    /** Hash of the ordered set of drawing revisions that went in: the same set reuses the bundle. */
    cacheKey: text('cache_key').notNull(),
    blobKey: text('blob_key'),
    drawingCount: integer('drawing_count').notNull(),
    totalSourceBytes: bigint('total_source_bytes', { mode: 'number' }).notNull(),
    skippedDrawings: jsonb('skipped_drawings')
      .$type<{ drawingId: string; number: string; reason: string }[]>()
      .notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('drawing_bundles_cache_idx').on(t.organizationId, t.cacheKey)],
);
