import { and, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { DateWindow } from '../date-window.js';
import type { Db } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { dispatches, projects } from '../db/schema.js';
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
