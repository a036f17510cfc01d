// RFC 7644 §4: what a provider reads to learn what this server supports. Users only: Sitefile has no groups of
// its own, and a role is not a group (see /work/notes/scim.md).

import { SCHEMA } from './resources.js';
import { MAX_COUNT } from './service.js';

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

const userSchema = (baseUrl: string) => ({
  schemas: [SCHEMA.schema],
  id: SCHEMA.user,
  name: 'User',
  description: 'A person of the organization. Sitefile keeps one name and one (work) e-mail address.',
  attributes: [
    attribute('userName', 'string', { required: true, uniqueness: 'server' }),
    attribute('externalId', 'string', { caseExact: true }),
    attribute('displayName', 'string'),
    attribute('name', 'complex', {
      subAttributes: [
        attribute('formatted', 'string'),
        attribute('givenName', 'string'),
        attribute('familyName', 'string'),
      ],
    }),
    attribute('emails', 'complex', {
      multiValued: true,
      subAttributes: [
        attribute('value', 'string'),
        attribute('type', 'string', { canonicalValues: ['work'] }),
        attribute('primary', 'boolean'),
      ],
    }),
    attribute('active', 'boolean'),
  ],
  meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCHEMA.user}` },
});

/** The discovery documents by path under /scim/v2. */
export const discovery = (baseUrl: string): Record<string, unknown> => {
  const user = userSchema(baseUrl);
  const userType = {
    schemas: [SCHEMA.resourceType],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description:
      'People of the organization. There is no Group resource type: an identity provider group never grants a ' +
      'Sitefile role, so /Groups answers 404.',
    schema: SCHEMA.user,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
  };
  return {
    ServiceProviderConfig: {
      schemas: [SCHEMA.config],
      documentationUri: `${baseUrl.replace(/\/scim\/v2$/, '')}/docs`,
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: MAX_COUNT },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [
        {
          type: 'oauthbearertoken',
          name: 'Bearer token',
          description: "The organization's SCIM token, made by an organization admin",
          primary: true,
        },
      ],
      meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
    },
    ResourceTypes: { schemas: [SCHEMA.list], totalResults: 1, startIndex: 1, itemsPerPage: 1, Resources: [userType] },
    'ResourceTypes/User': userType,
    Schemas: { schemas: [SCHEMA.list], totalResults: 1, startIndex: 1, itemsPerPage: 1, Resources: [user] },
    [`Schemas/${SCHEMA.user}`]: user,
  };
};
