import { and, count, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { KeysetPosition } from '../cursor.js';
import type { DateWindow } from '../date-window.js';
import type { Db, Tx } from '../db/connection.js';
import type { CsvColumn } from '../db/csv-cells.js';
import { keysetOrder } from '../db/keyset.js';
import { activity, activityCounts, documents, projects } from '../db/schema.js';
import { isoUtc } from '../db/sql-text.js';
import { newId } from '../ids.js';
import { emitEvent } from '../outbox/queries.js';

export interface OrgActivityFilters extends DateWindow {
  organizationId: string;
  /** The caller's reach inside the organization ('all', or only these projects). */
  visibleProjects: 'all' | readonly string[];
  projectId?: string;
  actorId?: string;
  actions?: readonly string[];
}

function orgFeedConditions(f: OrgActivityFilters): SQL | undefined {
  return and(
    eq(activity.organizationId, f.organizationId),
    f.visibleProjects === 'all' ? undefined : inArray(activity.projectId, [...f.visibleProjects]),
    f.projectId === undefined ? undefined : eq(activity.projectId, f.projectId),
    f.actorId === undefined ? undefined : eq(activity.actorId, f.actorId),
    f.actions?.length ? inArray(activity.action, [...f.actions]) : undefined,
    f.from ? gte(activity.createdAt, f.from) : undefined,
    f.before ? lt(activity.createdAt, f.before) : undefined,
  );
}

const newestFirst = keysetOrder(activity.createdAt, activity.id, 'desc', 'timestamptz');

const entryColumns = {
  id: activity.id,
  organizationId: activity.organizationId,
  projectId: activity.projectId,
  projectName: projects.name,
  documentId: activity.documentId,
  actorId: activity.actorId,
  actorName: activity.actorName,
  actorEmail: activity.actorEmail,
  action: activity.action,
  title: activity.title,
  details: activity.details,
  dispatchId: activity.dispatchId,
  createdAt: activity.createdAt,
};

export type ActivityRow = Awaited<ReturnType<typeof orgActivityPage>>[number];

/** One page (plus one row to tell whether there is more) of the organization feed, newest first. */
export function orgActivityPage(db: Db, f: OrgActivityFilters, position: KeysetPosition | undefined, limit: number) {
  return db
    .select(entryColumns)
    .from(activity)
    .leftJoin(projects, eq(projects.id, activity.projectId))
    .where(and(orgFeedConditions(f), newestFirst.after(position)))
    .orderBy(...newestFirst.orderBy)
    .limit(limit + 1);
}

/**
 * The feed's exact total. Filtered only by project (the caller's reach, `projectId`): the sum of the kept
 * counts (activity_counts, a few rows); filtered by actor, action or dates: counting the rows.
 */
export async function countOrgActivity(db: Db, f: OrgActivityFilters): Promise<number> {
  if (f.actorId !== undefined || f.actions?.length || f.from || f.before) {
    const [row] = await db.select({ total: count() }).from(activity).where(orgFeedConditions(f));
    return Number(row?.total ?? 0);
  }
  const [row] = await db
    .select({ total: sql<string | null>`sum(${activityCounts.n})` })
    .from(activityCounts)
    .where(
      and(
        eq(activityCounts.organizationId, f.organizationId),
        f.visibleProjects === 'all' ? undefined : inArray(activityCounts.projectId, [...f.visibleProjects]),
        f.projectId === undefined ? undefined : eq(activityCounts.projectId, f.projectId),
      ),
    );
  return Number(row?.total ?? 0);
}

/** The columns of the organization feed's CSV export. */
export const orgActivityCsvColumns: CsvColumn[] = [
  { header: 'uid', value: sql`${activity.id}` },
  { header: 'createdAt', value: isoUtc(activity.createdAt) },
  { header: 'projectId', value: sql`${activity.projectId}` },
  { header: 'projectName', value: sql`${projects.name}` },
  { header: 'documentId', value: sql`${activity.documentId}` },
  { header: 'actorUid', value: sql`${activity.actorId}` },
  { header: 'actorName', value: sql`${activity.actorName}` },
  { header: 'actorEmail', value: sql`${activity.actorEmail}` },
  { header: 'action', value: sql`${activity.action}` },
  { header: 'title', value: sql`${activity.title}` },
];

/** The organization feed for the CSV export: the query after its select list, ordered, without LIMIT. */
export function orgActivityCsvFrom(f: OrgActivityFilters, position: KeysetPosition | undefined): SQL {
  return sql`from ${activity} left join ${projects} on ${projects.id} = ${activity.projectId}
    where ${and(orgFeedConditions(f), newestFirst.after(position))}
    order by ${sql.join(newestFirst.orderBy, sql`, `)}`;
}

/** One page (plus one) of a document's history, newest first. */
export function documentActivityPage(db: Db, documentId: string, position: KeysetPosition | undefined, limit: number) {
  return db
    .select(entryColumns)
    .from(activity)
    .leftJoin(projects, eq(projects.id, activity.projectId))
    .where(and(eq(activity.documentId, documentId), newestFirst.after(position)))
    .orderBy(...newestFirst.orderBy)
    .limit(limit + 1);
}

export async function documentExists(db: Db, documentId: string): Promise<boolean> {
  const [row] = await db.select({ id: documents.id }).from(documents).where(eq(documents.id, documentId)).limit(1);
  return row !== undefined;
}

export interface ActivityInput {
  organizationId: string;
  projectId?: string | null;
  documentId?: string | null;
  /** Who did it (the caller will do): its id, name and e-mail are recorded. */
  actor: { id: string | null; name: string; email: string };
  action: string;
  title: string;
  details?: Record<string, unknown>;
  dispatchId?: string | null;
  at: Date;
}

/** The row of one activity entry: what the server records and what the seed generates. */
export const activityRow = (id: string, input: ActivityInput) => ({
  id,
  organizationId: input.organizationId,
  projectId: input.projectId ?? null,
  documentId: input.documentId ?? null,
  actorId: input.actor.id,
  actorName: input.actor.name,
  actorEmail: input.actor.email,
  action: input.action,
  title: input.title,
  details: input.details ?? null,
  dispatchId: input.dispatchId ?? null,
  createdAt: input.at,
});

/**
 * Records one activity row, and its `activity.created` webhook event in the outbox; call it inside the
 * transaction of the change it describes.
 */
export async function recordActivity(tx: Db | Tx, input: ActivityInput): Promise<string> {
  const id = newId('act');
  const row = activityRow(id, input);
  await tx.insert(activity).values(row);
  await emitEvent(tx, {
    organizationId: input.organizationId,
    projectId: row.projectId,
    type: 'activity.created',
    data: {
      uid: id,
      organizationId: row.organizationId,
      projectId: row.projectId,
      documentId: row.documentId,
      actor: { uid: row.actorId, name: row.actorName, email: row.actorEmail },
      action: row.action,
      title: row.title,
      details: row.details,
      createdAt: input.at.toISOString(),
    },
    at: input.at,
  });
  return id;
}
