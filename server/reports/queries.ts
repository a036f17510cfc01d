import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { KeysetPosition } from '../cursor.js';
import type { Db } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { organizations, projects, reportAttendees, reportDistribution, reportSections, reports } from '../db/schema.js';

const reportColumns = {
  id: reports.id,
  type: reports.type,
  format: reports.format,
  reportKind: reports.reportKind,
  status: reports.status,
  title: reports.title,
  date: reports.date,
  location: reports.location,
  version: reports.version,
  isLatestVersion: reports.isLatestVersion,
  createdAt: reports.createdAt,
  createdByName: reports.createdByName,
  projectId: reports.projectId,
  projectName: projects.name,
  organizationId: reports.organizationId,
  organizationName: organizations.name,
  observations: reports.observations,
  weather: reports.weather,
  issuedAt: reports.issuedAt,
  issuedByName: reports.issuedByName,
  pdfBlobKey: reports.pdfBlobKey,
};

const selectReports = (db: Db) =>
  db
    .select(reportColumns)
    .from(reports)
    .innerJoin(projects, eq(projects.id, reports.projectId))
    .innerJoin(organizations, eq(organizations.id, reports.organizationId));

export type ReportRow = Awaited<ReturnType<typeof findReport>>;

/** The report with this id in this project (undefined when it belongs elsewhere). */
export async function findReport(db: Db, projectId: string, reportId: string) {
  const [row] = await selectReports(db)
    .where(and(eq(reports.id, reportId), eq(reports.projectId, projectId)))
    .limit(1);
  return row;
}

const newestFirst = keysetOrder(reports.createdAt, reports.id, 'desc', 'timestamptz');

/** One page (plus one row) of a project's reports, newest first. */
export function reportPage(db: Db, projectId: string, position: KeysetPosition | undefined, limit: number) {
  return selectReports(db)
    .where(and(eq(reports.projectId, projectId), newestFirst.after(position)))
    .orderBy(...newestFirst.orderBy)
    .limit(limit + 1);
}

/** Section and item counts of several reports in one query. */
export async function sectionCounts(db: Db, reportIds: readonly string[]) {
  if (reportIds.length === 0) return new Map<string, { sectionCount: number; itemCount: number }>();
  const rows = await db
    .select({
      reportId: reportSections.reportId,
      sectionCount: count(),
      itemCount: sql<string>`coalesce(sum(jsonb_array_length(${reportSections.items})), 0)`,
    })
    .from(reportSections)
    .where(inArray(reportSections.reportId, [...reportIds]))
    .groupBy(reportSections.reportId);
  return new Map(
    rows.map((row) => [row.reportId, { sectionCount: Number(row.sectionCount), itemCount: Number(row.itemCount) }]),
  );
}

// A report has tens of sections and attendees; the caps only guard against runaway data.
const PARTS_CAP = 1000;

export function sectionsOf(db: Db, reportId: string) {
  return db
    .select()
    .from(reportSections)
    .where(eq(reportSections.reportId, reportId))
    .orderBy(asc(reportSections.position), asc(reportSections.id))
    .limit(PARTS_CAP);
}

export function attendeesOf(db: Db, reportId: string) {
  return db
    .select()
    .from(reportAttendees)
    .where(eq(reportAttendees.reportId, reportId))
    .orderBy(asc(reportAttendees.name), asc(reportAttendees.id))
    .limit(PARTS_CAP);
}

export function distributionOf(db: Db, reportId: string) {
  return db
    .select()
    .from(reportDistribution)
    .where(eq(reportDistribution.reportId, reportId))
    .orderBy(asc(reportDistribution.name), asc(reportDistribution.id))
    .limit(PARTS_CAP);
}

export async function organizationExists(db: Db, orgId: string): Promise<boolean> {
  const [row] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, orgId));
  return row !== undefined;
}

/** Latest versions of an organization's reports counted by kind and status. */
export async function latestReportCounts(db: Db, orgId: string) {
  const rows = await db
    .select({ type: reports.reportKind, status: reports.status, count: count() })
    .from(reports)
    .where(and(eq(reports.organizationId, orgId), eq(reports.isLatestVersion, true)))
    .groupBy(reports.reportKind, reports.status);
  return rows.map((row) => ({ type: row.type, status: row.status, count: Number(row.count) }));
}
