import { z } from 'zod';
import { Cursor, commaList, DateBound, Id, listEnvelope, pageLimit, strictQuery, Timestamp } from './common.js';

/** The spec's Email record: one dispatch to one recipient, with its delivery timestamps. */
export const EmailRecord = z
  .object({
    mailerMessageId: z.string(),
    recipientEmail: z.string(),
    recipientName: z.string(),
    recipientUid: z.string().nullable(),
    senderEmail: z.string(),
    senderName: z.string(),
    senderUid: z.string().nullable(),
    actionType: z.string(),
    documentId: z.string().nullable(),
    projectId: z.string(),
    projectName: z.string().nullable(),
    activityTitle: z.string(),
    sentAt: Timestamp.nullable(),
    createdAt: Timestamp,
    sentToMailer: Timestamp.nullable(),
    send: Timestamp.nullable(),
    delivery: Timestamp.nullable(),
    firstOpened: Timestamp.nullable(),
    lastOpened: Timestamp.nullable(),
    bounce: Timestamp.nullable(),
    bounceType: z.string().nullable(),
    bounceSubtype: z.string().nullable(),
    notSentReason: z.string().nullable(),
    notSent: z
      .unknown()
      .meta({ description: "The mailer's not-sent record as it gave it; null when the e-mail was sent" }),
  })
  .meta({ id: 'EmailRecord' });

export const EmailPath = z.object({ mailerMessageId: Id });

export const EmailQuery = strictQuery({
  recipient: z
    .email({ error: 'recipient must be an e-mail address' })
    .max(320)
    .optional()
    .meta({ description: 'Recipient e-mail (case-insensitive); required when the message went to several recipients' }),
});

export type EmailRecord = z.infer<typeof EmailRecord>;

/** The furthest state an e-mail reached: failed (not sent), bounced, opened, delivered, else pending. */
export const emailDeliveryStatuses = ['delivered', 'opened', 'bounced', 'pending', 'failed'] as const;

export const SentEmailSearchQuery = strictQuery({
  projectId: Id.optional().meta({ description: 'Only e-mails of this project of the organization' }),
  documentId: Id.optional().meta({ description: 'Only e-mails about this document (uid)' }),
  text: z.string().min(1).max(500).optional().meta({ description: 'Words in the subject (activity title)' }),
  sender: z.string().min(1).max(320).optional().meta({ description: 'Part of the sender e-mail or name' }),
  recipient: z.string().min(1).max(320).optional().meta({ description: 'Part of the recipient e-mail or name' }),
  from: DateBound.optional().meta({ description: 'Sent on or after (YYYY-MM-DD or an ISO 8601 date-time)' }),
  to: DateBound.optional().meta({ description: 'Sent on or before (a date-only value covers that whole UTC day)' }),
  status: commaList(100)
    .pipe(z.array(z.enum(emailDeliveryStatuses)).min(1).max(5))
    .optional()
    .meta({ description: 'Comma-separated OR of delivery statuses: delivered, opened, bounced, pending, failed' }),
  cursor: Cursor,
  limit: pageLimit(20),
});

export const SentEmail = EmailRecord.extend({ deliveryStatus: z.enum(emailDeliveryStatuses) }).meta({
  id: 'SentEmail',
});
export const SentEmailList = listEnvelope(SentEmail);

export const SentEmailTimelineQuery = strictQuery({
  documentId: Id.optional().meta({ description: 'Every e-mail about this document (uid)' }),
  projectId: Id.optional().meta({ description: 'Every e-mail of this project' }),
  mailerMessageId: Id.optional().meta({ description: 'One sent message (all its recipients)' }),
  cursor: Cursor,
  limit: pageLimit(50).meta({ description: 'E-mail records per page (each gives 1–4 events)' }),
}).refine((q) => [q.documentId, q.projectId, q.mailerMessageId].filter(Boolean).length === 1, {
  error: 'Give exactly one of documentId, projectId or mailerMessageId',
  path: ['documentId'],
});

export const timelineEvents = ['sent', 'delivered', 'opened', 'bounced', 'failed'] as const;
export const TimelineEvent = z.object({
  at: Timestamp,
  event: z.enum(timelineEvents),
  mailerMessageId: z.string(),
  recipientEmail: z.string(),
  recipientName: z.string(),
  senderEmail: z.string(),
  activityTitle: z.string(),
  documentId: z.string().nullable(),
  projectId: z.string(),
  detail: z.string().nullable().meta({ description: 'Bounce type/subtype, or why it was not sent' }),
});
export const SentEmailTimeline = z
  .object({ events: z.array(TimelineEvent), nextCursor: z.string().nullable(), hasMore: z.boolean() })
  .meta({ id: 'SentEmailTimeline' });

export type SentEmail = z.infer<typeof SentEmail>;
export type TimelineEvent = z.infer<typeof TimelineEvent>;
