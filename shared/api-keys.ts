import { z } from 'zod';
import { Cursor, Id, listEnvelope, pageLimit, strictQuery, Timestamp } from './common.js';
import { permissionKeys } from './permissions.js';

export const PermissionMap = z
  .object(
    Object.fromEntries(permissionKeys.map((key) => [key, z.boolean()])) as Record<
      (typeof permissionKeys)[number],
      z.ZodBoolean
    >,
  )
  .meta({ id: 'PermissionMap', description: 'One boolean per permission key' });

export const ClientScopes = z
  .object({
    orgs: z.array(z.object({ orgId: z.string(), grantedAt: Timestamp })),
    projects: z.array(z.object({ orgId: z.string(), projectId: z.string(), grantedAt: Timestamp })),
  })
  .meta({ id: 'ClientScopes' });

export const UsageSummary = z
  .object({
    totalRequests: z.number().int(),
    endpoints: z.array(z.object({ endpoint: z.string(), count: z.number().int(), averageResponseTimeMs: z.number() })),
  })
  .meta({ id: 'UsageSummary' });

export const OAuthClient = z
  .object({
    id: z.string(),
    clientId: z.string(),
    name: z.string(),
    description: z.string(),
    superadmin: z.boolean(),
    enabled: z.boolean(),
    createdBy: z.string(),
    createdAt: Timestamp,
    permissions: PermissionMap,
    scopes: ClientScopes,
    orgIds: z.array(z.string()).meta({
      description:
        'Organizations reachable by this key (whole or through a project); every organization for a superadmin key',
    }),
    usageSummary: UsageSummary.meta({ description: 'Requests this key made, per endpoint (zero for a new key)' }),
  })
  .meta({ id: 'OAuthClient' });

export const CreatedOAuthClient = OAuthClient.extend({
  client_secret: z.string().meta({ description: 'Shown once, here; never retrievable later' }),
}).meta({ id: 'CreatedOAuthClient' });

const ScopeGrants = z
  .object({
    orgs: z.array(Id).max(1000).default([]).meta({ description: 'Organizations granted whole (all their projects)' }),
    projects: z
      .array(z.object({ orgId: Id, projectId: Id }).strict())
      .max(10_000)
      .default([])
      .meta({ description: 'Single projects, each with the organization that owns it' }),
  })
  .strict()
  .meta({ id: 'ScopeGrants' });

const PermissionGrants = z
  .record(z.string().max(100), z.boolean())
  .meta({ description: 'Permission key → granted; unknown keys are a 400', example: { 'project:read': true } });

export const CreateClientBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
    permissions: PermissionGrants,
    scopes: ScopeGrants.default({ orgs: [], projects: [] }),
    superadmin: z.boolean().optional().meta({ description: 'Every organization in scope; staff only' }),
    enabled: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'CreateClientBody' });

export const UpdateClientBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    enabled: z.boolean().optional(),
    superadmin: z.boolean().optional(),
    permissions: PermissionGrants.optional().meta({
      description: 'Merged into the key: true grants, false revokes, absent keys stay as they are',
    }),
    scopes: ScopeGrants.optional().meta({ description: "Replaces the key's scopes; kept grants keep grantedAt" }),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { error: 'Give at least one field to change' })
  .meta({ id: 'UpdateClientBody' });

export const ClientIdPath = z.object({ id: Id });

export const OrgClientPath = z.object({ orgId: Id, id: Id });

export const ClientListQuery = strictQuery({ cursor: Cursor, limit: pageLimit(25) });

export const ClientList = listEnvelope(OAuthClient).meta({ id: 'OAuthClientList' });

/** Client credentials as JSON; `grant_type` may be given, and must then be `client_credentials`. */
export const TokenRequestJson = z
  .object({
    grant_type: z.string().max(100).optional(),
    client_id: z.string().min(1).max(200).optional().meta({ description: 'Or in HTTP Basic' }),
    client_secret: z.string().min(1).max(500).optional().meta({ description: 'Or in HTTP Basic' }),
  })
  .meta({ id: 'TokenRequest' });

/** The OAuth form body (RFC 6749 §4.4, client_secret_post). */
export const TokenRequestForm = z
  .object({
    grant_type: z.string().min(1).max(100),
    client_id: z.string().min(1).max(200).optional().meta({ description: 'Or in HTTP Basic' }),
    client_secret: z.string().min(1).max(500).optional().meta({ description: 'Or in HTTP Basic' }),
  })
  .meta({ id: 'TokenRequestForm' });

export const TokenResponse = z
  .object({
    access_token: z.string().meta({ description: 'Signed JWT' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().meta({ description: 'Seconds; 3600' }),
  })
  .meta({ id: 'TokenResponse' });

/** The token endpoint's failure body (RFC 6749 §5.2), the one body outside the Error shape. */
export const OAuthErrorBody = z
  .object({
    error: z.enum(['invalid_request', 'invalid_client', 'unsupported_grant_type', 'too_many_requests', 'server_error']),
    error_description: z.string(),
  })
  .meta({ id: 'OAuthError' });

export type OAuthClient = z.infer<typeof OAuthClient>;
export type CreateClientBody = z.infer<typeof CreateClientBody>;
export type CreatedOAuthClient = z.infer<typeof CreatedOAuthClient>;
export type UpdateClientBody = z.infer<typeof UpdateClientBody>;
export type UsageSummary = z.infer<typeof UsageSummary>;
