import type { z } from 'zod';
import type { CommsQuery, Dispatch, DispatchRecipient } from '../../shared/comms.js';
import type { EmailRecord } from '../../shared/emails.js';
import { type Caller, canAccessProject } from '../auth/caller.js';
import { cutPage } from '../cursor.js';
import { dateWindow } from '../date-window.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { type CommsPosition, decodeCommsCursor, encodeCommsCursor } from './cursor.js';
import {
  type DispatchRow,
  dispatchPage,
  emailsByMailerId,
  groupBy,
  type RecipientRow,
  recipientsOfDispatches,
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

const positionAfter = (row: DispatchRow, sort: Query['sort']): CommsPosition =>
  sort === 'recent'
    ? { sort, d: row.dispatchedAt.toISOString(), id: row.id }
    : { sort, n: row.recipientCount, id: row.id };

/** A page of a project's dispatches with every recipient's status, in two queries. */
export async function listComms(db: Db, projectId: string, query: Query) {
  const filters = {
    projectId,
    actionTypes: query.actionType,
    sender: query.sender?.toLowerCase(),
    documentId: query.documentId,
    ...dateWindow(query.from, query.to),
  };
  const position = query.cursor === undefined ? undefined : decodeCommsCursor(query.cursor, query.sort);
  const rows = await dispatchPage(db, filters, query.sort, position, query.limit);
  const { page, nextCursor, hasMore } = cutPage(rows, query.limit, (last) =>
    encodeCommsCursor(positionAfter(last, query.sort)),
  );
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
