import { z } from 'zod';
import { Cursor, Id, listEnvelope, pageLimit, strictQuery, Timestamp } from './common.js';

/** The events an endpoint may subscribe to (`webhook.test` is sent only by the test route, to one endpoint). */
export const webhookEventTypes = [
  'email.filed',
  'email.unfiled',
  'email.moved',
  'activity.created',
  'comment.deleted',
  'settings.updated',
  'command.applied',
  'audit.event',
  'person.disabled',
  'person.enabled',
  'person.removed',
  'person.role_changed',
  'webhook.test',
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookDeliveryStates = ['pending', 'queued', 'held', 'succeeded', 'failed', 'expired'] as const;

/**
 * How long events are kept for an endpoint: a disabled endpoint's events wait this long for it to be enabled again,
 * and a replay reaches this far back. Older ones are not sent.
 */
export const WEBHOOK_RETENTION_DAYS = 30;

/** The most events one replay resends (ask again from the last one's time for more). */
export const MAX_REPLAY_EVENTS = 1000;

/** `data` of the person.* events: a person's access to the organization changed. */
export const PersonEventData = z
  .object({
    organizationId: z.string(),
    person: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    role: z.object({ before: z.string().nullable(), after: z.string().nullable() }).optional().meta({
      description: 'person.role_changed and person.removed: the role before and after (null: no longer a member)',
    }),
    actor: z
      .object({ kind: z.string(), id: z.string().nullable(), name: z.string() })
      .meta({ description: 'Who made the change' }),
    at: Timestamp,
  })
  .meta({ id: 'PersonEventData' });
export type PersonEventData = z.infer<typeof PersonEventData>;

/** How many endpoints one organization may have: the list answers them all, so it is bounded here. */
export const MAX_WEBHOOKS_PER_ORGANIZATION = 20;

const WebhookUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2000)
  .meta({ description: 'Where events are POSTed; must not resolve to a private, loopback or link-local address' });
const Events = z
  .array(z.enum(webhookEventTypes))
  .min(1)
  .max(webhookEventTypes.length)
  .transform((events) => [...new Set(events)])
  .meta({ description: 'Event types to deliver' });
const Description = z.string().max(500);

export const CreateWebhookBody = z
  .strictObject({ url: WebhookUrl, events: Events, description: Description.optional() })
  .meta({ id: 'CreateWebhook' });

export const UpdateWebhookBody = z
  .strictObject({
    url: WebhookUrl.optional(),
    events: Events.optional(),
    description: Description.nullable().optional(),
    enabled: z
      .boolean()
      .optional()
      .meta({ description: '`true` re-enables an endpoint disabled after failing deliveries' }),
  })
  .refine((body) => Object.keys(body).length > 0, { error: 'Give at least one field to change' })
  .meta({ id: 'UpdateWebhook' });

export const Webhook = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    url: z.string(),
    events: z.array(z.enum(webhookEventTypes)),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledAt: Timestamp.nullable(),
    disabledReason: z
      .string()
      .nullable()
      .meta({ description: 'Why deliveries stopped (set when the endpoint kept failing)' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Webhook' });

export const CreatedWebhook = Webhook.extend({
  secret: z.string().meta({
    description: 'Signing secret (`whsec_…`) of the Standard Webhooks signature; shown only in this answer',
  }),
}).meta({ id: 'CreatedWebhook' });

export const WebhookPath = z.object({
  orgId: Id,
  webhookId: Id.meta({ description: 'Webhook endpoint id (`whk_…`)' }),
});

export const WebhookAttempt = z
  .object({
    attempt: z.number().int(),
    attemptedAt: Timestamp,
    durationMs: z.number().int(),
    responseStatus: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null: no answer" }),
    error: z.string().nullable(),
    succeeded: z.boolean(),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDelivery = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    eventId: z.string().meta({ description: 'The `webhook-id` header: the same on every retry' }),
    eventType: z.enum(webhookEventTypes),
    state: z.enum(webhookDeliveryStates).meta({
      description:
        '`pending` waits for its next attempt, `queued` is being sent; `held` waits for its disabled endpoint to be enabled again (then it is sent, in order, if it is at most ' +
        `${WEBHOOK_RETENTION_DAYS} days old); \`succeeded\`, \`failed\` and \`expired\` (held longer than that) are final`,
    }),
    attempts: z.array(WebhookAttempt),
    nextAttemptAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'WebhookDelivery' });

export const ReplayWebhookBody = z
  .strictObject({
    from: Timestamp.optional().meta({ description: 'Resend events raised at or after this instant' }),
    afterEventId: z
      .string()
      .max(100)
      .optional()
      .meta({ description: 'Resend events raised after this event (a `webhook-id` you received); instead of `from`' }),
    to: Timestamp.optional().meta({ description: 'Resend events raised at or before this instant (default: now)' }),
  })
  .refine((body) => (body.from === undefined) !== (body.afterEventId === undefined), {
    error: 'Give one of from and afterEventId',
  })
  .meta({ id: 'ReplayWebhook' });

export const WebhookReplay = z
  .object({
    queued: z.number().int().meta({ description: 'Events queued again for this endpoint, oldest first' }),
    more: z.boolean().meta({
      description: `More events are in the range than one replay sends (${MAX_REPLAY_EVENTS}): replay again from the last one`,
    }),
    lastEventId: z.string().nullable().meta({ description: 'The last event queued (null: none)' }),
  })
  .meta({ id: 'WebhookReplay' });
export const WebhookReplayResponse = z.object({ data: WebhookReplay });

export const WebhookDeliveriesQuery = strictQuery({ limit: pageLimit(25), cursor: Cursor });

export const WebhookResponse = z.object({ data: Webhook });
export const CreatedWebhookResponse = z.object({ data: CreatedWebhook });
export const WebhookList = z.object({ data: z.array(Webhook) });
export const WebhookDeliveryResponse = z.object({ data: WebhookDelivery });
export const WebhookDeliveryPage = listEnvelope(WebhookDelivery);

export type Webhook = z.infer<typeof Webhook>;
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
export type WebhookReplay = z.infer<typeof WebhookReplay>;
