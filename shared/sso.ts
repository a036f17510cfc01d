import { z } from 'zod';
import { Id, Timestamp } from './common.js';

const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'Not an e-mail domain')
  .meta({ example: 'harbor-build.com' });

/** One e-mail domain of the connection: it signs people in once its ownership is proven. */
export const SsoDomain = z
  .object({
    domain: z.string(),
    status: z.enum(['pending', 'verified']).meta({
      description: 'pending: no one of this domain signs in through the provider (nor loses their password) yet',
    }),
    verifiedAt: Timestamp.nullable(),
    verifiedBy: z
      .enum(['dns', 'operator'])
      .nullable()
      .meta({ description: 'dns: the TXT record was found; operator: Sitefile staff approved the domain' }),
    txtName: z.string().meta({
      description: 'The DNS name of the TXT record that proves ownership',
      example: '_sitefile-challenge.harbor-build.com',
    }),
    txtValue: z.string().meta({
      description: 'The TXT record value to publish there',
      example: 'sitefile-verification=4f0c2a9e8b7d6c5e4f3a2b1c0d9e8f7a',
    }),
  })
  .meta({ id: 'SsoDomain' });

/** An organization's OpenID Connect identity provider, as its admins see it (never the client secret). */
export const SsoConnection = z
  .object({
    issuer: z.string().meta({ description: "The provider's issuer URL, as its discovery document names it" }),
    clientId: z.string(),
    domains: z.array(z.string()).meta({ description: 'E-mail domains, verified or pending (see domainStatus)' }),
    domainStatus: z.array(SsoDomain).meta({
      description: "Each domain's verification: only verified ones sign people in through this provider",
    }),
    requireSso: z.boolean().meta({ description: 'Passwords are refused for people of these domains' }),
    redirectUri: z.string().meta({ description: 'The redirect URI to register at the identity provider' }),
    updatedAt: Timestamp,
  })
  .meta({ id: 'SsoConnection' });

export const SsoConnectionResponse = z.object({
  data: SsoConnection.nullable().meta({ description: 'null: the organization has no identity provider' }),
});

export const SsoConnectionInput = z
  .object({
    issuer: z.url({ protocol: /^https?$/ }).max(500),
    clientId: z.string().trim().min(1).max(500),
    clientSecret: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .meta({ description: 'Required the first time; left out: the stored one is kept' }),
    domains: z.array(Domain).min(1).max(50),
    requireSso: z.boolean().default(false),
  })
  .meta({ id: 'SsoConnectionInput' });

export const SsoDomainResponse = z.object({ data: SsoDomain });

export const SsoDomainPath = z.object({
  orgId: Id,
  domain: Domain.meta({ description: 'One of the e-mail domains of the connection' }),
});

export type SsoDomain = z.infer<typeof SsoDomain>;
export type SsoConnection = z.infer<typeof SsoConnection>;
export type SsoConnectionInput = z.output<typeof SsoConnectionInput>;
