// RFC 7644 §4: what a provider reads to learn what this server supports. Users only: Sitefile has no groups of
// its own, and a role is not a group (see /work/notes/scim.md).

import { z } from 'zod';
import { listResponse, SCHEMA, schemasOf, scimListOf } from './resources.js';
import { MAX_COUNT } from './service.js';

const discoveryMeta = <T extends string>(resourceType: T) =>
  z.object({ resourceType: z.literal(resourceType), location: z.url() });
const supported = z.object({ supported: z.boolean() });

/** RFC 7643 §5: what this server supports. */
export const ScimServiceProviderConfig = z
  .object({
    schemas: schemasOf(SCHEMA.config),
    documentationUri: z.url(),
    patch: supported,
    bulk: supported.extend({ maxOperations: z.int().min(0), maxPayloadSize: z.int().min(0) }),
    filter: supported.extend({
      maxResults: z
        .int()
        .min(1)
        .meta({ description: 'The largest page a list answers (`count` above is read as this)' }),
    }),
    changePassword: supported,
    sort: supported,
    etag: supported,
    authenticationSchemes: z.array(
      z.object({
        type: z.literal('oauthbearertoken'),
        name: z.string(),
        description: z.string(),
        primary: z.boolean(),
      }),
    ),
    meta: discoveryMeta('ServiceProviderConfig'),
  })
  .meta({ id: 'ScimServiceProviderConfig' });

/** RFC 7643 §6: a resource type (User only). */
export const ScimResourceType = z
  .object({
    schemas: schemasOf(SCHEMA.resourceType),
    id: z.string(),
    name: z.string(),
    endpoint: z.string(),
    description: z.string(),
    schema: z.string(),
    meta: discoveryMeta('ResourceType'),
  })
  .meta({ id: 'ScimResourceType' });

const attributeFields = {
  name: z.string(),
  type: z.enum(['string', 'boolean', 'complex']),
  multiValued: z.boolean(),
  required: z.boolean(),
  caseExact: z.boolean(),
  mutability: z.enum(['readOnly', 'readWrite', 'immutable', 'writeOnly']),
  returned: z.enum(['always', 'never', 'default', 'request']),
  uniqueness: z.enum(['none', 'server', 'global']),
  canonicalValues: z.array(z.string()).optional(),
};
/** RFC 7643 §7: an attribute of a schema, and the sub-attributes of a complex one. */
const ScimAttribute = z.object({ ...attributeFields, subAttributes: z.array(z.object(attributeFields)).optional() });
type ScimAttribute = z.infer<typeof ScimAttribute>;

/** RFC 7643 §7: a resource's schema (the core User schema, as far as Sitefile keeps it). */
export const ScimSchema = z
  .object({
    schemas: schemasOf(SCHEMA.schema),
    id: z.string(),
    name: z.string(),
    description: z.string(),
    attributes: z.array(ScimAttribute),
    meta: discoveryMeta('Schema'),
  })
  .meta({ id: 'ScimSchema' });

export const ScimResourceTypeList = scimListOf(ScimResourceType, 'ScimResourceTypeList');
export const ScimSchemaList = scimListOf(ScimSchema, 'ScimSchemaList');

const attribute = (name: string, type: ScimAttribute['type'], extra: Partial<ScimAttribute> = {}): ScimAttribute => ({
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

const userSchema = (baseUrl: string): z.infer<typeof ScimSchema> => ({
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
export const discovery = (baseUrl: string) => {
  const user = userSchema(baseUrl);
  const userType: z.infer<typeof ScimResourceType> = {
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
  const serviceProviderConfig: z.infer<typeof ScimServiceProviderConfig> = {
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
  };
  const resourceTypes: z.infer<typeof ScimResourceTypeList> = listResponse([userType], 1, 1);
  const schemas: z.infer<typeof ScimSchemaList> = listResponse([user], 1, 1);
  return {
    ServiceProviderConfig: serviceProviderConfig,
    ResourceTypes: resourceTypes,
    'ResourceTypes/User': userType,
    Schemas: schemas,
    [`Schemas/${SCHEMA.user}`]: user,
  };
};
