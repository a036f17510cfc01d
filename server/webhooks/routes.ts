import { OrgPath } from '../../shared/common.js';
import {
  CreatedWebhookResponse,
  CreateWebhookBody,
  ReplayWebhookBody,
  UpdateWebhookBody,
  WebhookDeliveriesQuery,
  WebhookDeliveryPage,
  WebhookDeliveryResponse,
  WebhookList,
  WebhookPath,
  WebhookReplayResponse,
  WebhookResponse,
} from '../../shared/webhooks.js';
import { actorOf } from '../audit/service.js';
import { access, defineRoute } from '../http/route.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  replayWebhook,
  sendTestEvent,
  updateWebhook,
} from './service.js';

// Keys holding webhook:manage for the organization, its admins and staff.
const common = { tags: ['Webhooks'], access: access.needsOrOrgAdmin('webhook:manage') };
const notFound = { 404: 'Webhook not found in this organization' };
const base = '/v1/organization/:orgId/webhooks';
/** A route about one endpoint of the organization: its path, and a 404 when it is not the organization's. */
const oneWebhook = { ...common, params: WebhookPath, errors: notFound };

export const webhookRoutes = [
  defineRoute({
    ...common,
    method: 'post',
    path: base,
    operationId: 'createWebhook',
    summary: 'Register a webhook endpoint',
    description:
      'Events of the organization are POSTed to `url` by the Standard Webhooks specification (headers `webhook-id`, ' +
      '`webhook-timestamp`, `webhook-signature`; body `{type, timestamp, data}`), at least once, retried with ' +
      'exponential backoff for more than 24 hours. The answer carries the signing secret (`whsec_…`) once. A URL ' +
      'that resolves to a loopback, private or link-local address is refused (400).',
    params: OrgPath,
    body: CreateWebhookBody,
    responses: { 201: { description: 'The endpoint, with its signing secret', schema: CreatedWebhookResponse } },
    errors: { 409: 'The organization already has the most webhooks allowed' },
    handler: async ({ app, req, caller, params, body }) => ({
      data: await createWebhook(app, caller, params.orgId, body, actorOf(caller, req.ip)),
    }),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: base,
    operationId: 'listWebhooks',
    description:
      'Every webhook endpoint of the organization, oldest first (an organization has at most 20), each with its URL, events and state; signing secrets are never shown again.',
    summary: "List the organization's webhook endpoints (at most 20), oldest first",
    params: OrgPath,
    responses: { 200: { description: 'The endpoints (without their secrets)', schema: WebhookList } },
    handler: async ({ app, params }) => ({ data: await listWebhooks(app, params.orgId) }),
  }),
  defineRoute({
    ...oneWebhook,
    method: 'get',
    path: `${base}/:webhookId`,
    operationId: 'getWebhook',
    description: 'One webhook endpoint with its URL, events and state; its signing secret is never shown again.',
    summary: 'Read one webhook endpoint',
    responses: { 200: { description: 'The endpoint (without its secret)', schema: WebhookResponse } },
    handler: async ({ app, params }) => ({ data: await getWebhook(app, params.orgId, params.webhookId) }),
  }),
  defineRoute({
    ...oneWebhook,
    method: 'patch',
    path: `${base}/:webhookId`,
    operationId: 'updateWebhook',
    description:
      "Changes the endpoint's URL, events or description, or enables it again after it was disabled for failing (which clears why it was disabled). Fields left out keep their values.",
    summary: 'Change a webhook endpoint, or re-enable one disabled after failing',
    body: UpdateWebhookBody,
    responses: { 200: { description: 'The endpoint as changed', schema: WebhookResponse } },
    handler: async ({ app, req, caller, params, body }) => ({
      data: await updateWebhook(app, params.orgId, params.webhookId, body, actorOf(caller, req.ip)),
    }),
  }),
  defineRoute({
    ...oneWebhook,
    method: 'delete',
    path: `${base}/:webhookId`,
    operationId: 'deleteWebhook',
    description: 'Deletes the endpoint and its delivery log; events raised afterwards are not sent to it.',
    summary: 'Delete a webhook endpoint and its delivery log',
    responses: { 204: { description: 'Deleted; empty body' } },
    handler: async ({ app, req, caller, params }) => {
      await deleteWebhook(app, params.orgId, params.webhookId, actorOf(caller, req.ip));
    },
  }),
  defineRoute({
    ...oneWebhook,
    method: 'get',
    path: `${base}/:webhookId/deliveries`,
    operationId: 'listWebhookDeliveries',
    description:
      "The endpoint's deliveries, newest first, a page at a time: each event sent, its state and every attempt with its time and the status the endpoint answered.",
    summary: "An endpoint's delivery log, newest first, each delivery with every attempt's status",
    query: WebhookDeliveriesQuery,
    responses: { 200: { description: 'One page of deliveries', schema: WebhookDeliveryPage } },
    handler: ({ app, params, query }) => listDeliveries(app, params.orgId, params.webhookId, query),
  }),
  defineRoute({
    ...oneWebhook,
    method: 'post',
    path: `${base}/:webhookId/replay`,
    operationId: 'replayWebhook',
    summary: 'Send again the events of a time or event range to this endpoint',
    description:
      'Queues again, oldest first, every event this endpoint was sent (or held for) from `from` (or after the event ' +
      '`afterEventId`) to `to`: at most 1000 per call (`more` says when to call again from `lastEventId`), none ' +
      'older than the 30 days events are kept, none the endpoint is still waiting for. Each keeps its event id as ' +
      '`webhook-id`, so a receiver that already handled one can drop it. Audited as `webhook.replayed`.',
    body: ReplayWebhookBody,
    responses: { 202: { description: 'How many events were queued', schema: WebhookReplayResponse } },
    errors: { ...notFound, 409: 'The webhook is disabled (enabling it sends what it missed)' },
    handler: async ({ app, req, caller, params, body }) => ({
      data: await replayWebhook(app, params.orgId, params.webhookId, body, actorOf(caller, req.ip)),
    }),
  }),
  defineRoute({
    ...oneWebhook,
    method: 'post',
    path: `${base}/:webhookId/test`,
    operationId: 'testWebhook',
    summary: 'Send a `webhook.test` event to this endpoint',
    description: 'Queued like any event; follow it in the delivery log.',
    responses: { 202: { description: 'The queued delivery', schema: WebhookDeliveryResponse } },
    errors: { ...notFound, 409: 'The webhook is disabled' },
    handler: async ({ app, caller, params }) => ({
      data: await sendTestEvent(app, caller, params.orgId, params.webhookId),
    }),
  }),
];
