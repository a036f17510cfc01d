import { z } from 'zod';
import {
  Cursor,
  commaList,
  csvCapableLimit,
  DateBound,
  Id,
  listEnvelope,
  pageLimit,
  queryFlag,
  strictQuery,
  Timestamp,
} from './common.js';
import { EmailRecord } from './emails.js';

/**
 * A `from`/`to` bound: a date (YYYY-MM-DD, a whole UTC day) or a date-time with `Z` or an offset
 * (normalised to UTC). Date-times without a zone are refused rather than guessed.
 */
export const OrgActivityQuery = strictQuery({
  cursor: Cursor,
  limit: csvCapableLimit,
  from: DateBound.optional(),
  to: DateBound.optional(),
  projectId: Id.optional(),
  actorId: Id.optional().meta({ description: 'User UID of the actor' }),
  action: commaList(500)
    .optional()
    .meta({ description: 'Comma-separated OR, e.g. status_changed,comment_added,file_uploaded,email_sent' }),
});

export const Actor = z.object({
  uid: z.string().nullable().meta({ description: 'User UID; null for system or API-key actions' }),
  name: z.string(),
  email: z.string(),
});

export const OrgActivityEntry = z
  .object({
    uid: z.string(),
    organizationId: z.string(),
    projectId: z.string().nullable(),
    projectName: z.string().nullable(),
    documentId: z.string().nullable(),
    actor: Actor,
    action: z.string(),
    title: z.string(),
    details: z.record(z.string(), z.unknown()).nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'OrgActivityEntry' });

export const OrgActivityList = listEnvelope(OrgActivityEntry).extend({
  total: z.number().int().meta({ description: 'Entries matching the filters, over all pages' }),
});

export const DocumentActivityPath = z.object({ documentId: Id });

export const DocumentActivityQuery = strictQuery({
  cursor: Cursor,
  limit: pageLimit(25),
  includeEmails: queryFlag({ absent: false, error: 'includeEmails must be true or false' }),
});

export const DocumentActivityEntry = z
  .object({
    uid: z.string(),
    documentId: z.string(),
    actor: Actor,
    action: z.string(),
    title: z.string(),
    details: z.record(z.string(), z.unknown()).nullable(),
    createdAt: Timestamp,
    emails: z.array(EmailRecord).optional().meta({
      description:
        'Only with includeEmails=true, on email_sent entries: the Email record of each recipient of that send, by recipient e-mail',
    }),
  })
  .meta({ id: 'DocumentActivityEntry' });

export const DocumentActivityList = listEnvelope(DocumentActivityEntry);

export type OrgActivityEntry = z.infer<typeof OrgActivityEntry>;
export type DocumentActivityEntry = z.infer<typeof DocumentActivityEntry>;
