import { z } from 'zod';
import { Id, Timestamp } from './common.js';

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
