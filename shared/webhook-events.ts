import { z } from 'zod';
import { AuditEvent } from './audit.js';
import { Timestamp } from './common.js';
import { Filer } from './filing.js';
import { PersonEventData, WEBHOOK_RETENTION_DAYS, type WebhookEventType } from './webhooks.js';

// What each webhook event's `data` holds: the OpenAPI document's `webhooks` section is made from these.

const Person = z.object({ id: z.string().nullable(), name: z.string(), email: z.string() });
const FiledEmailRef = {
  id: z.string().meta({ description: 'The filed e-mail' }),
  organizationId: z.string(),
  projectId: z.string(),
  documentId: z.string().nullable(),
  internetMessageId: z.string(),
  subject: z.string(),
};

export const webhookEventDocs: Record<WebhookEventType, { summary: string; data: z.ZodType }> = {
  'email.filed': {
    summary: 'An e-mail was filed to a project',
    data: z
      .object({
        ...FiledEmailRef,
        from: z.unknown().meta({ description: 'The sender as the message names them' }),
        sentAt: Timestamp.nullable(),
        attachmentCount: z.number().int(),
        filedBy: Filer,
        filedAt: Timestamp,
      })
      .meta({ id: 'EmailFiledEventData' }),
  },
  'email.unfiled': {
    summary: 'A filed e-mail was removed from its project',
    data: z.object({ ...FiledEmailRef, unfiledBy: Person, unfiledAt: Timestamp }).meta({ id: 'EmailUnfiledEventData' }),
  },
  'email.moved': {
    summary: 'A filed e-mail was moved to another project or document',
    data: z
      .object({
        ...FiledEmailRef,
        from: z.object({ projectId: z.string(), documentId: z.string().nullable() }),
        movedBy: Person,
        movedAt: Timestamp,
      })
      .meta({ id: 'EmailMovedEventData' }),
  },
  'activity.created': {
    summary: 'An entry was added to the activity feed',
    data: z
      .object({
        uid: z.string(),
        organizationId: z.string(),
        projectId: z.string().nullable(),
        documentId: z.string().nullable(),
        actor: z.object({ uid: z.string().nullable(), name: z.string(), email: z.string() }),
        action: z.string(),
        title: z.string(),
        details: z.record(z.string(), z.unknown()),
        createdAt: Timestamp,
      })
      .meta({ id: 'ActivityCreatedEventData' }),
  },
  'comment.deleted': {
    summary: 'A comment was deleted',
    data: z
      .object({
        commentId: z.string(),
        organizationId: z.string(),
        projectId: z.string().nullable(),
        documentId: z.string().nullable(),
        deletedBy: Person,
        deletedAt: Timestamp,
      })
      .meta({ id: 'CommentDeletedEventData' }),
  },
  'settings.updated': {
    summary: "An organization's setting changed",
    data: z
      .object({
        organizationId: z.string(),
        setting: z.string().meta({ description: 'e.g. emailFiling.aiSuggest' }),
        from: z.unknown(),
        to: z.unknown(),
        updatedBy: Person,
        updatedAt: Timestamp,
      })
      .meta({ id: 'SettingsUpdatedEventData' }),
  },
  'command.applied': {
    summary: 'A command (a change made through the command pipeline) was applied',
    data: z
      .object({
        command: z.string().meta({ description: 'The operationId of the route' }),
        organizationId: z.string(),
        params: z.record(z.string(), z.unknown()),
        result: z.unknown(),
        appliedAt: Timestamp,
      })
      .meta({ id: 'CommandAppliedEventData' }),
  },
  'audit.event': { summary: 'An administrative change was recorded in the audit log', data: AuditEvent },
  'person.disabled': {
    summary: 'A member of the organization was disabled: no sign-in, every token refused',
    data: PersonEventData,
  },
  'person.enabled': { summary: 'A disabled member of the organization was enabled again', data: PersonEventData },
  'person.removed': { summary: 'A person was removed from the organization', data: PersonEventData },
  'person.role_changed': { summary: "A member's role in the organization changed", data: PersonEventData },
  'webhook.test': {
    summary: 'Sent by POST …/webhooks/{webhookId}/test to that endpoint alone',
    data: z.object({ webhookId: z.string(), requestedBy: Person }).meta({ id: 'WebhookTestEventData' }),
  },
};

/** How deliveries behave, said once in the `webhooks` section of the OpenAPI document. */
export const webhookDeliveryRules =
  'POSTed by the Standard Webhooks specification: headers `webhook-id` (the event id, the same on every retry and ' +
  'replay: deduplicate on it), `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 with the endpoint secret). ' +
  'A 2xx answer acknowledges it; anything else is retried with backoff for more than 24 hours, after which the ' +
  'endpoint is disabled. Delivery is at least once and not in order: attempts start oldest event first, but ' +
  'several run at once and a retried event arrives after later ones. Where order matters, compare the body ' +
  '`timestamp` (when the change was made) or re-read the resource. Events raised while an endpoint is disabled ' +
  `are held up to ${WEBHOOK_RETENTION_DAYS} ` +
  'days and sent, oldest first, when it is enabled again; POST …/webhooks/{webhookId}/replay sends a range again.';
