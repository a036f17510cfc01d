import { z } from 'zod';
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import { OAuthErrorBody } from '../../shared/api-keys.js';
import { ErrorBody } from '../../shared/errors.js';
import { webhookDeliveryRules, webhookEventDocs } from '../../shared/webhook-events.js';
import { webhookEventTypes } from '../../shared/webhooks.js';
import { readable } from './openapi-reading.js';
import { type Access, type HeaderSpec, openApiPath, type Route } from './route.js';

const errorResponse = (
  description: string,
  schema: z.ZodType,
  headers?: oas31.HeadersObject,
  mediaType = 'application/json',
) => ({
  description,
  headers,
  content: { [mediaType]: { schema } },
});

const seconds: HeaderSpec['schema'] = { type: 'integer', minimum: 0 };
/** Sent with every answer to an identified caller (server/ratelimit). */
const rateLimitHeaders: oas31.HeadersObject = {
  'RateLimit-Limit': { description: 'Requests allowed per window', schema: seconds },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: seconds },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: seconds },
};
const retryAfter: oas31.HeadersObject = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: seconds },
};

/**
 * The CSV form of a list, declared beside the JSON page rather than as a second media type of the same answer: a
 * generated client types `content` as the union of its media types, and a page typed `Page | string` is no use.
 */
const csvAnswer = {
  mediaType: 'text/csv',
  request: 'Accept: text/csv',
  schema: {
    type: 'string',
    description:
      'RFC 4180 CSV with a header row; formula-like cells neutralised; a final `# WARNING: truncated at N rows` row when the row cap cut the export',
  },
};

/** What a 403 means under each access rule. */
const refusals: Record<Exclude<Access['kind'], 'public' | 'authenticated'>, string> = {
  clientKey: 'A person’s token: this route answers client keys only',
  permission: 'Insufficient permissions: the token lacks the permission or the org/project is outside its scope',
  staff: 'Not a staff user (client keys are always refused)',
  user: 'Not allowed for this signed-in user (client keys are always refused)',
  orgAdmin: 'Not an admin of this organization nor staff (client keys are always refused)',
  ownerOrOrgAdmin:
    'Neither the person who made the record, an admin of its organization, nor staff (client keys are always refused)',
};
const refusalOf = (rule: Access) => refusals[rule.kind as keyof typeof refusals];

/** Error responses implied by a route's access rule and inputs, plus the ones it declares. */
function errorResponsesOf(route: Route): Record<string, ReturnType<typeof errorResponse>> {
  // Every route refuses a NUL in the URL and an unknown query parameter.
  const errors: Record<string, string> = { 400: 'Invalid parameters or body' };
  if (route.body || route.bodyContentTypes) errors[413] = 'Request body too large';
  if (route.access.kind !== 'public') {
    errors[401] = 'Missing, invalid or expired bearer token';
    errors[429] = 'Rate limit exceeded; see Retry-After';
  }
  if (route.access.kind !== 'public' && route.access.kind !== 'authenticated') errors[403] = refusalOf(route.access);
  if (route.access.kind === 'permission' && route.access.scope === 'project')
    errors[404] = 'Project not found in this organization';
  if (route.access.kind === 'ownerOrOrgAdmin') errors[404] = `${route.access.record} not found`;
  Object.assign(errors, route.errors);
  return Object.fromEntries(
    Object.entries(errors).map(([status, text]) => [
      status,
      errorResponse(
        text,
        route.errorBody === 'oauth' ? OAuthErrorBody : ErrorBody,
        status === '429' ? { ...rateLimitHeaders, ...retryAfter } : undefined,
      ),
    ]),
  );
}

/** The `x-permission` extension: the permission key, or who the rule admits. */
const xPermissions: Record<Exclude<Access['kind'], 'permission'>, string | null> = {
  public: null,
  authenticated: null,
  clientKey: 'client-key',
  staff: 'staff',
  user: 'user',
  orgAdmin: 'org-admin',
  ownerOrOrgAdmin: 'owner-or-org-admin',
};
const xPermission = (rule: Access): string | null =>
  rule.kind === 'permission' ? rule.permission : xPermissions[rule.kind];

function operationOf(route: Route): ZodOpenApiOperationObject {
  const rule = route.access;
  const operation: ZodOpenApiOperationObject & Record<`x-${string}`, unknown> = {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: route.tags,
    security: rule.kind === 'public' ? [] : [{ bearer: [] }],
    'x-permission': xPermission(rule),
    'x-scope': rule.kind === 'permission' ? (rule.scope ?? null) : null,
    requestParams: {
      ...(route.params ? { path: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(route.headers ? { header: route.headers } : {}),
    },
    responses: {
      ...Object.fromEntries(
        Object.entries(route.responses).map(([status, spec]) => [
          status,
          {
            description: spec.description,
            headers: { ...(rule.kind === 'public' ? {} : rateLimitHeaders), ...spec.headers },
            content: spec.schema ? { [spec.contentType ?? 'application/json']: { schema: spec.schema } } : undefined,
            ...(spec.csv ? { 'x-csv': csvAnswer } : {}),
          },
        ]),
      ),
      ...errorResponsesOf(route),
    },
  };
  if (route.body || route.bodyContentTypes) {
    operation.requestBody = {
      // A missing body is read as `{}` (route.ts): a body whose every field is optional may be left out.
      required: !route.body?.safeParse({}).success,
      content: {
        ...(route.body ? { 'application/json': { schema: route.body } } : {}),
        ...route.bodyContentTypes,
      },
    };
  }
  return operation;
}

/** What the document declares alike for every operation, for a section to declare its operations with. */
export interface SharedAnswers {
  errorResponse(
    description: string,
    schema: z.ZodType,
    headers?: oas31.HeadersObject,
    mediaType?: string,
  ): ZodOpenApiResponseObject;
  rateLimitHeaders: oas31.HeadersObject;
  retryAfter: oas31.HeadersObject;
}

/** Operations a router outside the route table serves and describes itself (SCIM): its tag, its own security
 *  schemes and its paths. */
export interface OpenApiSection {
  tag: oas31.TagObject;
  securitySchemes: Record<string, oas31.SecuritySchemeObject>;
  paths(shared: SharedAnswers): ZodOpenApiPathsObject;
}

export function buildOpenApiDocument(routes: readonly Route[], sections: readonly OpenApiSection[], serverUrl: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operationOf(route) };
  }
  for (const section of sections) Object.assign(paths, section.paths({ errorResponse, rateLimitHeaders, retryAfter }));
  return readable(
    createDocument({
      openapi: '3.1.0',
      info: {
        title: 'Sitefile API',
        version: '1.0.0',
        description:
          'Construction-project documents, submittals, drawings, reports and e-mail history. Organization routes also answer under the plural aliases `/v1/organizations/{orgId}` and `/v1/organizations/{orgId}/projects/...`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        // Each installation is run by its own operators: the contact is this installation's reference page.
        contact: { name: 'The operators of this Sitefile installation', url: `${serverUrl}/docs` },
      },
      servers: [{ url: serverUrl }],
      tags: [
        ...[...new Set(routes.flatMap((r) => r.tags))].map((name) => ({ name, description: `${name} endpoints` })),
        ...sections.map((section) => section.tag),
      ],
      security: [{ bearer: [] }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Access token from POST /v1/oauth/token (client keys) or the OAuth sign-in (people).',
          },
          ...Object.assign({}, ...sections.map((section) => section.securitySchemes)),
        },
      },
      paths,
      webhooks: webhookOperations(),
    }),
  );
}

/**
 * The `webhooks` section (OpenAPI 3.1): one operation per event type, the request Sitefile POSTs to a subscribed
 * endpoint — its Standard Webhooks headers and the `{type, timestamp, data}` body with that type's data.
 */
function webhookOperations(): ZodOpenApiPathsObject {
  const headers = z.object({
    'webhook-id': z.string().meta({ description: 'The event id (`msg_…`): the same on every retry and replay' }),
    'webhook-timestamp': z.string().meta({ description: 'Unix seconds of this attempt' }),
    'webhook-signature': z.string().meta({ description: '`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`' }),
  });
  return Object.fromEntries(
    webhookEventTypes.map((type) => {
      const doc = webhookEventDocs[type];
      const body = z.object({
        type: z.literal(type),
        timestamp: z.iso.datetime().meta({ description: 'When the change the event describes was made' }),
        data: doc.data,
      });
      const operation: ZodOpenApiOperationObject = {
        operationId: `webhook_${type.replace('.', '_')}`,
        summary: doc.summary,
        description: webhookDeliveryRules,
        tags: ['Webhooks'],
        security: [],
        requestParams: { header: headers },
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: {
          '200': { description: 'Any 2xx acknowledges the event; anything else, or no answer in time, is retried' },
        },
      };
      return [type, { post: operation }];
    }),
  );
}
