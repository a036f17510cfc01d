import { OrgPath } from '../../shared/common.js';
import { SsoConnectionInput, SsoConnectionResponse, SsoDomainPath, SsoDomainResponse } from '../../shared/sso.js';
import { actorOf } from '../audit/service.js';
import { access, defineRoute } from '../http/route.js';
import { getSsoConnection, removeSsoConnection, saveSsoConnection, verifySsoDomain } from './service.js';

/** The organization's identity provider is its admins' (and staff's) to connect, see and remove. */
const ssoConnection = {
  tags: ['Single sign-on'],
  access: access.orgAdmin,
  params: OrgPath,
  errors: { 404: 'No such organization' },
};

export const ssoRoutes = [
  defineRoute({
    ...ssoConnection,
    method: 'get',
    path: '/v1/organization/:orgId/sso',
    operationId: 'getOrganizationSso',
    summary: "The organization's OpenID Connect identity provider (never its client secret)",
    description:
      'Organization admins and staff. Answers null when the organization has none; otherwise the issuer, client id, ' +
      'e-mail domains with their verification (`domainStatus`: pending or verified, and the TXT record that proves ' +
      'ownership), whether single sign-on is required, and the `redirectUri` to register at the provider.',
    responses: { 200: { description: 'The connection, or null', schema: SsoConnectionResponse } },
    handler: async ({ app, params }) => ({ data: await getSsoConnection(app, params.orgId) }),
  }),
  defineRoute({
    ...ssoConnection,
    method: 'put',
    path: '/v1/organization/:orgId/sso',
    operationId: 'saveOrganizationSso',
    summary: "Connect (or change) the organization's OpenID Connect identity provider",
    description:
      'A new domain is pending until its ownership is proven (`POST …/sso/domains/{domain}/verify`); people whose ' +
      'e-mail is of a verified domain then sign in through the provider ("Sign in with your organization"); the ' +
      'first sign-in creates them as members. `requireSso` refuses their passwords. Domains left out are removed. ' +
      '`clientSecret` is required the first time and is never answered; left out later, the stored one is kept. ' +
      'A domain another organization verified is a 409. Recorded as `sso.configured` or `sso.updated`.',
    body: SsoConnectionInput,
    errors: { 404: 'No such organization', 409: 'A domain is verified by another organization' },
    responses: { 200: { description: 'The connection', schema: SsoConnectionResponse } },
    handler: async ({ app, req, caller, params, body }) => ({
      data: await saveSsoConnection(app, params.orgId, body, actorOf(caller, req.ip)),
    }),
  }),
  defineRoute({
    ...ssoConnection,
    method: 'post',
    path: '/v1/organization/:orgId/sso/domains/:domain/verify',
    operationId: 'verifyOrganizationSsoDomain',
    summary: "Prove the organization owns one of its identity provider's e-mail domains (DNS TXT record)",
    description:
      'Organization admins and staff. Looks up the TXT record `_sitefile-challenge.<domain>` (the `txtName` of ' +
      'the domain in `domainStatus`) and expects `sitefile-verification=<token>` (its `txtValue`) among its values. ' +
      'Found: the domain is verified and its people sign in through the provider; already verified: answered as ' +
      'it is. Recorded as `sso.domain_verified`. Staff may also approve a domain with `npm run cli -- verify-domain`.',
    params: SsoDomainPath,
    errors: {
      400: 'The TXT record is missing or holds another value (the message says which)',
      404: 'No such organization, identity provider, or domain on it',
      409: 'The domain is verified by another organization',
      503: 'The DNS lookup failed (the message names the reason)',
    },
    responses: { 200: { description: 'The domain, verified', schema: SsoDomainResponse } },
    handler: async ({ app, req, caller, params }) => ({
      data: await verifySsoDomain(app, params.orgId, params.domain, 'dns', actorOf(caller, req.ip)),
    }),
  }),
  defineRoute({
    ...ssoConnection,
    method: 'delete',
    path: '/v1/organization/:orgId/sso',
    operationId: 'removeOrganizationSso',
    summary: 'Disconnect the identity provider: its people sign in with passwords again',
    description: 'Organization admins and staff. 404 when there is none. Recorded as `sso.removed`.',
    errors: { 404: 'No such organization, or it has no identity provider' },
    responses: { 204: { description: 'Removed' } },
    handler: async ({ app, req, caller, params }) => {
      await removeSsoConnection(app, params.orgId, actorOf(caller, req.ip));
      return undefined;
    },
  }),
];
