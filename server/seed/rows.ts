import { getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/connection.js';
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
  s.apiKeys,
  s.apiKeyOrgScopes,
  s.apiKeyProjectScopes,
  s.requestUsage,
  s.commandEvents,
  s.idempotencyRecords,
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

/** The tables the seed writes. */
export const seededTables = (): string[] => loadOrder.map((table) => getTableName(table));

const BATCH_ROWS = 5_000;

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

  /** Multi-row inserts in batches, parents first; `onBatch` gets the number of rows just written. */
  async write(tx: Db | Tx, onBatch?: (rows: number) => void): Promise<void> {
    for (const table of loadOrder) {
      const rows = this.byTable.get(table);
      if (!rows?.length) continue;
      for (let i = 0; i < rows.length; i += BATCH_ROWS) {
        const slice = rows.slice(i, i + BATCH_ROWS);
        await tx.execute(unnestInsert(table, slice));
        onBatch?.(slice.length);
      }
    }
  }
}

/**
 * `INSERT … SELECT FROM unnest($1::text[], $2::text[], …)`: one array parameter per column instead
 * of one parameter per value, so a batch of thousands of rows is cheap to build, send and parse.
 * Values travel as text and are cast to the column type (array columns as array literals).
 */
function unnestInsert(table: PgTable, rows: Record<string, unknown>[]): SQL {
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(([key]) =>
    rows.some((row) => row[key] !== undefined),
  );
  const arrays = columns.map(([key, column]) => {
    const isArray = column.getSQLType().endsWith('[]');
    return rows.map((row) => {
      const value = row[key];
      if (value === undefined || value === null) return null;
      if (isArray) return arrayLiteral(value as unknown[]);
      if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
      return String(column.mapToDriverValue(value));
    });
  });
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  const casts = sql.join(
    columns.map(([, column], i) => sql`${sql.identifier(`c${i}`)}::${sql.raw(column.getSQLType())}`),
    sql`, `,
  );
  const sources = sql.join(
    arrays.map((values) => sql`${sql.param(values)}::text[]`),
    sql`, `,
  );
  const aliases = sql.join(
    columns.map((_, i) => sql.identifier(`c${i}`)),
    sql`, `,
  );
  return sql`INSERT INTO ${table} (${names}) SELECT ${casts} FROM unnest(${sources}) AS u(${aliases})`;
}

const arrayLiteral = (values: unknown[]) =>
  `{${values.map((v) => `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
