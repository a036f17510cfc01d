import { z } from 'zod';
import { Timestamp } from './common.js';

const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'Not an e-mail domain')
  .meta({ example: 'harbor-build.com' });

/** An organization's OpenID Connect identity provider, as its admins see it (never the client secret). */
export const SsoConnection = z
  .object({
    issuer: z.string().meta({ description: "The provider's issuer URL, as its discovery document names it" }),
    clientId: z.string(),
    domains: z.array(z.string()).meta({ description: 'E-mail domains whose people sign in through this provider' }),
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

export type SsoConnection = z.infer<typeof SsoConnection>;
export type SsoConnectionInput = z.output<typeof SsoConnectionInput>;
