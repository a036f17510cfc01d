import { z } from 'zod';
import { Timestamp } from './common.js';

/** An organization's SCIM provisioning token, as its admins see it (never the token itself after it is made). */
export const ScimToken = z
  .object({
    id: z.string(),
    createdAt: Timestamp,
    createdByUserId: z.string(),
    lastUsedAt: Timestamp.nullable().meta({ description: 'Last provisioning request (to the minute); null: never' }),
    baseUrl: z.string().meta({ description: "The SCIM base URL to give the identity provider ('Tenant URL')" }),
  })
  .meta({ id: 'ScimToken' });

export const ScimTokenResponse = z.object({
  data: ScimToken.nullable().meta({ description: 'null: the organization has no SCIM token' }),
});

export const CreatedScimToken = z.object({
  data: ScimToken.extend({
    token: z.string().meta({ description: 'The bearer token for the identity provider: in this answer only' }),
  }),
});

export type ScimToken = z.infer<typeof ScimToken>;
export type CreatedScimToken = z.infer<typeof CreatedScimToken>;
