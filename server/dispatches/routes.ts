import { ProjectPath } from '../../shared/common.js';
import { CommsQuery, DispatchList } from '../../shared/comms.js';
import { EmailPath, EmailQuery, EmailRecord } from '../../shared/emails.js';
import { access, defineRoute } from '../http/route.js';
import { findEmail, listComms } from './service.js';

/** A project's dispatches, and one dispatch to one recipient by its mailer message id. */
export const dispatchRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/project/:projectId/comms',
    operationId: 'listProjectComms',
    summary: 'E-mail dispatches of a project, with per-recipient delivery status',
    description:
      '`recent` (default): newest first, cursor `{d, id}`. `largest`: most recipients first, ties by id, cursor ' +
      '`{n, id}`. Cursors are base64url JSON; a malformed one, or one of the other sort, is a 400. ' +
      '`from`/`to` are inclusive; a date-only `to` covers that whole UTC day.',
    tags: ['E-mail'],
    access: access.needs('email:read', 'project'),
    params: ProjectPath,
    query: CommsQuery,
    responses: { 200: { description: 'A page of dispatches', schema: DispatchList } },
    handler: ({ app, params, query }) => listComms(app.db, params.projectId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/email/:mailerMessageId',
    operationId: 'getEmail',
    summary: 'Get one e-mail (one recipient of a dispatch) by mailer message id',
    description:
      'Scope-checked through the e-mail’s project: outside the caller’s scope it does not exist (404). ' +
      'When the message went to several recipients, `recipient` is required (400 without it).',
    tags: ['E-mail'],
    access: access.needs('email:read'),
    params: EmailPath,
    query: EmailQuery,
    responses: { 200: { description: 'The Email record', schema: EmailRecord } },
    errors: { 404: 'No such e-mail in the caller’s scope, or no such recipient of it' },
    handler: ({ app, caller, params, query }) => findEmail(app.db, caller, params.mailerMessageId, query.recipient),
  }),
];
