import { OrgPath, ProjectPath } from '../../shared/common.js';
import { CommsQuery, DispatchList } from '../../shared/comms.js';
import {
  EmailPath,
  EmailQuery,
  EmailRecord,
  SentEmailList,
  SentEmailSearchQuery,
  SentEmailTimeline,
  SentEmailTimelineQuery,
} from '../../shared/emails.js';
import { access, defineRoute } from '../http/route.js';
import { findEmail, listComms, searchOrgSentEmails, sentEmailTimeline } from './service.js';

const tags = ['E-mail'];
const narrowed =
  'Narrowed to a project or document: one of another organization is a 404, one outside the caller’s projects a 403.';

/** What the two sent-e-mail routes of an organization share: read access in the organization, its path. */
const orgSentEmails = { method: 'get' as const, tags, access: access.needs('email:read', 'org'), params: OrgPath };

/** A project's dispatches, one dispatch to one recipient by its mailer message id, and an organization's sent e-mail. */
export const dispatchRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/project/:projectId/comms',
    operationId: 'listProjectComms',
    summary: 'E-mail dispatches of a project, with per-recipient delivery status',
    description:
      '`recent` (default): newest first. `largest`: most recipients first, ties by id. Cursors are opaque and ' +
      'signed: an edited one, or one of another sort or other filters, is a 400. ' +
      '`from`/`to` are inclusive; a date-only `to` covers that whole UTC day.',
    tags,
    access: access.needs('email:read', 'project'),
    params: ProjectPath,
    query: CommsQuery,
    responses: { 200: { description: 'A page of dispatches', schema: DispatchList } },
    handler: ({ app, params, query }) => listComms(app, params.projectId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/email/:mailerMessageId',
    operationId: 'getEmail',
    summary: 'Get one e-mail (one recipient of a dispatch) by mailer message id',
    description:
      'Scope-checked through the e-mail’s project: outside the caller’s scope it does not exist (404). ' +
      'When the message went to several recipients, `recipient` is required (400 without it).',
    tags,
    access: access.needs('email:read'),
    params: EmailPath,
    query: EmailQuery,
    responses: { 200: { description: 'The Email record', schema: EmailRecord } },
    errors: { 404: 'No such e-mail in the caller’s scope, or no such recipient of it' },
    handler: ({ app, caller, params, query }) => findEmail(app.db, caller, params.mailerMessageId, query.recipient),
  }),
  defineRoute({
    ...orgSentEmails,
    path: '/v1/organization/:orgId/sent-emails',
    operationId: 'searchSentEmails',
    summary: 'Search the e-mails sent for the organization’s projects (one record per recipient)',
    description:
      'Newest sent first, unsent records last. Subject words, sender, recipient, date window and delivery ' +
      `status; within the projects the caller reaches. ${narrowed}`,
    query: SentEmailSearchQuery,
    responses: { 200: { description: 'A page of sent e-mails', schema: SentEmailList } },
    errors: { 404: 'No such project or document in the organization' },
    handler: ({ app, caller, params, query }) => searchOrgSentEmails(app, caller, params.orgId, query),
  }),
  defineRoute({
    ...orgSentEmails,
    path: '/v1/organization/:orgId/sent-emails/timeline',
    operationId: 'sentEmailTimeline',
    summary: 'The delivery timeline of one document’s, project’s or message’s e-mails',
    description:
      'sent → delivered → opened, or bounced / failed, per recipient, oldest first; each page holds `limit` ' +
      `e-mail records. Exactly one of documentId, projectId, mailerMessageId. ${narrowed}`,
    query: SentEmailTimelineQuery,
    responses: { 200: { description: 'A page of delivery events', schema: SentEmailTimeline } },
    errors: { 404: 'No such project, document or message in the organization' },
    handler: ({ app, caller, params, query }) => sentEmailTimeline(app, caller, params.orgId, query),
  }),
];
