import { OrgPath } from '../../shared/common.js';
import { CreatedScimToken, ScimTokenResponse } from '../../shared/scim.js';
import { actorOf } from '../audit/service.js';
import { access, defineRoute } from '../http/route.js';
import { createScimToken, getScimToken, revokeScimToken } from './service.js';

/** The organization's SCIM token is its admins' (and staff's) to make, see and revoke. */
const scimToken = {
  tags: ['SCIM provisioning'],
  access: access.orgAdmin,
  params: OrgPath,
  errors: { 404: 'No such organization' },
};

export const scimTokenRoutes = [
  defineRoute({
    ...scimToken,
    method: 'get',
    path: '/v1/organization/:orgId/scim-token',
    operationId: 'getOrganizationScimToken',
    summary: 'Whether the organization has a SCIM token, when it was made and last used (never the token)',
    description:
      'Organization admins and staff. Answers null when the organization has no SCIM token; otherwise when it was ' +
      'made, by whom, when it was last used (to the minute) and the `baseUrl` to give the identity provider.',
    responses: { 200: { description: 'The token, or null', schema: ScimTokenResponse } },
    handler: async ({ app, params }) => ({ data: await getScimToken(app, params.orgId) }),
  }),
  defineRoute({
    ...scimToken,
    method: 'post',
    path: '/v1/organization/:orgId/scim-token',
    operationId: 'createOrganizationScimToken',
    summary: 'Make the SCIM token (or a new one in place of the old) for the identity provider',
    description:
      'The token is in this answer only; the server keeps its SHA-256. A new token replaces the old one, which is ' +
      'refused from the next request on. Give the identity provider `baseUrl` and the token: it then creates, ' +
      'updates, deactivates and deletes the organization’s people through `/scim/v2/Users` (RFC 7644).',
    responses: { 201: { description: 'The token, shown once', schema: CreatedScimToken } },
    handler: async ({ app, req, caller, params }) => ({
      data: await createScimToken(app, params.orgId, caller.id, actorOf(caller, req.ip)),
    }),
  }),
  defineRoute({
    ...scimToken,
    method: 'delete',
    path: '/v1/organization/:orgId/scim-token',
    operationId: 'revokeOrganizationScimToken',
    summary: 'Revoke the SCIM token: provisioning stops with the next request',
    description:
      'Organization admins and staff. The token is refused from the next SCIM request on every instance; 404 when ' +
      'the organization has none. Recorded in the audit log as `scim_token.revoked`.',
    errors: { 404: 'No such organization, or it has no SCIM token' },
    responses: { 204: { description: 'Revoked' } },
    handler: async ({ app, req, caller, params }) => {
      await revokeScimToken(app, params.orgId, actorOf(caller, req.ip));
      return undefined;
    },
  }),
];
