import type { Db, Tx } from '../db/client.js';
import { activity } from '../db/schema.js';
import { newId } from '../ids.js';

export interface ActivityInput {
  organizationId: string;
  projectId?: string | null;
  documentId?: string | null;
  actor: { id: string | null; name: string; email: string };
  action: string;
  title: string;
  details?: Record<string, unknown>;
  dispatchId?: string | null;
  at: Date;
}

/** Records one activity row; call it inside the transaction of the change it describes. */
export async function recordActivity(tx: Db | Tx, input: ActivityInput): Promise<string> {
  const id = newId('act');
  await tx.insert(activity).values({
    id,
    organizationId: input.organizationId,
    projectId: input.projectId ?? null,
    documentId: input.documentId ?? null,
    actorId: input.actor.id,
    actorName: input.actor.name,
    actorEmail: input.actor.email,
    action: input.action,
    title: input.title,
    details: input.details,
    dispatchId: input.dispatchId ?? null,
    createdAt: input.at,
  });
  return id;
}
