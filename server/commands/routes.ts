import { CommandResult, PingBody, PingPath } from '../../shared/commands.js';
import { access } from '../http/route.js';
import { defineCommand } from './pipeline.js';
import { ping } from './service.js';

export const commandRoutes = [
  defineCommand({
    path: '/v1/commands/ping/:entityId',
    operationId: 'pingCommand',
    summary: 'Reference command that exercises the command contract',
    description:
      'Records one event for the entity. Requires `idempotency-key`: a retry with the same key and request replays ' +
      'the first response; the key is scoped to the caller and kept for 24 hours.',
    tags: ['Commands'],
    access: access.authenticated,
    params: PingPath,
    body: PingBody,
    responses: { 200: { description: 'The command was applied', schema: CommandResult } },
    handler: ({ tx, app, caller, params, body }) =>
      ping(tx, { caller, entityId: params.entityId, note: body.note, at: app.clock.now() }),
  }),
];
