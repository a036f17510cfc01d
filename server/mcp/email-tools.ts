import { z } from 'zod';
import { Id, OrgPath } from '../../shared/common.js';
import {
  emailDeliveryStatuses,
  SentEmailList,
  SentEmailSearchQuery,
  SentEmailTimeline,
  SentEmailTimelineQuery,
} from '../../shared/emails.js';
import { searchOrgSentEmails, sentEmailTimeline } from '../dispatches/service.js';
import { restTool } from './rest-tool.js';
import { cursor, list, organizationId, text } from './tool-args.js';

// The tools over the REST routes of sent e-mail (server/dispatches/routes.ts).

const DateOrTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const emailsSearchTool = restTool({
  name: 'emails_search',
  title: 'Search sent e-mails',
  description: `Search the e-mails Sitefile sent for an organization's projects (one record per recipient), newest
first. Filter by subject words, sender, recipient, project, document, date range and delivery status
(delivered, opened, bounced, pending, failed). Each record's mailerMessageId works with
GET /v1/email/{mailerMessageId} and with emails_timeline. Up to 50 per call; pass nextCursor back as cursor for more.`,
  operationId: 'searchSentEmails',
  params: OrgPath,
  query: SentEmailSearchQuery,
  input: z
    .object({
      organizationId,
      projectId: Id.optional().describe('Only e-mails of this project'),
      documentId: Id.optional().describe('Only e-mails about this document (uid)'),
      text: z.string().min(1).max(500).optional().describe('Words in the subject (activity title), e.g. "RFI-012"'),
      sender: z.string().min(1).max(320).optional().describe('Part of the sender e-mail or name'),
      recipient: z.string().min(1).max(320).optional().describe('Part of the recipient e-mail or name'),
      from: DateOrTime.optional().describe('Sent on or after (YYYY-MM-DD or ISO date-time)'),
      to: DateOrTime.optional().describe('Sent on or before (YYYY-MM-DD means through the end of that day)'),
      status: z.array(z.enum(emailDeliveryStatuses)).min(1).max(5).optional().describe('Delivery status, any of'),
      limit: z.number().int().min(1).max(50).optional().describe('Page size, 1–50 (default 20)'),
      cursor,
    })
    .strict(),
  output: SentEmailList,
  request: ({ organizationId, status, limit, ...filters }) => ({
    params: { orgId: organizationId },
    query: { ...filters, status: list(status), limit: text(limit) },
  }),
  answer: ({ app, caller, params, query }) => searchOrgSentEmails(app, caller, params.orgId, query),
});

export const emailsTimelineTool = restTool({
  name: 'emails_timeline',
  title: 'E-mail delivery timeline',
  description: `The chronological delivery story of e-mails: sent → delivered → opened, or bounced / failed, per recipient.
Give the organization and exactly one of documentId, projectId or mailerMessageId (from emails_search). Events are
oldest first; pages hold up to 50 e-mail records — pass nextCursor back as cursor for the next page.`,
  operationId: 'sentEmailTimeline',
  params: OrgPath,
  query: SentEmailTimelineQuery,
  input: z
    .object({
      organizationId,
      documentId: Id.optional().describe('Timeline of every e-mail about this document (uid)'),
      projectId: Id.optional().describe('Timeline of every e-mail of this project'),
      mailerMessageId: Id.optional().describe('Timeline of one sent message (all its recipients)'),
      limit: z.number().int().min(1).max(50).optional().describe('E-mail records per page (each gives 1-4 events)'),
      cursor,
    })
    .strict(),
  output: SentEmailTimeline,
  request: ({ organizationId, limit, ...subject }) => ({
    params: { orgId: organizationId },
    query: { ...subject, limit: text(limit) },
  }),
  answer: ({ app, caller, params, query }) => sentEmailTimeline(app, caller, params.orgId, query),
});
