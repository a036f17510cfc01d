import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client.js';
import * as s from '../db/schema.js';

/** Tables in the order their rows can be inserted (parents before children). */
const loadOrder: PgTable[] = [
  s.organizations,
  s.users,
  s.organizationMembers,
  s.emailFilingSettings,
  s.supportIssues,
  s.projects,
  s.projectMembers,
  s.documents,
  s.documentAssignees,
  s.documentApprovers,
  s.documentDistribution,
  s.documentConsultants,
  s.reviewRuns,
  s.reviewFindings,
  s.comments,
  s.commentMentions,
  s.reports,
  s.reportSections,
  s.reportAttendees,
  s.reportDistribution,
  s.dispatches,
  s.emailMessages,
  s.activity,
  s.drawingPackages,
  s.drawings,
  s.drawingRevisions,
  s.filedEmails,
  s.filedEmailAttachments,
];

/** PostgreSQL accepts at most 65,535 bind parameters per statement; stay well below. */
const MAX_PARAMETERS = 60_000;
const MAX_BATCH_ROWS = 5_000;

/** Rows waiting to be written, grouped by table. */
export class RowSet {
  private readonly byTable = new Map<PgTable, Record<string, unknown>[]>();

  add<T extends PgTable>(table: T, row: T['$inferInsert']): void {
    let rows = this.byTable.get(table);
    if (!rows) {
      rows = [];
      this.byTable.set(table, rows);
    }
    rows.push(row as Record<string, unknown>);
  }

  count(table: PgTable): number {
    return this.byTable.get(table)?.length ?? 0;
  }

  /** Row counts by table name. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const [table, rows] of this.byTable) counts[getTableName(table)] = rows.length;
    return counts;
  }

  /** Multi-row inserts in batches, parents first; `onBatch` gets the rows written so far. */
  async write(tx: Db | Tx, onBatch?: (rows: number) => void): Promise<void> {
    for (const table of loadOrder) {
      const rows = this.byTable.get(table);
      if (!rows?.length) continue;
      const columns = Object.keys(getTableColumns(table)).length;
      const batch = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns)));
      for (let i = 0; i < rows.length; i += batch) {
        const slice = rows.slice(i, i + batch);
        await tx.insert(table).values(slice as never);
        onBatch?.(slice.length);
      }
    }
  }
}
