import { z } from 'zod';
import { Cursor, listEnvelope, pageLimit, strictQuery, Timestamp } from './common.js';

export const DirectoryQuery = strictQuery({
  cursor: Cursor,
  limit: pageLimit(20),
  search: z
    .string()
    .trim()
    .min(1, { error: 'search must not be empty' })
    .max(200, { error: 'search must be at most 200 characters' })
    .optional()
    .meta({ description: 'Case-insensitive contains-match on name, e-mail or company' }),
});

export const DirectoryEntry = z
  .object({
    uid: z.string().meta({ description: 'Directory entry (membership) UID' }),
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    company: z.string().nullable(),
    phone: z.string().nullable(),
    title: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'DirectoryEntry' });

export const DirectoryList = listEnvelope(DirectoryEntry);

export type DirectoryEntry = z.infer<typeof DirectoryEntry>;
