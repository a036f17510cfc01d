import {
  ClientIdPath,
  ClientList,
  ClientListQuery,
  CreateClientBody,
  CreatedOAuthClient,
  OAuthClient,
  OrgClientPath,
  TokenRequestForm,
  TokenRequestJson,
  TokenResponse,
  UpdateClientBody,
} from '../../shared/api-keys.js';
import { OrgPath } from '../../shared/common.js';
import { actorOf } from '../audit/service.js';
import { access, defineRoute, Reply } from '../http/route.js';
import { enforceRateLimit } from '../ratelimit/limiter.js';
import {
  createClientAs,
  createOrgClient,
  deleteClient,
  deleteOrgClient,
  exchangeClientCredentials,
  getClient,
  getOrgClient,
  listClients,
  rotateClientSecret,
  rotateOrgClientSecret,
  updateClient,
  updateOrgClient,
} from './service.js';
import { readTokenRequest, type TokenRequestBody } from './token-request.js';

const FORM = 'application/x-www-form-urlencoded';

/** A token request refused in OAuth's shape (RFC 6749 §5.2), with the headers that go with its status. */
const refusal = (status: number, error: string, description: string, headers?: Record<string, string>) =>
  new Reply(status, { error, error_description: description }, headers);

const tokenRoute = defineRoute({
  method: 'post',
  path: '/v1/oauth/token',
  operationId: 'exchangeClientCredentials',
  summary: 'Exchange client credentials for an access token',
  description:
    'JSON `{client_id, client_secret}`, or the OAuth form body with `grant_type=client_credentials`; the ' +
    'credentials may instead come as HTTP Basic (`client_secret_basic`, RFC 6749 §2.3.1), not both. ' +
    'Limited per source IP and per (client_id, source IP); wrong secrets slow down only the address that gives them. Every failure has OAuth’s shape `{error, error_description}`: ' +
    '`invalid_request` (missing or malformed parameter), `unsupported_grant_type`, `invalid_client` (401).',
  tags: ['Authentication'],
  access: access.public,
  bodyContentTypes: { 'application/json': { schema: TokenRequestJson }, [FORM]: { schema: TokenRequestForm } },
  responses: { 200: { description: 'An access token valid for one hour', schema: TokenResponse } },
  errorBody: 'oauth',
  errors: {
    400: 'Missing or malformed parameter, or another grant_type (`invalid_request`, `unsupported_grant_type`)',
    401: 'Unknown client, wrong secret, or disabled client (`invalid_client`)',
    429: 'Too many token requests or wrong secrets for this client_id from this address, or from this address (`too_many_requests`); see Retry-After',
  },
  handler: async ({ req, res, app, body }) => {
    res.setHeader('Cache-Control', 'no-store');
    const request = readTokenRequest(req, body as TokenRequestBody);
    if ('error' in request) return refusal(request.status, request.error, request.description);
    const source = req.ip ?? 'unknown';
    // Per client_id and address: guesses from elsewhere never use up the key's own budget.
    await enforceRateLimit(
      app.rateLimiter,
      res,
      ['token-ip', source],
      ['token-client', `${request.clientId} ${source}`],
    );
    const result = await exchangeClientCredentials(app, request.clientId, request.clientSecret, source);
    if (!result.ok && result.retryAfterSeconds !== undefined) {
      const retryAfter = { 'Retry-After': String(result.retryAfterSeconds) };
      return refusal(429, 'too_many_requests', result.description, retryAfter);
    }
    if (!result.ok) {
      const challenge = request.basic ? { 'WWW-Authenticate': 'Basic realm="sitefile"' } : undefined;
      return refusal(401, 'invalid_client', result.description, challenge);
    }
    return { access_token: result.accessToken, token_type: 'Bearer', expires_in: result.expiresIn };
  },
});

/** What key management answers, alike for a key's own keys, staff and an organization's admins. */
const answers = {
  list: { 200: { description: 'Newest first', schema: ClientList } },
  created: { 201: { description: 'The key, with its secret (shown once)', schema: CreatedOAuthClient } },
  key: { 200: { description: 'The key', schema: OAuthClient } },
  changed: { 200: { description: 'The key as changed', schema: OAuthClient } },
  deleted: { 204: { description: 'Deleted' } },
  newSecret: { 200: { description: 'The key with its new secret', schema: CreatedOAuthClient } },
};

const orgKeyRule =
  'For admins of the organization and staff. Only keys confined to this organization are visible here: ' +
  'every scope inside it, at least one, never superadmin; any other key is answered 404.';

/** What every route of an organization's own key management declares alike. */
const orgKeys = { tags: ['Clients'], access: access.orgAdmin, description: orgKeyRule };
/** … and every route on one of those keys. */
const oneOrgKey = { ...orgKeys, params: OrgClientPath, errors: { 404: 'No such key in this organization' } };

/** Staff's key management: every route on one key of any caller. */
const oneKeyOfAny = { tags: ['Admin'], access: access.staff, params: ClientIdPath, errors: { 404: 'No such key' } };

/** The same key management as /v1/admin/clients, for an organization's own admins (access.orgAdmin). */
const orgClientRoutes = () => [
  defineRoute({
    ...orgKeys,
    method: 'get',
    path: '/v1/organization/:orgId/clients',
    operationId: 'listOrganizationClients',
    summary: "The organization's API keys, with usage",
    params: OrgPath,
    query: ClientListQuery,
    responses: answers.list,
    handler: ({ app, params, query }) =>
      listClients(app, { confinedToOrgId: params.orgId, cursor: query.cursor, limit: query.limit }),
  }),
  defineRoute({
    ...orgKeys,
    method: 'post',
    path: '/v1/organization/:orgId/clients',
    operationId: 'createOrganizationClient',
    summary: 'Create an API key for the organization',
    description: `${orgKeyRule} Scopes outside the organization or none at all → 400; superadmin → 403. The secret is in this answer only.`,
    params: OrgPath,
    body: CreateClientBody,
    responses: answers.created,
    handler: ({ app, req, caller, params, body }) =>
      createOrgClient(app, caller, params.orgId, body, actorOf(caller, req.ip)),
  }),
  defineRoute({
    ...oneOrgKey,
    method: 'get',
    path: '/v1/organization/:orgId/clients/:id',
    operationId: 'getOrganizationClient',
    summary: 'One of the organization’s API keys, with usage',
    responses: answers.key,
    handler: ({ app, params }) => getOrgClient(app, params.orgId, params.id),
  }),
  defineRoute({
    ...oneOrgKey,
    method: 'patch',
    path: '/v1/organization/:orgId/clients/:id',
    operationId: 'updateOrganizationClient',
    summary: 'Enable or disable, rename, change permissions or scopes of one of the organization’s keys',
    description: `${orgKeyRule} New scopes must lie in the organization. Applies on every instance at once.`,
    body: UpdateClientBody,
    responses: answers.changed,
    handler: ({ app, req, caller, params, body }) =>
      updateOrgClient(app, params.orgId, params.id, body, actorOf(caller, req.ip)),
  }),
  defineRoute({
    ...oneOrgKey,
    method: 'delete',
    path: '/v1/organization/:orgId/clients/:id',
    operationId: 'deleteOrganizationClient',
    summary: 'Delete one of the organization’s keys (its tokens stop working at once)',
    responses: answers.deleted,
    handler: async ({ app, req, caller, params }) => {
      await deleteOrgClient(app, params.orgId, params.id, actorOf(caller, req.ip));
      return undefined;
    },
  }),
  defineRoute({
    ...oneOrgKey,
    method: 'post',
    path: '/v1/organization/:orgId/clients/:id/rotate-secret',
    operationId: 'rotateOrganizationClientSecret',
    summary: 'Replace the secret of one of the organization’s keys; the new one is shown once',
    responses: answers.newSecret,
    handler: ({ app, req, caller, params }) =>
      rotateOrgClientSecret(app, params.orgId, params.id, actorOf(caller, req.ip)),
  }),
];

export const apiKeyRoutes = [
  tokenRoute,
  defineRoute({
    method: 'post',
    path: '/v1/client',
    operationId: 'createClient',
    summary: 'Create an API key (OAuth client)',
    description:
      'A key with `client:create` grants only permissions it holds and scopes inside its own; only staff users ' +
      'create `superadmin` keys. The secret is in this answer only.',
    tags: ['Clients'],
    access: access.needsOrStaff('client:create'),
    body: CreateClientBody,
    responses: answers.created,
    handler: ({ app, req, caller, body }) => createClientAs(app, caller, body, actorOf(caller, req.ip)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/client',
    operationId: 'listOwnClients',
    description:
      'The keys the calling key created (a key with `client:create`), each with its permissions, scopes and usage counts; secrets are never shown again.',
    summary: 'The keys this key created, with usage',
    tags: ['Clients'],
    access: access.needs('client:read'),
    query: ClientListQuery,
    responses: answers.list,
    handler: ({ app, caller, query }) => {
      // Users hold no client:read, so the caller is a key here.
      return listClients(app, { createdByClientId: caller.id, cursor: query.cursor, limit: query.limit });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/client/me',
    operationId: 'getOwnClient',
    summary: 'The calling key: permissions, scopes, organization IDs and usage',
    description: 'Needs a client token; a person’s token is refused with 403.',
    tags: ['Clients'],
    access: access.clientKey,
    responses: { 200: { description: 'The calling key (never its secret)', schema: OAuthClient } },
    handler: ({ app, caller }) => getClient(app, caller.id),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/admin/clients',
    operationId: 'adminListClients',
    description:
      'Every API key of the installation, deleted ones excluded, each with its permissions, scopes and usage counts; secrets are never shown again.',
    summary: 'Every API key, with usage (staff)',
    tags: ['Admin'],
    access: access.staff,
    query: ClientListQuery,
    responses: answers.list,
    handler: ({ app, query }) => listClients(app, { cursor: query.cursor, limit: query.limit }),
  }),
  defineRoute({
    ...oneKeyOfAny,
    method: 'get',
    path: '/v1/admin/clients/:id',
    operationId: 'adminGetClient',
    description: 'One API key with its permissions, scopes and usage counts; its secret is never shown again.',
    summary: 'One API key, with usage (staff)',
    responses: answers.key,
    handler: ({ app, params }) => getClient(app, params.id),
  }),
  defineRoute({
    ...oneKeyOfAny,
    method: 'patch',
    path: '/v1/admin/clients/:id',
    operationId: 'adminUpdateClient',
    summary: 'Enable or disable, rename, change permissions or scopes of a key (staff)',
    description: 'Applies on every instance at once: the key’s cached identity is dropped.',
    body: UpdateClientBody,
    responses: answers.changed,
    handler: ({ app, req, caller, params, body }) => updateClient(app, params.id, body, actorOf(caller, req.ip)),
  }),
  defineRoute({
    ...oneKeyOfAny,
    method: 'delete',
    path: '/v1/admin/clients/:id',
    operationId: 'adminDeleteClient',
    description:
      'Marks the key deleted: its tokens are refused from the next request on and it cannot get new ones. The record stays for the audit log.',
    summary: 'Delete a key (soft delete; its tokens stop working at once) (staff)',
    responses: answers.deleted,
    handler: async ({ app, req, caller, params }) => {
      await deleteClient(app, params.id, actorOf(caller, req.ip));
      return undefined;
    },
  }),
  defineRoute({
    ...oneKeyOfAny,
    method: 'post',
    path: '/v1/admin/clients/:id/rotate-secret',
    operationId: 'adminRotateClientSecret',
    description:
      'Gives the key a new secret, answered once in this response; the old secret stops working at once, tokens already issued keep working until they expire.',
    summary: 'Replace a key’s secret; the new one is shown once (staff)',
    responses: answers.newSecret,
    handler: ({ app, req, caller, params }) => rotateClientSecret(app, params.id, actorOf(caller, req.ip)),
  }),

  ...orgClientRoutes(),
];
