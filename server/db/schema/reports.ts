// Site and meeting reports: every version of one, its sections, attendees and distribution.
import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, refersTo, tenantRow, ts } from './columns.js';

export const reports = pgTable(
  'reports',
  {
    ...tenantRow(),
    projectId: text('project_id').notNull(),
    /** All versions of one report share a series. */
    seriesId: text('series_id').notNull(),
    type: text('type').notNull().default('report'),
    format: text('format').notNull().default('report'),
    reportKind: text('report_kind').notNull(),
    status: text('status').notNull(),
    title: text('title').notNull(),
    date: ts('date').notNull(),
    location: text('location').notNull().default(''),
    version: text('version').notNull(),
    isLatestVersion: boolean('is_latest_version').notNull(),
    createdAt: createdAt(),
    createdByName: text('created_by_name').notNull(),
    observations: text('observations').notNull().default(''),
    weather: text('weather').notNull().default(''),
    issuedAt: ts('issued_at'),
    issuedByName: text('issued_by_name'),
    pdfBlobKey: text('pdf_blob_key'),
  },
  (t) => [
    index('reports_project_created_idx').on(t.projectId, t.createdAt, t.id),
    index('reports_org_latest_idx').on(t.organizationId, t.isLatestVersion, t.reportKind, t.status),
  ],
);

/** The id and report of a row that belongs to one report version and goes with it. */
const partOfReport = () => ({ ...tenantRow(), reportId: refersTo('report_id', () => reports.id, 'cascade') });

export const reportSections = pgTable(
  'report_sections',
  {
    ...partOfReport(),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    items: jsonb('items').$type<{ text: string; status?: string }[]>().notNull().default([]),
  },
  (t) => [index('report_sections_report_idx').on(t.reportId, t.position)],
);

export const reportAttendees = pgTable(
  'report_attendees',
  {
    ...partOfReport(),
    name: text('name').notNull(),
    company: text('company'),
    role: text('role'),
    present: boolean('present').notNull().default(true),
  },
  (t) => [index('report_attendees_report_idx').on(t.reportId)],
);

export const reportDistribution = pgTable(
  'report_distribution',
  {
    ...partOfReport(),
    userId: text('user_id'),
    name: text('name').notNull(),
    email: text('email').notNull(),
  },
  (t) => [index('report_distribution_report_idx').on(t.reportId)],
);
