import { z } from 'zod';
import { Cursor, Id, listEnvelope, pageLimit, strictQuery, Timestamp } from './common.js';

export const ReportPath = z.object({ orgId: Id, projectId: Id, reportId: Id });

export const ReportListQuery = strictQuery({ cursor: Cursor, limit: pageLimit(25) });

export const ReportSection = z.object({
  uid: z.string(),
  position: z.number().int(),
  title: z.string(),
  items: z.array(z.object({ text: z.string(), status: z.string().optional() })),
});

export const ReportAttendee = z.object({
  uid: z.string(),
  name: z.string(),
  company: z.string().nullable(),
  role: z.string().nullable(),
  present: z.boolean(),
});

export const ReportDistributionUser = z.object({
  uid: z.string(),
  userId: z.string().nullable(),
  name: z.string(),
  email: z.string(),
});

const reportFields = {
  uid: z.string(),
  type: z.string().meta({ description: '`report`' }),
  format: z.string().meta({ description: '`report`' }),
  reportKind: z.string().meta({ description: 'daily, site-visit, meeting minutes, …' }),
  status: z.string(),
  title: z.string(),
  date: Timestamp,
  location: z.string(),
  version: z.string(),
  isLatestVersion: z.boolean(),
  createdAt: Timestamp,
  createdByName: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  sectionCount: z.number().int(),
  itemCount: z.number().int(),
  observations: z.string(),
  weather: z.string(),
  issuedAt: Timestamp.nullable(),
  issuedByName: z.string().nullable(),
  downloadUrl: z.string().nullable().meta({
    description: 'Time-limited signed URL of the PDF (no bearer token needed); null when the report has no PDF yet',
  }),
  downloadUrlExpiresAt: Timestamp.nullable(),
};

export const ReportListItem = z.object(reportFields).meta({ id: 'ReportListItem' });

export const Report = z
  .object({
    ...reportFields,
    sections: z.array(ReportSection),
    attendees: z.array(ReportAttendee),
    distributionUsers: z.array(ReportDistributionUser),
  })
  .meta({ id: 'Report' });

export const ReportList = listEnvelope(ReportListItem);

export const ReportSummary = z
  .object({
    data: z.object({
      organizationId: z.string(),
      total: z.number().int(),
      byType: z.array(z.object({ type: z.string(), count: z.number().int() })),
      byStatus: z.array(z.object({ status: z.string(), count: z.number().int() })),
      byTypeAndStatus: z.array(z.object({ type: z.string(), status: z.string(), count: z.number().int() })),
      latestVersionsOnly: z.literal(true).meta({ description: 'Superseded versions of a report are not counted' }),
    }),
  })
  .meta({ id: 'ReportSummary' });

export type Report = z.infer<typeof Report>;
export type ReportListItem = z.infer<typeof ReportListItem>;
