import { and, desc, eq, getTableColumns, gte, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { KeysetPosition } from '../cursor.js';
import type { DateWindow } from '../date-window.js';
import type { Db } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { likeContains } from '../db/like.js';
import { documents, emailMessages, organizations, projects } from '../db/schema.js';
import type { ScopeEntry } from '../explorer/compile.js';
import { emailDeliveryStatusSql } from '../explorer/entities.js';

/** Read queries behind the MCP tools that have no REST twin (e-mail search and timeline, project search). */

/** Rows of `organization_id`/`project_id` columns the scope reaches. */
export function scopeCondition(scope: readonly ScopeEntry[], orgColumn: SQL, projectColumn: SQL): SQL {
  const parts = scope.flatMap((entry): SQL[] => {
    if (entry.projects === 'all') return [sql`${orgColumn} = ${entry.orgId}`];
    if (entry.projects.length === 0) return [];
    return [
      sql`(${orgColumn} = ${entry.orgId} and ${projectColumn} in (${sql.join(
        entry.projects.map((id) => sql`${id}`),
        sql`, `,
      )}))`,
    ];
  });
  return parts.length > 0 ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

const emailStatus = sql.raw(emailDeliveryStatusSql('"email_messages"'));
const emailColumns = {
  ...getTableColumns(emailMessages),
  projectName: projects.name,
  deliveryStatus: sql<string>`${emailStatus}`,
};

const newestSentFirst = keysetOrder(emailMessages.sentAt, emailMessages.id, 'desc', 'timestamptz');
const oldestFirst = keysetOrder(emailMessages.createdAt, emailMessages.id, 'asc', 'timestamptz');
const projectsByName = keysetOrder(projects.name, projects.id, 'asc');

export interface EmailSearch {
  scope: readonly ScopeEntry[];
  projectId?: string;
  documentId?: string;
  text?: string;
  sender?: string;
  recipient?: string;
  /** Bounds on sentAt. */
  sent?: DateWindow;
  statuses?: readonly string[];
  limit: number;
  /** Keyset of the last row: sentAt (null when unsent) and id. */
  after?: KeysetPosition<string | null>;
}

/**
 * Newest first by sentAt, unsent records after every sent one, id as tiebreak; up to limit + 1 rows so
 * the caller sees hasMore. Sent and unsent records are read as two ordered ranges (one after the other)
 * so each walks the (organization, sent_at, id) index instead of sorting the organization's mail.
 */
export async function searchEmails(db: Db, search: EmailSearch) {
  const e = emailMessages;
  const conditions: SQL[] = [scopeCondition(search.scope, sql`${e.organizationId}`, sql`${e.projectId}`)];
  if (search.projectId) conditions.push(eq(e.projectId, search.projectId));
  if (search.documentId) conditions.push(eq(e.documentId, search.documentId));
  if (search.text) conditions.push(sql`${e.activityTitle} ilike ${likeContains(search.text)}`);
  if (search.sender) {
    const like = likeContains(search.sender);
    conditions.push(sql`(${e.senderEmail} ilike ${like} or ${e.senderName} ilike ${like})`);
  }
  if (search.recipient) {
    const like = likeContains(search.recipient);
    conditions.push(sql`(${e.recipientEmail} ilike ${like} or ${e.recipientName} ilike ${like})`);
  }
  if (search.sent?.from) conditions.push(gte(e.sentAt, search.sent.from));
  if (search.sent?.before) conditions.push(lt(e.sentAt, search.sent.before));
  if (search.statuses?.length) {
    conditions.push(
      sql`${emailStatus} in (${sql.join(
        search.statuses.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    );
  }
  const select = (where: (SQL | undefined)[]) =>
    db
      .select(emailColumns)
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
  if (rows.length < wanted && !search.sent?.from && !search.sent?.before) {
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

export type EmailSearchRow = Awaited<ReturnType<typeof searchEmails>>[number];

export interface EmailTimelineQuery {
  scope: readonly ScopeEntry[];
  documentId?: string;
  projectId?: string;
  mailerMessageId?: string;
  limit: number;
  after?: KeysetPosition;
}

/** The e-mail records of one document, project or mailer message, oldest first, one page. */
export function emailsForTimeline(db: Db, query: EmailTimelineQuery) {
  const e = emailMessages;
  const conditions: SQL[] = [scopeCondition(query.scope, sql`${e.organizationId}`, sql`${e.projectId}`)];
  if (query.documentId) conditions.push(eq(e.documentId, query.documentId));
  if (query.projectId) conditions.push(eq(e.projectId, query.projectId));
  if (query.mailerMessageId) conditions.push(eq(e.mailerMessageId, query.mailerMessageId));
  return db
    .select(emailColumns)
    .from(e)
    .leftJoin(projects, eq(projects.id, e.projectId))
    .where(and(...conditions, oldestFirst.after(query.after)))
    .orderBy(...oldestFirst.orderBy)
    .limit(query.limit + 1);
}

export async function findDocumentOwner(db: Db, documentId: string) {
  const [row] = await db
    .select({ organizationId: documents.organizationId, projectId: documents.projectId })
    .from(documents)
    .where(eq(documents.id, documentId));
  return row;
}

/** The distinct organization/project pairs of one mailer message's records. */
export function findMessageOwners(db: Db, mailerMessageId: string) {
  return db
    .selectDistinct({ organizationId: emailMessages.organizationId, projectId: emailMessages.projectId })
    .from(emailMessages)
    .where(eq(emailMessages.mailerMessageId, mailerMessageId));
}

export interface ProjectSearch {
  scope: readonly ScopeEntry[];
  text?: string;
  limit: number;
  after?: KeysetPosition;
}

/** Projects the caller reaches, by name, optionally matching a name or code fragment. */
export function findProjects(db: Db, search: ProjectSearch) {
  const conditions: SQL[] = [scopeCondition(search.scope, sql`${projects.organizationId}`, sql`${projects.id}`)];
  if (search.text) {
    const like = likeContains(search.text);
    conditions.push(sql`(${projects.name} ilike ${like} or ${projects.code} ilike ${like})`);
  }
  return db
    .select({
      id: projects.id,
      name: projects.name,
      code: projects.code,
      organizationId: projects.organizationId,
      organizationName: organizations.name,
    })
    .from(projects)
    .innerJoin(organizations, eq(organizations.id, projects.organizationId))
    .where(and(...conditions, projectsByName.after(search.after)))
    .orderBy(...projectsByName.orderBy)
    .limit(search.limit + 1);
}
