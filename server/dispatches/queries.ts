import { and, asc, desc, eq, getTableColumns, gte, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { DispatchRecipient } from '../../shared/comms.js';
import type { EmailRecord } from '../../shared/emails.js';
import type { KeysetPosition } from '../cursor.js';
import type { DateWindow } from '../date-window.js';
import type { Db } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { likeContains } from '../db/like.js';
import { selectRows } from '../db/rows.js';
import { dispatches, documents, emailMessages, projects } from '../db/schema.js';
import { isoUtc } from '../db/sql-text.js';

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

export type DispatchRow = Awaited<ReturnType<typeof dispatchPage>>[number];

/** One page (plus one row) of a project's dispatches: newest first, or most recipients first; ties by id. */
export function dispatchPage(
  db: Db,
  f: CommsFilters,
  sort: 'recent' | 'largest',
  /** After this row: its dispatchedAt (ISO 8601) for `recent`, its recipient count for `largest`. */
  position: KeysetPosition<string | number> | undefined,
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
    .where(and(commsConditions(f), order.after(position)))
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

/** An e-mail's delivery status in SQL, over the table (or alias) `table`: the precedence of `emailDeliveryStatuses`. */
export const emailDeliveryStatusSql = (table: string) =>
  `(CASE WHEN ${table}.not_sent_reason IS NOT NULL OR ${table}.not_sent IS NOT NULL THEN 'failed'` +
  ` WHEN ${table}.bounce IS NOT NULL THEN 'bounced'` +
  ` WHEN ${table}.first_opened IS NOT NULL THEN 'opened'` +
  ` WHEN ${table}.delivery IS NOT NULL THEN 'delivered' ELSE 'pending' END)`;

const emailStatus = sql.raw(emailDeliveryStatusSql('"email_messages"'));
const sentEmailColumns = { ...emailColumns, deliveryStatus: sql<string>`${emailStatus}` };
const newestSentFirst = keysetOrder(emailMessages.sentAt, emailMessages.id, 'desc', 'timestamptz');
const oldestFirst = keysetOrder(emailMessages.createdAt, emailMessages.id, 'asc', 'timestamptz');

/** The e-mails of one organization in the projects the caller sees there: all of them, or these. */
export interface SentEmailScope {
  orgId: string;
  projects: 'all' | readonly string[];
}

function scopeCondition({ orgId, projects: visible }: SentEmailScope): SQL {
  const org = eq(emailMessages.organizationId, orgId);
  if (visible === 'all') return org;
  return visible.length === 0 ? sql`false` : (and(org, inArray(emailMessages.projectId, [...visible])) as SQL);
}

export interface SentEmailSearch {
  scope: SentEmailScope;
  projectId?: string;
  documentId?: string;
  text?: string;
  sender?: string;
  recipient?: string;
  /** Bounds on sentAt. */
  sent: DateWindow;
  statuses?: readonly string[];
  limit: number;
  /** Keyset of the last row: sentAt (null when unsent) and id. */
  after?: KeysetPosition<string | null>;
}

function searchConditions(search: SentEmailSearch): SQL[] {
  const e = emailMessages;
  const conditions: SQL[] = [scopeCondition(search.scope)];
  if (search.projectId) conditions.push(eq(e.projectId, search.projectId));
  if (search.documentId) conditions.push(eq(e.documentId, search.documentId));
  if (search.text) conditions.push(sql`${e.activityTitle} ilike ${likeContains(search.text)}`);
  for (const [value, email, name] of [
    [search.sender, e.senderEmail, e.senderName],
    [search.recipient, e.recipientEmail, e.recipientName],
  ] as const) {
    if (value) conditions.push(sql`(${email} ilike ${likeContains(value)} or ${name} ilike ${likeContains(value)})`);
  }
  if (search.sent.from) conditions.push(gte(e.sentAt, search.sent.from));
  if (search.sent.before) conditions.push(lt(e.sentAt, search.sent.before));
  if (search.statuses?.length) conditions.push(inArray(sql`${emailStatus}`, [...search.statuses]));
  return conditions;
}

/**
 * Newest first by sentAt, unsent records after every sent one, id as tiebreak; up to limit + 1 rows so
 * the caller sees hasMore. Sent and unsent records are read as two ordered ranges (one after the other)
 * so each walks the (organization, sent_at, id) index instead of sorting the organization's mail.
 */
export async function searchSentEmails(db: Db, search: SentEmailSearch) {
  const e = emailMessages;
  const conditions = searchConditions(search);
  const select = (where: (SQL | undefined)[]) =>
    db
      .select(sentEmailColumns)
      .from(e)
      .leftJoin(projects, eq(projects.id, e.projectId))
      .where(and(...where));
  const wanted = search.limit + 1;
  const after = search.after;
  const rows: Awaited<ReturnType<typeof select>> = [];
  if (!after || after.key !== null) {
    const sentAfter = after && after.key !== null ? { key: after.key, id: after.id } : undefined;
    const sent = [...conditions, isNotNull(e.sentAt), newestSentFirst.after(sentAfter)];
    rows.push(
      ...(await select(sent)
        .orderBy(...newestSentFirst.orderBy)
        .limit(wanted)),
    );
  }
  // Date filters only match sent records; the unsent range is read only when the sent one ran out.
  if (rows.length < wanted && !search.sent.from && !search.sent.before) {
    const unsent = [...conditions, isNull(e.sentAt)];
    if (after?.key === null) unsent.push(sql`${e.id} < ${after.id}`);
    rows.push(
      ...(await select(unsent)
        .orderBy(desc(e.id))
        .limit(wanted - rows.length)),
    );
  }
  return rows;
}

export type SentEmailRow = Awaited<ReturnType<typeof searchSentEmails>>[number];

export interface SentEmailTimelineQuery {
  scope: SentEmailScope;
  documentId?: string;
  projectId?: string;
  mailerMessageId?: string;
  limit: number;
  after?: KeysetPosition;
}

/** The e-mail records of one document, project or mailer message, oldest first, one page. */
export function sentEmailsForTimeline(db: Db, query: SentEmailTimelineQuery) {
  const e = emailMessages;
  const conditions: SQL[] = [scopeCondition(query.scope)];
  if (query.documentId) conditions.push(eq(e.documentId, query.documentId));
  if (query.projectId) conditions.push(eq(e.projectId, query.projectId));
  if (query.mailerMessageId) conditions.push(eq(e.mailerMessageId, query.mailerMessageId));
  return db
    .select(sentEmailColumns)
    .from(e)
    .leftJoin(projects, eq(projects.id, e.projectId))
    .where(and(...conditions, oldestFirst.after(query.after)))
    .orderBy(...oldestFirst.orderBy)
    .limit(query.limit + 1);
}

/** The organization and project of a document, when there is one. */
export async function findDocumentProject(db: Db, documentId: string) {
  const [row] = await db
    .select({ organizationId: documents.organizationId, projectId: documents.projectId })
    .from(documents)
    .where(eq(documents.id, documentId));
  return row;
}

/** The distinct organization/project pairs of one mailer message's records. */
export function findMessageProjects(db: Db, mailerMessageId: string) {
  return db
    .selectDistinct({ organizationId: emailMessages.organizationId, projectId: emailMessages.projectId })
    .from(emailMessages)
    .where(eq(emailMessages.mailerMessageId, mailerMessageId));
}

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
