// The mail the project sent: dispatches (one send to many recipients) and each recipient's e-mail.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tenantRow, ts } from './columns.js';

/** A project dispatch (one send to many recipients); recipient_count is kept for the `largest` sort. */
export const dispatches = pgTable(
  'dispatches',
  {
    ...tenantRow(),
    projectId: text('project_id').notNull(),
    documentId: text('document_id'),
    reportId: text('report_id'),
    activityId: text('activity_id'),
    actionType: text('action_type').notNull(),
    senderId: text('sender_id'),
    senderName: text('sender_name').notNull(),
    senderEmail: text('sender_email').notNull(),
    title: text('title').notNull(),
    dispatchedAt: ts('dispatched_at').notNull(),
    recipientCount: integer('recipient_count').notNull(),
  },
  (t) => [
    index('dispatches_project_recent_idx').on(t.projectId, t.dispatchedAt, t.id),
    index('dispatches_project_largest_idx').on(t.projectId, t.recipientCount, t.id),
    index('dispatches_document_idx').on(t.documentId, t.dispatchedAt),
    index('dispatches_project_sender_idx').on(t.projectId, sql`lower(sender_email)`, t.dispatchedAt),
  ],
);

/** The spec's Email record: one dispatch to one recipient, with its delivery events. */
export const emailMessages = pgTable(
  'email_messages',
  {
    ...tenantRow(),
    projectId: text('project_id').notNull(),
    dispatchId: text('dispatch_id').notNull(),
    mailerMessageId: text('mailer_message_id').notNull(),
    recipientEmail: text('recipient_email').notNull(),
    recipientName: text('recipient_name').notNull(),
    recipientUid: text('recipient_uid'),
    senderEmail: text('sender_email').notNull(),
    senderName: text('sender_name').notNull(),
    senderUid: text('sender_uid'),
    actionType: text('action_type').notNull(),
    documentId: text('document_id'),
    activityTitle: text('activity_title').notNull(),
    sentAt: ts('sent_at'),
    createdAt: createdAt(),
    sentToMailer: ts('sent_to_mailer'),
    send: ts('send'),
    delivery: ts('delivery'),
    firstOpened: ts('first_opened'),
    lastOpened: ts('last_opened'),
    bounce: ts('bounce'),
    bounceType: text('bounce_type'),
    bounceSubtype: text('bounce_subtype'),
    notSentReason: text('not_sent_reason'),
    notSent: jsonb('not_sent'),
  },
  (t) => [
    index('email_messages_mailer_idx').on(t.mailerMessageId),
    index('email_messages_dispatch_idx').on(t.dispatchId),
    index('email_messages_project_sent_idx').on(t.projectId, t.sentAt, t.id),
    index('email_messages_org_sent_idx').on(t.organizationId, t.sentAt, t.id),
  ],
);
