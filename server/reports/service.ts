import type { z } from 'zod';
import type { Report, ReportListItem, ReportListQuery, ReportSummary } from '../../shared/reports.js';
import type { AppContext } from '../context.js';
import { createdAtPage } from '../cursor.js';
import type { Db } from '../db/connection.js';
import { signDownload } from '../downloads/signing.js';
import { ApiError } from '../errors.js';
import {
  attendeesOf,
  distributionOf,
  findReport,
  latestReportCounts,
  organizationExists,
  type ReportRow,
  reportPage,
  sectionCounts,
  sectionsOf,
} from './queries.js';

type Row = NonNullable<ReportRow>;

/** A file name for the PDF: the title, without characters that trouble file systems. */
const pdfName = (row: Row) =>
  `${
    row.title
      .replace(/[\\/:*?"<>|\r\n]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || 'report'
  } v${row.version}.pdf`;

function toListItem(
  app: Pick<AppContext, 'config' | 'clock' | 'downloadKey'>,
  row: Row,
  counts = { sectionCount: 0, itemCount: 0 },
) {
  const download = row.pdfBlobKey
    ? signDownload(app, { blobKey: row.pdfBlobKey, fileName: pdfName(row), contentType: 'application/pdf' })
    : undefined;
  const item: ReportListItem = {
    uid: row.id,
    type: row.type,
    format: row.format,
    reportKind: row.reportKind,
    status: row.status,
    title: row.title,
    date: row.date.toISOString(),
    location: row.location,
    version: row.version,
    isLatestVersion: row.isLatestVersion,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    projectId: row.projectId,
    projectName: row.projectName,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    sectionCount: counts.sectionCount,
    itemCount: counts.itemCount,
    observations: row.observations,
    weather: row.weather,
    issuedAt: row.issuedAt?.toISOString() ?? null,
    issuedByName: row.issuedByName,
    downloadUrl: download?.url ?? null,
    downloadUrlExpiresAt: download?.expiresAt ?? null,
  };
  return item;
}

export async function getReport(app: AppContext, projectId: string, reportId: string): Promise<Report> {
  const row = await findReport(app.db, projectId, reportId);
  if (!row) throw ApiError.notFound('Report');
  const [sections, attendees, distribution] = await Promise.all([
    sectionsOf(app.db, reportId),
    attendeesOf(app.db, reportId),
    distributionOf(app.db, reportId),
  ]);
  const counts = {
    sectionCount: sections.length,
    itemCount: sections.reduce((sum, section) => sum + section.items.length, 0),
  };
  return {
    ...toListItem(app, row, counts),
    sections: sections.map((s) => ({ uid: s.id, position: s.position, title: s.title, items: s.items })),
    attendees: attendees.map((a) => ({
      uid: a.id,
      name: a.name,
      company: a.company,
      role: a.role,
      present: a.present,
    })),
    distributionUsers: distribution.map((d) => ({ uid: d.id, userId: d.userId, name: d.name, email: d.email })),
  };
}

export async function listReports(app: AppContext, projectId: string, query: z.output<typeof ReportListQuery>) {
  const binding = { list: 'reports', projectId };
  const { page, nextCursor, hasMore } = await createdAtPage(app.cursorKey, binding, query, (after) =>
    reportPage(app.db, projectId, after, query.limit),
  );
  const counts = await sectionCounts(
    app.db,
    page.map((row) => row.id),
  );
  return { data: page.map((row) => toListItem(app, row, counts.get(row.id))), nextCursor, hasMore };
}

const byCountThenName =
  <T extends { count: number }>(key: (item: T) => string) =>
  (a: T, b: T) =>
    b.count - a.count || key(a).localeCompare(key(b));

/** Counts of the organization's reports by kind and status; superseded versions are not counted. */
export async function reportSummary(db: Db, orgId: string): Promise<z.infer<typeof ReportSummary>> {
  if (!(await organizationExists(db, orgId))) throw ApiError.notFound('Organization');
  const cells = await latestReportCounts(db, orgId);
  const sum = (keyOf: (cell: (typeof cells)[number]) => string) => {
    const totals = new Map<string, number>();
    for (const cell of cells) totals.set(keyOf(cell), (totals.get(keyOf(cell)) ?? 0) + cell.count);
    return [...totals];
  };
  return {
    data: {
      organizationId: orgId,
      total: cells.reduce((total, cell) => total + cell.count, 0),
      byType: sum((c) => c.type)
        .map(([type, count]) => ({ type, count }))
        .sort(byCountThenName((x) => x.type)),
      byStatus: sum((c) => c.status)
        .map(([status, count]) => ({ status, count }))
        .sort(byCountThenName((x) => x.status)),
      byTypeAndStatus: cells.sort(byCountThenName((x) => `${x.type}\u0000${x.status}`)),
      latestVersionsOnly: true,
    },
  };
}
