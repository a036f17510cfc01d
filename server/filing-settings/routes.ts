import type { z } from 'zod';
import { OrgPath } from '../../shared/common.js';
import {
  AdminOrgPath,
  EmailFilingSettingsResponse,
  UpdateEmailFilingSettingsBody,
} from '../../shared/email-filing-settings.js';
import { actorOf } from '../audit/service.js';
import { access, defineRoute, type HandlerContext } from '../http/route.js';
import { getEmailFilingSettings, updateEmailFilingSettings } from './service.js';

const responses = {
  200: { description: "The organization's e-mail filing settings", schema: EmailFilingSettingsResponse },
};
const errors = { 404: 'Organization not found' };

/** One handler for the staff PATCH and the organization admins' PATCH: same service, answer and activity entry. */
const update = async ({
  app,
  req,
  caller,
  params,
  body,
}: HandlerContext<{ orgId: string }, unknown, z.output<typeof UpdateEmailFilingSettingsBody>>) => ({
  data: await updateEmailFilingSettings(
    app,
    caller,
    { organizationId: params.orgId, aiSuggest: body.aiSuggest },
    actorOf(caller, req.ip),
  ),
});

export const emailFilingSettingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/email-filing-settings',
    operationId: 'getEmailFilingSettings',
    summary: "Read the organization's e-mail filing settings",
    description: 'Lets the mail add-in and integrators see whether e-mails may go to an external AI provider.',
    tags: ['Organizations'],
    access: access.needs('organization:read', 'org'),
    params: OrgPath,
    responses,
    errors,
    handler: async ({ app, params }) => ({ data: await getEmailFilingSettings(app, params.orgId) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/organization/:orgId/email-filing-settings',
    operationId: 'updateEmailFilingSettings',
    summary: "Update the organization's e-mail filing settings (organization admins and staff)",
    description:
      'The organization-admin twin of the staff PATCH under /v1/admin: same body, answer and activity entry. ' +
      'Client keys and members get 403.',
    tags: ['Organizations'],
    access: access.orgAdmin,
    params: OrgPath,
    body: UpdateEmailFilingSettingsBody,
    responses,
    errors,
    handler: update,
  }),
  defineRoute({
    method: 'get',
    path: '/v1/admin/organizations/:orgId/email-filing-settings',
    operationId: 'adminGetEmailFilingSettings',
    description:
      "The organization's e-mail filing settings (what filing suggests and keeps) as staff see and change them.",
    summary: "Read an organization's e-mail filing settings (staff)",
    tags: ['Admin'],
    access: access.staff,
    params: AdminOrgPath,
    responses,
    errors,
    handler: async ({ app, params }) => ({ data: await getEmailFilingSettings(app, params.orgId) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/admin/organizations/:orgId/email-filing-settings',
    operationId: 'adminUpdateEmailFilingSettings',
    summary: "Update an organization's e-mail filing settings (staff)",
    description:
      'Takes effect on the next request on every instance. A change is recorded in the organization activity ' +
      '(`settings_changed`, with who and old → new); setting the current value again changes nothing.',
    tags: ['Admin'],
    access: access.staff,
    params: AdminOrgPath,
    body: UpdateEmailFilingSettingsBody,
    responses,
    errors,
    handler: update,
  }),
];
