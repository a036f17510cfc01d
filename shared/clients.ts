import { z } from 'zod';
import { Id, Timestamp } from './common.js';
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
    orgIds: z
      .array(z.string())
      .meta({ description: 'Organizations reachable by this key (whole or through a project)' }),
    usageSummary: UsageSummary.optional(),
  })
  .meta({ id: 'OAuthClient' });

export const CreatedOAuthClient = OAuthClient.extend({
  client_secret: z.string().meta({ description: 'Shown once, here; never retrievable later' }),
}).meta({ id: 'CreatedOAuthClient' });

export const CreateClientBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
    permissions: z.record(z.string(), z.boolean()),
    scopes: z
      .object({
        orgs: z.array(Id).max(1000).default([]),
        projects: z
          .array(z.object({ orgId: Id, projectId: Id }))
          .max(10_000)
          .default([]),
      })
      .default({ orgs: [], projects: [] }),
    superadmin: z.boolean().optional(),
    enabled: z.boolean().optional(),
  })
  .meta({ id: 'CreateClientBody' });

export type OAuthClient = z.infer<typeof OAuthClient>;
export type CreateClientBody = z.infer<typeof CreateClientBody>;
