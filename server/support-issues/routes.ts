import { CreateSupportIssueBody, Runbook, RunbookQuery, SupportIssueResponse } from '../../shared/support-issues.js';
import { access, defineRoute } from '../http/route.js';
import { createSupportIssue, readRunbook } from './service.js';

export const supportIssueRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/admin/support-issues',
    operationId: 'adminCreateSupportIssue',
    summary: 'Record a support issue and how to resolve it (staff)',
    description: 'The runbook is invalidated on every instance, so its next read includes the new issue.',
    tags: ['Admin'],
    access: access.staff,
    body: CreateSupportIssueBody,
    responses: { 201: { description: 'Created', schema: SupportIssueResponse } },
    handler: async ({ app, caller, body }) => ({ data: await createSupportIssue(app, caller, body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/admin/runbook',
    operationId: 'adminRunbook',
    summary: 'The runbook: support issues as a searchable list, newest first (staff)',
    description: 'Served from a per-instance cache that every new support issue invalidates.',
    tags: ['Admin'],
    access: access.staff,
    query: RunbookQuery,
    responses: { 200: { description: 'One page of the runbook', schema: Runbook } },
    handler: ({ app, query }) => readRunbook(app, query),
  }),
];
