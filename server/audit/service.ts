import { userInfo } from 'node:os';
import type { z } from 'zod';
import type { AuditEventList, AuditEventsQuery } from '../../shared/audit.js';
import type { Caller } from '../auth/caller.js';
import type { ListContext } from '../context.js';
import { createdAtPosition, cursorPosition, cutPage, keysetCursor } from '../cursor.js';
import { dateWindow } from '../date-window.js';
import { csvChunks } from '../db/csv-export.js';
import { csvRowCap, jsonPageSize, type Listing } from '../listing.js';
import {
  type AuditActor,
  type AuditFilters,
  auditCsvColumns,
  auditCsvFrom,
  auditPage,
  presentAuditRow,
} from './queries.js';

/** The actor of a change made by a signed-in caller, from the address the request came from. */
export const actorOf = (caller: Caller, ip: string | undefined): AuditActor => ({
  kind: caller.kind,
  id: caller.id,
  name: caller.name,
  email: caller.email,
  ip: ip ?? null,
});

/** The operator running the command line: changes made there are recorded too. */
export const commandLineActor = (): AuditActor => ({
  kind: 'cli',
  id: null,
  name: `Command line (${userInfo().username})`,
  email: '',
  ip: null,
});

type Query = z.output<typeof AuditEventsQuery>;

/** An organization's audit events, newest first: a page, or every one as CSV with `limit` as the row cap. */
export function listAuditEvents(
  app: ListContext,
  orgId: string,
  query: Query,
): Listing<z.output<typeof AuditEventList>> {
  const { db, cursorKey } = app;
  // The cursor is bound to the filters it was made with (reused with others: 400).
  const binding = {
    list: 'audit-events',
    orgId,
    actorId: query.actorId,
    action: query.action,
    from: query.from,
    to: query.to,
  };
  const filters = (): AuditFilters => ({
    organizationId: orgId,
    actorId: query.actorId,
    actions: query.action,
    ...dateWindow(query.from, query.to),
  });
  const position = () => cursorPosition(cursorKey, query.cursor, binding, 'timestamp');
  return {
    async page() {
      const limit = jsonPageSize(query.limit);
      const rows = await auditPage(db, filters(), position(), limit);
      const { page, nextCursor, hasMore } = cutPage(rows, limit, keysetCursor(cursorKey, binding, createdAtPosition));
      return { data: page.map(presentAuditRow), nextCursor, hasMore };
    },
    async csv() {
      return {
        fileName: `audit-events-${orgId}.csv`,
        chunks: csvChunks({
          db,
          from: auditCsvFrom(filters(), position()),
          columns: auditCsvColumns,
          limit: csvRowCap(query.limit),
        }),
      };
    },
  };
}
