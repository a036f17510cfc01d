import { z } from 'zod';
import { Id } from './common.js';

/** Commands: POSTs that change something, made safe to retry with an `idempotency-key` header. */

export const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string({ error: 'idempotency-key header is required' })
    .min(1, { error: 'idempotency-key must be 1 to 255 characters' })
    .max(255, { error: 'idempotency-key must be 1 to 255 characters' })
    .meta({
      description:
        'One key per logical user action, reused across transport retries of that action. The same key with the ' +
        'same request replays the first response (with `Idempotent-Replayed: true`) for at least 24 hours.',
    }),
});

export const PingPath = z.object({ entityId: Id.meta({ description: 'The entity the command acts on' }) });

export const PingBody = z.strictObject({ note: z.string().max(1000).optional() }).meta({ id: 'PingCommandBody' });

export const CommandResult = z
  .object({
    eventId: z.string().meta({ description: 'The recorded event' }),
    status: z.enum(['applied']),
    note: z.string().optional(),
  })
  .meta({ id: 'CommandResult' });

export type CommandResult = z.infer<typeof CommandResult>;
