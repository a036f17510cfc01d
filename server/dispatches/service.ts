import type { z } from 'zod';
import type { CommsQuery, Dispatch, DispatchRecipient } from '../../shared/comms.js';
import type {
  EmailRecord,
  SentEmail,
  SentEmailSearchQuery,
  SentEmailTimelineQuery,
  TimelineEvent,
} from '../../shared/emails.js';
import { type Caller, canAccessProject, projectsInOrg } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { createdAtPage, cursorPosition, cutPage, type KeysetPosition, keysetCursor } from '../cursor.js';
import { dateWindow } from '../date-window.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import {
  type DispatchRow,
  dispatchPage,
  emailsByMailerId,
  findDocumentProject,
  findMessageProjects,
  groupBy,
  type RecipientRow,
  recipientsOfDispatches,
  type SentEmailRow,
  type SentEmailScope,
  searchSentEmails,
  sentEmailsForTimeline,
  toEmailRecord,
} from './queries.js';

type Query = z.output<typeof CommsQuery>;

const summaryKey = {
  Failed: 'failed',
  Bounced: 'bounced',
  Opened: 'opened',
  Delivered: 'delivered',
  Pending: 'pending',
} as const;

function summaryOf(recipients: readonly DispatchRecipient[]): Dispatch['summary'] {
  const summary = { total: recipients.length, delivered: 0, bounced: 0, opened: 0, pending: 0, failed: 0 };
  for (const recipient of recipients) summary[summaryKey[recipient.status]] += 1;
  return summary;
}

function toDispatch(row: DispatchRow, rows: readonly RecipientRow[]): Dispatch {
  const recipients = rows.map(({ dispatchId: _, ...recipient }) => recipient);
  return {
    id: row.id,
    activityId: row.activityId,
    actionType: row.actionType,
    title: row.title,
    project: { uid: row.projectId, name: row.projectName },
    documentId: row.documentId,
    reportId: row.reportId,
    sender: { uid: row.senderId, name: row.senderName, email: row.senderEmail },
    dispatchedAt: row.dispatchedAt.toISOString(),
    recipients,
    summary: summaryOf(recipients),
  };
}

/** Where a page of each sort starts: the last row's sort key (what kind of value a cursor must carry) and id. */
const commsSorts = {
  recent: { key: 'timestamp', positionOf: (row: DispatchRow) => ({ key: row.dispatchedAt.toISOString(), id: row.id }) },
  largest: { key: 'count', positionOf: (row: DispatchRow) => ({ key: row.recipientCount, id: row.id }) },
} as const;

/** A page of a project's dispatches with every recipient's status, in two queries. */
export async function listComms(app: Pick<AppContext, 'db' | 'cursorKey'>, projectId: string, query: Query) {
  const { db, cursorKey } = app;
  const { cursor, limit, ...listed } = query;
  const filters = {
    projectId,
    actionTypes: listed.actionType,
    sender: listed.sender?.toLowerCase(),
    documentId: listed.documentId,
    ...dateWindow(listed.from, listed.to),
  };
  // Signed like every list's cursor, bound to the project, the sort and the filters.
  const binding = { list: 'comms', projectId, listed };
  const sort = commsSorts[listed.sort];
  const position = cursorPosition(cursorKey, cursor, binding, sort.key);
  const rows = await dispatchPage(db, filters, listed.sort, position, limit);
  const { page, nextCursor, hasMore } = cutPage(rows, limit, keysetCursor(cursorKey, binding, sort.positionOf));
  const recipients = groupBy(
    await recipientsOfDispatches(
      db,
      page.map((row) => row.id),
    ),
    (recipient) => recipient.dispatchId,
  );
  return { data: page.map((row) => toDispatch(row, recipients.get(row.id) ?? [])), nextCursor, hasMore };
}

/**
 * One Email record by mailer message id. Rows outside the caller's scope do not exist for it (404).
 * A message sent to several recipients needs `recipient`; the error says nothing about who they are.
 */
export async function findEmail(
  db: Db,
  caller: Caller,
  mailerMessageId: string,
  recipient: string | undefined,
): Promise<EmailRecord> {
  const rows = (await emailsByMailerId(db, mailerMessageId)).filter((row) =>
    canAccessProject(caller.scope, row.organizationId, row.projectId),
  );
  if (rows.length === 0) throw ApiError.notFound('Email');
  if (recipient === undefined && rows.length > 1) {
    throw ApiError.badRequest('recipient query parameter is required');
  }
  const wanted = recipient?.toLowerCase();
  const row = wanted === undefined ? rows[0] : rows.find((r) => r.recipientEmail.toLowerCase() === wanted);
  if (!row) throw ApiError.notFound('Email');
  return toEmailRecord(row);
}

type SearchQuery = z.output<typeof SentEmailSearchQuery>;
type TimelineQuery = z.output<typeof SentEmailTimelineQuery>;

/**
 * The e-mails of `orgId` in the projects the caller reaches there, narrowed to a project or a document: one of
 * another organization is 404, one of the organization outside the caller's projects 403 (as the activity feed).
 */
async function sentEmailScope(
  { db, caches }: Pick<AppContext, 'db' | 'caches'>,
  caller: Caller,
  orgId: string,
  about: { projectId?: string; documentId?: string; mailerMessageId?: string },
): Promise<SentEmailScope> {
  const reachable = (projectId: string) => canAccessProject(caller.scope, orgId, projectId);
  if (about.projectId !== undefined) {
    if ((await caches.projectOwners.of(about.projectId)) !== orgId) throw ApiError.notFound('Project');
    if (!reachable(about.projectId)) throw ApiError.forbidden();
  }
  if (about.documentId !== undefined) {
    const document = await findDocumentProject(db, about.documentId);
    if (document?.organizationId !== orgId) throw ApiError.notFound('Document');
    if (!reachable(document.projectId)) throw ApiError.forbidden();
  }
  if (about.mailerMessageId !== undefined) {
    const owners = await findMessageProjects(db, about.mailerMessageId);
    if (!owners.some((o) => o.organizationId === orgId && reachable(o.projectId))) throw ApiError.notFound('Email');
  }
  return { orgId, projects: projectsInOrg(caller.scope, orgId) };
}

/** A search record's place: its sentAt (null: unsent, after every sent one) and id. */
const sentAtPosition = (row: SentEmailRow): KeysetPosition<string | null> => ({
  key: row.sentAt?.toISOString() ?? null,
  id: row.id,
});

const toSentEmail = (row: SentEmailRow): SentEmail => ({
  ...toEmailRecord(row),
  deliveryStatus: row.deliveryStatus as SentEmail['deliveryStatus'],
});

/** The organization's sent e-mails (one record per recipient), newest sent first, unsent last. */
export async function searchOrgSentEmails(
  app: Pick<AppContext, 'db' | 'caches' | 'cursorKey'>,
  caller: Caller,
  orgId: string,
  query: SearchQuery,
) {
  const { db, cursorKey } = app;
  const { cursor, limit, ...filters } = query;
  const scope = await sentEmailScope(app, caller, orgId, filters);
  const binding = { list: 'sent-emails', orgId, filters };
  const after = cursorPosition(cursorKey, cursor, binding, 'timestamp or null');
  const rows = await searchSentEmails(db, {
    ...filters,
    scope,
    sent: dateWindow(filters.from, filters.to),
    statuses: filters.status,
    limit,
    after,
  });
  const { page, hasMore, nextCursor } = cutPage(rows, limit, keysetCursor(cursorKey, binding, sentAtPosition));
  return { data: page.map(toSentEmail), nextCursor, hasMore };
}

function eventsOf(row: SentEmailRow): TimelineEvent[] {
  const common = {
    mailerMessageId: row.mailerMessageId,
    recipientEmail: row.recipientEmail,
    recipientName: row.recipientName,
    senderEmail: row.senderEmail,
    activityTitle: row.activityTitle,
    documentId: row.documentId,
    projectId: row.projectId,
  };
  const events: TimelineEvent[] = [];
  const add = (event: TimelineEvent['event'], at: Date | null, detail: string | null = null) => {
    if (at) events.push({ ...common, at: at.toISOString(), event, detail });
  };
  add('sent', row.sentAt ?? row.send ?? row.sentToMailer);
  add('delivered', row.delivery);
  add('opened', row.firstOpened);
  add('bounced', row.bounce, [row.bounceType, row.bounceSubtype].filter(Boolean).join(' / ') || null);
  if (row.notSentReason || row.notSent) add('failed', row.createdAt, row.notSentReason ?? 'not sent');
  return events;
}

/**
 * The delivery story of one document's, project's or mailer message's e-mails in the organization: sent →
 * delivered → opened, or bounced / failed, per recipient, oldest first; a page holds `limit` e-mail records.
 */
export async function sentEmailTimeline(
  app: Pick<AppContext, 'db' | 'caches' | 'cursorKey'>,
  caller: Caller,
  orgId: string,
  query: TimelineQuery,
) {
  const { db, cursorKey } = app;
  const { cursor, limit, ...subject } = query;
  const scope = await sentEmailScope(app, caller, orgId, subject);
  const binding = { list: 'sent-email-timeline', orgId, subject };
  const { page, hasMore, nextCursor } = await createdAtPage(cursorKey, binding, query, (after) =>
    sentEmailsForTimeline(db, { scope, ...subject, limit, after }),
  );
  return { events: page.flatMap(eventsOf).sort((a, b) => a.at.localeCompare(b.at)), nextCursor, hasMore };
}
