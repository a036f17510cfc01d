import type { z } from 'zod';
import type { CommsQuery, Dispatch, DispatchRecipient } from '../../shared/comms.js';
import { cutPage } from '../cursor.js';
import { dateWindow } from '../date-window.js';
import type { Db } from '../db/connection.js';
import { type EmailRow, emailsOfDispatches, groupBy } from '../emails/queries.js';
import { type CommsPosition, decodeCommsCursor, encodeCommsCursor } from './cursor.js';
import { type DispatchRow, dispatchPage } from './queries.js';

type Query = z.output<typeof CommsQuery>;

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** The furthest state a recipient reached; one status each, so the summary counters add up to total. */
function statusOf(email: EmailRow): DispatchRecipient['status'] {
  if (email.notSentReason !== null || (email.notSent !== null && email.notSent !== undefined)) return 'Failed';
  if (email.bounce) return 'Bounced';
  if (email.firstOpened) return 'Opened';
  if (email.delivery) return 'Delivered';
  return 'Pending';
}

const toRecipient = (email: EmailRow): DispatchRecipient => ({
  uid: email.recipientUid,
  name: email.recipientName,
  email: email.recipientEmail,
  status: statusOf(email),
  sentAt: iso(email.sentAt),
  deliveredAt: iso(email.delivery),
  openedAt: iso(email.firstOpened),
  bouncedAt: iso(email.bounce),
  bounceType: email.bounceType,
  bounceSubtype: email.bounceSubtype,
});

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

function toDispatch(row: DispatchRow, emails: readonly EmailRow[]): Dispatch {
  const recipients = emails.map(toRecipient);
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
  const emails = groupBy(
    await emailsOfDispatches(
      db,
      page.map((row) => row.id),
    ),
    (email) => email.dispatchId,
  );
  return { data: page.map((row) => toDispatch(row, emails.get(row.id) ?? [])), nextCursor, hasMore };
}
