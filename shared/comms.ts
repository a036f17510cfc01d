import { z } from 'zod';
import { Cursor, commaList, DateBound, Id, listEnvelope, pageLimit, strictQuery, Timestamp } from './common.js';

export const CommsQuery = strictQuery({
  actionType: commaList(500).optional().meta({
    description: 'Comma-separated OR: IssueDocument, ForwardDocument, ResponderResponse, ReviewerResponse, …',
  }),
  sender: z
    .email({ error: 'sender must be an e-mail address' })
    .max(320)
    .optional()
    .meta({ description: 'Sender e-mail, exact match, case-insensitive' }),
  from: DateBound.optional(),
  to: DateBound.optional(),
  sort: z
    .enum(['recent', 'largest'], { error: 'sort must be recent or largest' })
    .default('recent')
    .meta({ description: '`recent`: newest first. `largest`: most recipients first (ties by id)' }),
  documentId: Id.optional().meta({ description: 'Only dispatches about this document of the project' }),
  cursor: Cursor,
  limit: pageLimit(20),
});

export const recipientStatuses = ['Failed', 'Bounced', 'Opened', 'Delivered', 'Pending'] as const;

export const DispatchRecipient = z.object({
  uid: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  status: z.enum(recipientStatuses).meta({
    description:
      'The furthest state reached, in this precedence: Failed (not sent), Bounced, Opened, Delivered, Pending',
  }),
  sentAt: Timestamp.nullable(),
  deliveredAt: Timestamp.nullable(),
  openedAt: Timestamp.nullable(),
  bouncedAt: Timestamp.nullable(),
  bounceType: z.string().nullable(),
  bounceSubtype: z.string().nullable(),
});

export const DispatchSummary = z
  .object({
    total: z.number().int(),
    delivered: z.number().int().meta({ description: 'Delivered, not (yet) opened' }),
    bounced: z.number().int(),
    opened: z.number().int(),
    pending: z.number().int(),
    failed: z.number().int(),
  })
  .meta({ description: 'Recipients by status: the five counters always add up to total' });

export const Dispatch = z
  .object({
    id: z.string(),
    activityId: z.string().nullable(),
    actionType: z.string(),
    title: z.string(),
    project: z.object({ uid: z.string(), name: z.string() }),
    documentId: z.string().nullable(),
    reportId: z.string().nullable(),
    sender: z.object({ uid: z.string().nullable(), name: z.string(), email: z.string() }),
    dispatchedAt: Timestamp,
    recipients: z.array(DispatchRecipient),
    summary: DispatchSummary,
  })
  .meta({ id: 'Dispatch' });

export const DispatchList = listEnvelope(Dispatch);

export type Dispatch = z.infer<typeof Dispatch>;
export type DispatchRecipient = z.infer<typeof DispatchRecipient>;
