import { z } from 'zod';
import { OrgActivityList, OrgActivityQuery } from '../../shared/activity.js';
import { Id, OrgPath, ProjectPath } from '../../shared/common.js';
import { DirectoryList, DirectoryQuery } from '../../shared/directory.js';
import { DocumentItem, DocumentPath, DocumentQuery } from '../../shared/documents.js';
import {
  FiledEmailDetail,
  FiledEmailList,
  FiledEmailListQuery,
  FiledEmailPath,
  FiledEmailSummary,
} from '../../shared/filing.js';
import { Report, ReportList, ReportListQuery, ReportPath } from '../../shared/reports.js';
import { listOrgActivity } from '../activity/service.js';
import { listDirectory } from '../directory/service.js';
import { getProjectDocument } from '../documents/service.js';
import { filedEmailDetail, listProjectEmails } from '../filing/service.js';
import { getReport, listReports } from '../reports/service.js';
import { restTool } from './rest-tool.js';
import { cursor, list, organizationId, pageSize, projectId, text } from './tool-args.js';

// Tools over the REST routes of filed e-mails, reports, the directory, the activity feed and one document: each
// names its route and says which REST request its arguments stand for (see rest-tool.ts).

const day = z.iso.date();

export const filedEmailsSearchTool = restTool({
  name: 'filed_emails_search',
  title: 'Search filed e-mails of a project',
  description: `Search the e-mails people received and filed into a project from Outlook (not the ones Sitefile sent:
see emails_search), newest filing first: subject, sender, recipients, a preview, attachment count, the document it was
filed to. Full-text search over subject, body, participants and attachments; filter by sender, recipient, document,
attachments and sent date. Up to 50 per call; pass nextCursor back as cursor. Read one with filed_email_read.`,
  operationId: 'listFiledEmails',
  params: ProjectPath,
  query: FiledEmailListQuery,
  input: z
    .object({
      organizationId,
      projectId,
      search: z.string().min(1).max(500).optional().describe('Words, e.g. "curtain wall leak"'),
      from: z.string().min(1).max(320).optional().describe('Sender address (exact)'),
      to: z.string().min(1).max(320).optional().describe('A To or Cc address (exact)'),
      documentId: Id.optional().describe('Only e-mails filed to this document (uid)'),
      hasAttachments: z.boolean().optional(),
      sentFrom: day.optional().describe('Sent on or after this day (YYYY-MM-DD)'),
      sentTo: day.optional().describe('Sent on or before this day (YYYY-MM-DD)'),
      limit: pageSize(50),
      cursor,
    })
    .strict(),
  output: FiledEmailList.extend({ data: z.array(FiledEmailSummary) }),
  request: (args) => ({
    params: { orgId: args.organizationId, projectId: args.projectId },
    query: {
      search: args.search,
      from: args.from,
      to: args.to,
      documentId: args.documentId,
      hasAttachments: text(args.hasAttachments),
      sentAt: args.sentFrom || args.sentTo ? `${args.sentFrom ?? ''},${args.sentTo ?? ''}` : undefined,
      limit: text(args.limit),
      cursor: args.cursor,
    },
  }),
  answer: ({ app, params, query }) => listProjectEmails(app, params.projectId, query),
});

export const filedEmailReadTool = restTool({
  name: 'filed_email_read',
  title: 'Read one filed e-mail',
  description: `One e-mail filed into a project (id from filed_emails_search): headers, the whole text body, its thread,
its attachments with signed download URLs (valid for minutes, no token needed) and where else it is filed.`,
  operationId: 'getFiledEmail',
  params: FiledEmailPath,
  input: z
    .object({ organizationId, projectId, emailId: Id.describe('Filed e-mail id (from filed_emails_search)') })
    .strict(),
  output: FiledEmailDetail,
  request: (args) => ({ params: { orgId: args.organizationId, projectId: args.projectId, emailId: args.emailId } }),
  answer: ({ app, caller, params }) => filedEmailDetail(app, caller, params.projectId, params.emailId),
});

export const reportsListTool = restTool({
  name: 'reports_list',
  title: 'List reports of a project',
  description: `A project's reports (site reports, inspections, meeting minutes …), every version, newest first;
isLatestVersion marks the current ones. Up to 50 per call; pass nextCursor back as cursor. Read one with report_read.`,
  operationId: 'listProjectReports',
  params: ProjectPath,
  query: ReportListQuery,
  input: z.object({ organizationId, projectId, limit: pageSize(50), cursor }).strict(),
  output: ReportList,
  request: (args) => ({
    params: { orgId: args.organizationId, projectId: args.projectId },
    query: { limit: text(args.limit), cursor: args.cursor },
  }),
  answer: ({ app, params, query }) => listReports(app, params.projectId, query),
});

export const reportReadTool = restTool({
  name: 'report_read',
  title: 'Read one report',
  description: `One report of a project (id from reports_list): its sections and items, attendees, and a signed
download URL of the PDF (valid for minutes, no token needed).`,
  operationId: 'getProjectReport',
  params: ReportPath,
  input: z.object({ organizationId, projectId, reportId: Id.describe('Report id (from reports_list)') }).strict(),
  output: Report,
  request: (args) => ({ params: { orgId: args.organizationId, projectId: args.projectId, reportId: args.reportId } }),
  answer: ({ app, params }) => getReport(app, params.projectId, params.reportId),
});

export const directorySearchTool = restTool({
  name: 'directory_search',
  title: 'Search the people of an organization',
  description: `The organization's directory by name: name, e-mail, company, phone, title. search matches name,
e-mail or company. Up to 50 per call; pass nextCursor back as cursor.`,
  operationId: 'listOrganizationDirectory',
  params: OrgPath,
  query: DirectoryQuery,
  input: z
    .object({
      organizationId,
      search: z.string().min(1).max(200).optional().describe('Part of a name, e-mail or company'),
      limit: pageSize(50),
      cursor,
    })
    .strict(),
  output: DirectoryList,
  request: (args) => ({
    params: { orgId: args.organizationId },
    query: { search: args.search, limit: text(args.limit), cursor: args.cursor },
  }),
  answer: ({ app, caller, params, query }) => listDirectory(app, caller, params.orgId, query),
});

export const activityFeedTool = restTool({
  name: 'activity_feed',
  title: 'Read the activity feed of an organization',
  description: `What happened in an organization's projects, newest first: who did what to which document (status
changes, comments, uploads, e-mails sent …). Filter by project, actor, action and a date or date-time window
(inclusive; a date-only 'to' covers that whole UTC day). Up to 50 per call; pass nextCursor back as cursor.`,
  operationId: 'listOrganizationActivity',
  params: OrgPath,
  query: OrgActivityQuery,
  input: z
    .object({
      organizationId,
      projectId: Id.optional().describe('Only this project'),
      actorId: Id.optional().describe('Only what this person did (user uid)'),
      action: z
        .array(z.string().min(1).max(100))
        .min(1)
        .max(20)
        .optional()
        .describe('Any of these actions, e.g. status_changed, comment_added, file_uploaded, email_sent'),
      from: z.string().max(40).optional().describe('On or after: YYYY-MM-DD or an ISO 8601 date-time with its zone'),
      to: z.string().max(40).optional().describe('On or before: YYYY-MM-DD (the whole day) or a date-time'),
      limit: pageSize(50),
      cursor,
    })
    .strict(),
  output: OrgActivityList,
  request: (args) => ({
    params: { orgId: args.organizationId },
    query: {
      projectId: args.projectId,
      actorId: args.actorId,
      action: list(args.action),
      from: args.from,
      to: args.to,
      limit: text(args.limit),
      cursor: args.cursor,
    },
  }),
  answer: ({ app, caller, params, query }) => listOrgActivity(app, caller, params.orgId, query).page(),
});

export const documentReadTool = restTool({
  name: 'document_read',
  title: 'Read one document',
  description: `One document of a project by its uid (from documents_list, submittals_list or the activity feed),
whatever its format: number (id), title, status, priority, due and issue dates; with include, its activity count,
assignees and consultants.`,
  operationId: 'getProjectDocument',
  params: DocumentPath,
  query: DocumentQuery,
  input: z
    .object({
      organizationId,
      projectId,
      documentUid: Id.describe('Document uid'),
      include: z
        .array(z.enum(['activityCount', 'assignees', 'consultants']))
        .max(3)
        .optional()
        .describe('Extra fields to add'),
    })
    .strict(),
  output: DocumentItem,
  request: (args) => ({
    params: { orgId: args.organizationId, projectId: args.projectId, documentUid: args.documentUid },
    query: { include: list(args.include) },
  }),
  answer: ({ app, params, query }) => getProjectDocument(app, params.projectId, params.documentUid, query),
});
