import { z } from 'zod';
import { Cursor, Id, listEnvelope, pageLimit, strictQuery, Timestamp } from './common.js';

export const BundleBody = z
  .strictObject({
    drawingPackageId: Id.optional().meta({ description: 'Only the drawings of this package (of the same project)' }),
  })
  .meta({ id: 'DrawingBundleRequest' });

export const AdminProjectPath = z.object({ projectId: Id });

export const skipReasons = [
  'no_revision',
  'missing_file',
  'empty_file',
  'file_too_large',
  'not_a_pdf',
  'encrypted',
  'unreadable_pdf',
] as const;

export const SkippedDrawing = z
  .object({
    drawingId: z.string(),
    number: z.string().meta({ description: 'Sheet number' }),
    reason: z.enum(skipReasons).meta({
      description:
        'no_revision: nothing uploaded yet; missing_file: the stored file is gone; empty_file: zero bytes; ' +
        'file_too_large: above the per-sheet limit; not_a_pdf: no PDF header; encrypted: password-protected; ' +
        'unreadable_pdf: damaged, or without pages',
    }),
  })
  .meta({ id: 'SkippedDrawing' });

export const DrawingBundle = z
  .object({
    downloadUrl: z
      .string()
      .nullable()
      .meta({ description: 'Time-limited signed URL of the merged PDF; null when no drawing could be included' }),
    expiresAt: Timestamp.nullable(),
    drawingCount: z.number().int().meta({ description: 'Drawings included (one bookmark each)' }),
    totalSourceBytes: z.number().int().meta({ description: 'Bytes of the source files included' }),
    skippedDrawings: z.array(SkippedDrawing),
  })
  .meta({ id: 'DrawingBundle' });

export type SkipReason = (typeof skipReasons)[number];
export type SkippedDrawing = z.infer<typeof SkippedDrawing>;
export type DrawingBundle = z.infer<typeof DrawingBundle>;

// --- Drawings of a project ---

export const DrawingListQuery = strictQuery({
  cursor: Cursor,
  limit: pageLimit(25),
  drawingPackageId: Id.optional().meta({ description: 'Only the drawings of this package' }),
});
export type DrawingListQuery = z.output<typeof DrawingListQuery>;

export const DrawingPath = z.object({
  orgId: Id,
  projectId: Id,
  drawingId: Id.meta({ description: 'The drawing id (`id` of a list row)' }),
});

export const DrawingRevision = z
  .object({
    id: z.string(),
    revision: z.string().meta({ description: 'Revision label, e.g. B' }),
    fileName: z.string(),
    fileSize: z.number().int().meta({ description: 'Bytes' }),
    uploadedAt: Timestamp,
  })
  .meta({ id: 'DrawingRevision' });

const drawingFields = {
  id: z.string(),
  number: z.string().meta({ description: 'Sheet number' }),
  title: z.string(),
  discipline: z.string().nullable(),
  drawingPackageId: z.string().nullable(),
  createdAt: Timestamp,
  latestRevision: DrawingRevision.nullable().meta({ description: 'The highest revision; null before any upload' }),
};

export const DrawingSummary = z.object(drawingFields).meta({ id: 'DrawingSummary' });
export type DrawingSummary = z.infer<typeof DrawingSummary>;

export const Drawing = z
  .object({
    ...drawingFields,
    downloadUrl: z.string().nullable().meta({
      description: "Time-limited signed URL of the latest revision's file; null when it has none",
    }),
    expiresAt: Timestamp.nullable(),
  })
  .meta({ id: 'Drawing' });
export type Drawing = z.infer<typeof Drawing>;

export const DrawingList = listEnvelope(DrawingSummary).meta({ id: 'DrawingList' });
