import type { CommandResult } from '../../shared/commands.js';
import type { Caller } from '../auth/caller.js';
import type { Tx } from '../db/connection.js';
import { newId } from '../ids.js';
import { insertCommandEvent } from './queries.js';

/** The reference command: records one event for the entity. Runs inside the command pipeline's transaction. */
export async function ping(
  tx: Tx,
  input: { caller: Caller; entityId: string; note?: string; at: Date },
): Promise<CommandResult> {
  const eventId = newId('evt');
  await insertCommandEvent(tx, {
    id: eventId,
    organizationId: null,
    callerKey: input.caller.callerKey,
    command: 'ping',
    entityId: input.entityId,
    note: input.note ?? null,
    createdAt: input.at,
  });
  return { eventId, status: 'applied', ...(input.note === undefined ? {} : { note: input.note }) };
}
