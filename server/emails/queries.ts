import { asc, eq, getTableColumns, inArray } from 'drizzle-orm';
import type { EmailRecord } from '../../shared/emails.js';
import type { Db } from '../db/connection.js';
import { emailMessages, projects } from '../db/schema.js';

const emailColumns = { ...getTableColumns(emailMessages), projectName: projects.name };

export type EmailRow = Awaited<ReturnType<typeof emailsByMailerId>>[number];

/** Every recipient row of one mailer message (a message to several recipients has several rows). */
export function emailsByMailerId(db: Db, mailerMessageId: string) {
  return db
    .select(emailColumns)
    .from(emailMessages)
    .leftJoin(projects, eq(projects.id, emailMessages.projectId))
    .where(eq(emailMessages.mailerMessageId, mailerMessageId))
    .orderBy(asc(emailMessages.recipientEmail), asc(emailMessages.id))
    .limit(10_000);
}

/** The recipient rows of several dispatches in one query, by dispatch then recipient e-mail. */
export function emailsOfDispatches(db: Db, dispatchIds: readonly string[]) {
  return db
    .select(emailColumns)
    .from(emailMessages)
    .leftJoin(projects, eq(projects.id, emailMessages.projectId))
    .where(inArray(emailMessages.dispatchId, [...dispatchIds]))
    .orderBy(asc(emailMessages.dispatchId), asc(emailMessages.recipientEmail), asc(emailMessages.id));
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

export const toEmailRecord = (row: EmailRow): EmailRecord => ({
  mailerMessageId: row.mailerMessageId,
  recipientEmail: row.recipientEmail,
  recipientName: row.recipientName,
  recipientUid: row.recipientUid,
  senderEmail: row.senderEmail,
  senderName: row.senderName,
  senderUid: row.senderUid,
  actionType: row.actionType,
  documentId: row.documentId,
  projectId: row.projectId,
  projectName: row.projectName,
  activityTitle: row.activityTitle,
  sentAt: iso(row.sentAt),
  createdAt: row.createdAt.toISOString(),
  sentToMailer: iso(row.sentToMailer),
  send: iso(row.send),
  delivery: iso(row.delivery),
  firstOpened: iso(row.firstOpened),
  lastOpened: iso(row.lastOpened),
  bounce: iso(row.bounce),
  bounceType: row.bounceType,
  bounceSubtype: row.bounceSubtype,
  notSentReason: row.notSentReason,
  notSent: row.notSent ?? null,
});

/** Groups rows by a key, keeping their order. */
export function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
