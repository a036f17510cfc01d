import { z } from 'zod';
import { Cursor, pageLimit, strictQuery, Timestamp } from './common.js';

const text = (max: number) => z.string().trim().min(1).max(max);

export const CreateSupportIssueBody = z
  .strictObject({ title: text(200), description: text(10_000), approach: text(10_000) })
  .meta({ id: 'CreateSupportIssue' });

export const SupportIssue = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string().meta({ description: 'What goes wrong' }),
    approach: z.string().meta({ description: 'How staff resolve it' }),
    createdAt: Timestamp,
    createdBy: z.string().meta({ description: 'E-mail of the staff member who wrote it' }),
  })
  .meta({ id: 'SupportIssue' });

export const SupportIssueResponse = z.object({ data: SupportIssue });

export const RunbookQuery = strictQuery({
  search: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Words that must all appear in title, description or approach (case-insensitive)' }),
  cursor: Cursor,
  limit: pageLimit(25),
});

export const Runbook = z
  .object({
    data: z.array(SupportIssue),
    total: z.number().int().meta({ description: 'Entries matching the search' }),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
  })
  .meta({ id: 'Runbook' });

export type SupportIssue = z.infer<typeof SupportIssue>;
export type CreateSupportIssueBody = z.infer<typeof CreateSupportIssueBody>;
