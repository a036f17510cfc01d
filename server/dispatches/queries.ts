import { and, asc, eq, getTableColumns, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { DispatchRecipient } from '../../shared/comms.js';
import type { EmailRecord } from '../../shared/emails.js';
import type { DateWindow } from '../date-window.js';
import type { Db } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { selectRows } from '../db/rows.js';
import { dispatches, emailMessages, projects } from '../db/schema.js';
import { isoUtc } from '../db/sql-text.js';
import type { CommsPosition } from './cursor.js';

export interface CommsFilters extends DateWindow {
  projectId: string;
  actionTypes?: readonly string[];
  /** Lower-cased sender e-mail. */
  sender?: string;
  documentId?: string;
}

function commsConditions(f: CommsFilters): SQL | undefined {
  return and(
    eq(dispatches.projectId, f.projectId),
    f.actionTypes?.length ? inArray(dispatches.actionType, [...f.actionTypes]) : undefined,
    f.sender === undefined ? undefined : sql`lower(${dispatches.senderEmail}) = ${f.sender}`,
    f.documentId === undefined ? undefined : eq(dispatches.documentId, f.documentId),
    f.from ? gte(dispatches.dispatchedAt, f.from) : undefined,
    f.before ? lt(dispatches.dispatchedAt, f.before) : undefined,
  );
}

const orders = {
  recent: keysetOrder(dispatches.dispatchedAt, dispatches.id, 'desc', 'timestamptz'),
  largest: keysetOrder(dispatches.recipientCount, dispatches.id, 'desc'),
};

/** The keyset position a comms cursor holds (its sort is the list's: decoding checked that). */
const keysetOf = (position: CommsPosition) => ({
  key: position.sort === 'recent' ? position.d : position.n,
  id: position.id,
});

export type DispatchRow = Awaited<ReturnType<typeof dispatchPage>>[number];

/** One page (plus one row) of a project's dispatches: newest first, or most recipients first; ties by id. */
export function dispatchPage(
  db: Db,
  f: CommsFilters,
  sort: 'recent' | 'largest',
  position: CommsPosition | undefined,
  limit: number,
) {
  const order = orders[sort];
  return db
    .select({
      id: dispatches.id,
      activityId: dispatches.activityId,
      actionType: dispatches.actionType,
      title: dispatches.title,
      projectId: dispatches.projectId,
      projectName: projects.name,
      documentId: dispatches.documentId,
      reportId: dispatches.reportId,
      senderId: dispatches.senderId,
      senderName: dispatches.senderName,
      senderEmail: dispatches.senderEmail,
      dispatchedAt: dispatches.dispatchedAt,
      recipientCount: dispatches.recipientCount,
    })
    .from(dispatches)
    .innerJoin(projects, eq(projects.id, dispatches.projectId))
    .where(and(commsConditions(f), order.after(position && keysetOf(position))))
    .orderBy(...order.orderBy)
    .limit(limit + 1);
}

const RecipientRow = DispatchRecipient.extend({ dispatchId: z.string() });
export type RecipientRow = z.output<typeof RecipientRow>;

const m = emailMessages;
/** A recipient's furthest state, in the precedence the wire documents (a JSON `null` in not_sent is not a failure). */
const recipientStatus = sql`case
  when ${m.notSentReason} is not null or coalesce(jsonb_typeof(${m.notSent}), 'null') <> 'null' then 'Failed'
  when ${m.bounce} is not null then 'Bounced'
  when ${m.firstOpened} is not null then 'Opened'
  when ${m.delivery} is not null then 'Delivered'
  else 'Pending' end`;

/** The SQL of `recipientsOfDispatches` (for its plan in bench/activity.ts). */
export const recipientsQuery = (dispatchIds: readonly string[]): SQL =>
  sql`select ${m.dispatchId} as "dispatchId", ${m.recipientUid} as "uid", ${m.recipientName} as "name",
    ${m.recipientEmail} as "email", ${recipientStatus} as "status", ${isoUtc(m.sentAt)} as "sentAt",
    ${isoUtc(m.delivery)} as "deliveredAt", ${isoUtc(m.firstOpened)} as "openedAt",
    ${isoUtc(m.bounce)} as "bouncedAt", ${m.bounceType} as "bounceType", ${m.bounceSubtype} as "bounceSubtype"
  from ${m} where ${inArray(m.dispatchId, [...dispatchIds])}
  order by ${m.dispatchId}, ${m.recipientEmail}, ${m.id}`;

/**
 * Every recipient of these dispatches in the API's shape, by dispatch then address: the database writes the
 * dates and the status, so no row becomes Date objects only to be written back as text (a page of the largest
 * dispatches has hundreds of recipients).
 */
export const recipientsOfDispatches = (db: Db, dispatchIds: readonly string[]): Promise<RecipientRow[]> =>
  selectRows(db, recipientsQuery(dispatchIds), RecipientRow);

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
