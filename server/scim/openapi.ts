// The SCIM 2.0 endpoints (router.ts) in the OpenAPI document: their own bearer scheme, `application/scim+json`
// answers and RFC 7644 errors, with the schemas the SCIM code shapes and parses with.
import { z } from 'zod';
import type { oas31, ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import type { OpenApiSection, SharedAnswers } from '../http/openapi.js';
import {
  ScimResourceType,
  ScimResourceTypeList,
  ScimSchema,
  ScimSchemaList,
  ScimServiceProviderConfig,
} from './discovery.js';
import { ScimPatchOp } from './patch.js';
import { SCHEMA, ScimError, ScimUser, ScimUserList, ScimUserRequest } from './resources.js';
import { SCIM_JSON, SCIM_PATH } from './router.js';
import { MAX_COUNT, ScimListQuery } from './service.js';

const SCIM_TAG = 'SCIM 2.0 provisioning (identity providers)';

const scimTag: oas31.TagObject = {
  name: SCIM_TAG,
  description:
    'RFC 7643/7644 provisioning of an organization’s people by its identity provider (Microsoft Entra ID, Okta, …), ' +
    'under `/scim/v2` with the organization’s SCIM token (`scimToken` scheme; made by an organization admin with ' +
    '`POST /v1/organization/{orgId}/scim-token`). Users only: there is no Group resource type, as a group at the ' +
    'identity provider never grants a Sitefile role; `/scim/v2/Groups` answers 404. No bulk, sort or ETags ' +
    '(see ServiceProviderConfig). Every answer, errors included, is `application/scim+json`.',
};

const scimSecurityScheme: oas31.SecuritySchemeObject = {
  type: 'http',
  scheme: 'bearer',
  description:
    'The organization’s SCIM token (`sfscim_…`), shown once by `POST /v1/organization/{orgId}/scim-token`. It ' +
    'reaches `/scim/v2` only, and `/scim/v2` takes no other token.',
};

interface ScimOperation {
  operationId: string;
  summary: string;
  description: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  ok: { status: 200 | 201 | 204; description: string; schema?: z.ZodType; headers?: oas31.HeadersObject };
  /** The failures this operation answers beside 401, 429 and a NUL in the URL's 400. */
  errors: Partial<Record<400 | 403 | 404 | 409 | 413, string>>;
}

const UserPath = z.object({ id: z.string().meta({ description: 'The person’s id (the User resource’s `id`)' }) });
const invalidBody =
  'Malformed JSON, a NUL in it, or a body that breaks the schema (scimType invalidSyntax or invalidValue)';
const conflict = 'An e-mail address or externalId another person has (scimType uniqueness)';
const elsewhere = 'The person belongs to another organization too: change them there (scimType mutability)';
const noUser = 'No person of this organization with this id';

const operations: Record<string, Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete', ScimOperation>>> = {
  '/ServiceProviderConfig': {
    get: {
      operationId: 'scimGetServiceProviderConfig',
      summary: 'What this SCIM server supports',
      description: `PATCH and filters (\`maxResults\` ${MAX_COUNT}); no bulk, sort, ETags or password changes.`,
      ok: { status: 200, description: 'The configuration', schema: ScimServiceProviderConfig },
      errors: {},
    },
  },
  '/ResourceTypes': {
    get: {
      operationId: 'scimListResourceTypes',
      summary: 'The resource types: User only',
      description: 'A list response with the one resource type, User (no Group).',
      ok: { status: 200, description: 'The resource types', schema: ScimResourceTypeList },
      errors: {},
    },
  },
  '/ResourceTypes/{id}': {
    get: {
      operationId: 'scimGetResourceType',
      summary: 'One resource type',
      description: 'The User resource type; any other id is a 404.',
      params: z.object({ id: z.enum(['User']).meta({ description: 'The resource type’s id' }) }),
      ok: { status: 200, description: 'The resource type', schema: ScimResourceType },
      errors: { 404: 'No such resource type' },
    },
  },
  '/Schemas': {
    get: {
      operationId: 'scimListSchemas',
      summary: 'The schemas: the core User schema, as far as Sitefile keeps it',
      description: 'A list response with the User schema and the attributes Sitefile keeps.',
      ok: { status: 200, description: 'The schemas', schema: ScimSchemaList },
      errors: {},
    },
  },
  '/Schemas/{id}': {
    get: {
      operationId: 'scimGetSchema',
      summary: 'One schema',
      description: 'The core User schema; any other id is a 404.',
      params: z.object({ id: z.enum([SCHEMA.user]).meta({ description: 'The schema’s URN' }) }),
      ok: { status: 200, description: 'The schema', schema: ScimSchema },
      errors: { 404: 'No such schema' },
    },
  },
  '/Users': {
    get: {
      operationId: 'scimListUsers',
      summary: 'List or find the organization’s people',
      description:
        'A page of the organization’s people, oldest first. Providers find a person by `filter` before they ' +
        'create them (`userName eq "…"`).',
      query: ScimListQuery,
      ok: { status: 200, description: 'A page of people', schema: ScimUserList },
      errors: { 400: 'A filter this server does not support, or longer than 1000 characters (scimType invalidFilter)' },
    },
    post: {
      operationId: 'scimCreateUser',
      summary: 'Create a person in the organization',
      description:
        'Creates the person as a member of the organization, disabled at once when `active` is false. Sitefile ' +
        'keeps the work e-mail address (else the primary, else the first; else `userName` when it is an address).',
      body: ScimUserRequest,
      ok: {
        status: 201,
        description: 'The person, created',
        schema: ScimUser,
        headers: {
          Location: { description: 'The new User resource’s URL', schema: { type: 'string', format: 'uri' } },
        },
      },
      errors: { 400: invalidBody, 409: conflict, 413: 'Request body larger than 1 MB' },
    },
  },
  '/Users/{id}': {
    get: {
      operationId: 'scimGetUser',
      summary: 'One person of the organization',
      description: 'The person as a User resource.',
      params: UserPath,
      ok: { status: 200, description: 'The person', schema: ScimUser },
      errors: { 404: noUser },
    },
    put: {
      operationId: 'scimReplaceUser',
      summary: 'Replace a person’s attributes',
      description:
        'Sets userName, e-mail address, name, externalId and active as the body gives them (RFC 7644 §3.5.1); ' +
        '`active: false` disables the person: every session and token of theirs is refused from the next request.',
      params: UserPath,
      body: ScimUserRequest,
      ok: { status: 200, description: 'The person, replaced', schema: ScimUser },
      errors: { 400: invalidBody, 403: elsewhere, 404: noUser, 409: conflict, 413: 'Request body larger than 1 MB' },
    },
    patch: {
      operationId: 'scimPatchUser',
      summary: 'Change some of a person’s attributes',
      description:
        'Applies the operations (RFC 7644 §3.5.2) to the person, in the forms Entra ID and Okta send; `active` ' +
        'false disables the person, true enables them.',
      params: UserPath,
      body: ScimPatchOp,
      ok: { status: 200, description: 'The person, patched', schema: ScimUser },
      errors: {
        400: `${invalidBody}; a remove without a path (noTarget); a value filter that is not one (invalidPath)`,
        403: elsewhere,
        404: noUser,
        409: conflict,
        413: 'Request body larger than 1 MB',
      },
    },
    delete: {
      operationId: 'scimDeleteUser',
      summary: 'Remove a person from the organization',
      description:
        'Removes the person from the organization; one who belongs to no other organization is disabled first, ' +
        'so that every session and token of theirs ends.',
      params: UserPath,
      ok: { status: 204, description: 'Removed' },
      errors: { 404: noUser },
    },
  },
};

function operationOf(spec: ScimOperation, shared: SharedAnswers): ZodOpenApiOperationObject {
  const error = (description: string, headers?: oas31.HeadersObject) =>
    shared.errorResponse(description, ScimError, headers, SCIM_JSON);
  // Every route refuses a NUL (`%00`) in the URL.
  const errors = {
    ...spec.errors,
    400: spec.errors[400] ? `${spec.errors[400]}; a NUL character in the URL` : 'A NUL character in the URL',
  };

  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: [SCIM_TAG],
    security: [{ scimToken: [] }],
    requestParams: { ...(spec.params ? { path: spec.params } : {}), ...(spec.query ? { query: spec.query } : {}) },
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            // The server reads `application/json` as well (some providers send it).
            content: { [SCIM_JSON]: { schema: spec.body }, 'application/json': { schema: spec.body } },
          },
        }
      : {}),
    responses: {
      [spec.ok.status]: {
        description: spec.ok.description,
        headers: { ...shared.rateLimitHeaders, ...spec.ok.headers },
        ...(spec.ok.schema ? { content: { [SCIM_JSON]: { schema: spec.ok.schema } } } : {}),
      },
      ...Object.fromEntries(Object.entries(errors).map(([status, text]) => [status, error(text)])),
      401: error('Missing, invalid, revoked or replaced SCIM token', {
        'WWW-Authenticate': { description: '`Bearer`', schema: { type: 'string' } },
      }),
      429: error('Rate limit exceeded; see Retry-After', { ...shared.rateLimitHeaders, ...shared.retryAfter }),
    },
  };
}

/** The `/scim/v2` paths of the OpenAPI document. */
const scimPaths = (shared: SharedAnswers): ZodOpenApiPathsObject =>
  Object.fromEntries(
    Object.entries(operations).map(([path, item]) => [
      `${SCIM_PATH}${path}`,
      Object.fromEntries(Object.entries(item).map(([method, spec]) => [method, operationOf(spec, shared)])),
    ]),
  );

/** SCIM's part of the API's OpenAPI document. */
export const scimSection: OpenApiSection = {
  tag: scimTag,
  securitySchemes: { scimToken: scimSecurityScheme },
  paths: scimPaths,
};
