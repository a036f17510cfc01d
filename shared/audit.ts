import { z } from 'zod';
import { Cursor, commaList, csvCapableLimit, DateBound, Id, listEnvelope, strictQuery, Timestamp } from './common.js';

export const AuditEventsQuery = strictQuery({
  cursor: Cursor,
  limit: csvCapableLimit,
  from: DateBound.optional(),
  to: DateBound.optional(),
  actorId: Id.optional().meta({ description: 'User id or key id of the actor' }),
  action: commaList(500)
    .optional()
    .meta({ description: 'Comma-separated OR, e.g. key.created,member.role_changed,signin.failed' }),
});

export const AuditEvent = z
  .object({
    id: z.string(),
    organizationId: z.string().nullable(),
    actor: z.object({
      kind: z.enum(['user', 'client', 'anonymous', 'cli', 'scim']).meta({
        description: "client: an API key; cli: the command line; scim: the organization's SCIM provisioning token",
      }),
      id: z.string().nullable().meta({ description: 'User id or key id; null for an unknown sign-in' }),
      name: z.string(),
      email: z.string(),
    }),
    ip: z.string().nullable().meta({ description: 'The client address the request came from' }),
    action: z.string().meta({ description: 'e.g. key.created, key.disabled, member.removed, signin.failed' }),
    target: z.object({ type: z.string(), id: z.string().nullable() }),
    changes: z
      .record(z.string(), z.object({ before: z.unknown(), after: z.unknown() }))
      .meta({ description: 'Before and after of each changed field; secrets never appear' }),
    createdAt: Timestamp,
  })
  .meta({ id: 'AuditEvent' });

export const AuditEventList = listEnvelope(AuditEvent);
export type AuditEvent = z.infer<typeof AuditEvent>;
