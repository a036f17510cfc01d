import { z } from 'zod';
import { Id, strictQuery, Timestamp } from './common.js';

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
