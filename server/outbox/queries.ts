import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { principalMayRead } from '../auth/queries.js';
import type { Db, Tx } from '../db/connection.js';
import { selectRows } from '../db/rows.js';
import { webhookDeliveries, webhookEvents, webhooks } from '../db/schema.js';
import { newId } from '../ids.js';

// The outbox every resource writes its events to, in the transaction of the change. It sits apart from
// server/webhooks/ (the endpoints and their delivery), which records activity itself: the activity feed emits
// events, so with the outbox inside webhooks/ the two folders imported each other.

export interface NewEvent {
  organizationId: string;
  type: string;
  data: unknown;
  at: Date;
  /** The project the event is about; none for an organization-wide one (settings, an activity of no project). */
  projectId?: string | null;
  /** Only to this endpoint, whatever it subscribed to (the test event). */
  webhookId?: string;
}

/**
 * Writes an event to the outbox with one delivery per endpoint of the organization that
 * subscribed to its type — pending, or held while the endpoint is disabled (sent when it is enabled again) — and whose creator may read it now (an endpoint reaches no further than the key or person
 * that made it, whose access may since have shrunk or ended), in one statement of the caller's transaction: the
 * event commits, or rolls back, with the change it describes. Nothing is written when no endpoint wants it. The
 * test event goes to its endpoint alone, whoever made it. Answers the deliveries' ids.
 */
export async function emitEvent(tx: Db | Tx, event: NewEvent): Promise<string[]> {
  const creatorMayRead = principalMayRead(sql`w.created_by_id`, event.organizationId, event.projectId ?? undefined);
  const wanted = event.webhookId
    ? sql`w.id = ${event.webhookId}`
    : sql`${event.type} = any(w.events) and ${creatorMayRead}`;
  const rows = await selectRows(
    tx,
    sql`with event as (
        insert into ${webhookEvents} (id, organization_id, type, data, created_at)
        select ${newId('msg')}, ${event.organizationId}, ${event.type}, ${JSON.stringify(event.data)}::jsonb, ${event.at}
        where exists (select 1 from ${webhooks} w where w.organization_id = ${event.organizationId} and ${wanted})
        returning id, organization_id, created_at
      )
      insert into ${webhookDeliveries} (id, organization_id, webhook_id, event_id, state, next_attempt_at, created_at)
      select 'whd_' || replace(gen_random_uuid()::text, '-', ''), event.organization_id, w.id, event.id,
        case when w.enabled then 'pending' else 'held' end, event.created_at, event.created_at
      from event join ${webhooks} w on w.organization_id = event.organization_id and ${wanted}
      returning id`,
    z.object({ id: z.string() }),
  );
  return rows.map((row) => row.id);
}
