import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { DateWindow } from '../activity/date-window.js';
import type { Db } from '../db/connection.js';
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

const afterPosition = (position: CommsPosition | undefined) => {
  if (!position) return undefined;
  return position.sort === 'recent'
    ? sql`(${dispatches.dispatchedAt}, ${dispatches.id}) < (${position.d}::timestamptz, ${position.id})`
    : sql`(${dispatches.recipientCount}, ${dispatches.id}) < (${position.n}, ${position.id})`;
};

export type DispatchRow = Awaited<ReturnType<typeof dispatchPage>>[number];

/** One page (plus one row) of a project's dispatches: newest first, or most recipients first; ties by id. */
export function dispatchPage(
  db: Db,
  f: CommsFilters,
  sort: 'recent' | 'largest',
  position: CommsPosition | undefined,
  limit: number,
) {
  const primary = sort === 'recent' ? dispatches.dispatchedAt : dispatches.recipientCount;
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
    .where(and(commsConditions(f), afterPosition(position)))
    .orderBy(desc(primary), desc(dispatches.id))
    .limit(limit + 1);
}
