import { EmailPath, EmailQuery, EmailRecord } from '../../shared/emails.js';
import { access, defineRoute } from '../http/route.js';
import { findEmail } from './service.js';

export const emailRoutes = [
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
