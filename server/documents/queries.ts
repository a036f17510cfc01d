import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  type DateRange,
  documentFormats,
  documentStatuses,
  documentTypes,
  reviewStatuses,
  type SubmittalSortField,
  terminalStatuses,
} from '../../shared/documents.js';
import { inclusiveWindow } from '../date-window.js';
import type { Db } from '../db/connection.js';
import { likeContains } from '../db/like.js';
import { selectRows } from '../db/rows.js';
import { isoUtc } from '../db/sql-text.js';
import { changedSince } from '../db/sync-token.js';
import { isIsoDate, isIsoTimestamp } from '../iso-dates.js';

/**
 * The document lists as SQL over `documents d`. One filter shape serves all four endpoints; rows come back
 * already in the API's shape (camelCase names, ISO 8601 text for timestamps, JSON arrays), so the JSON page
 * and the streamed CSV share one query and give identical values.
 */
export interface DocumentFilter {
  /** One document by its uid. */
  uid?: string;
  projectId?: string;
  organizationId?: string;
  formats?: string[];
  types?: string[];
  statuses?: string[];
  reviewStatuses?: string[];
  /** filter.open: status not terminal. */
  open?: boolean;
  /** filter.overdue: due before this day (UTC, YYYY-MM-DD) and status not terminal. */
  overdueBefore?: string;
  reviewHint?: 'high' | 'any';
  search?: string;
  divisionTitle?: string;
  assigneeId?: string;
  assigneeName?: string;
  dueDate?: DateRange;
  createdAt?: DateRange;
  receivedAt?: DateRange;
  closedAt?: DateRange;
  /** filter.changedSince: a sync token (rows whose change_seq is at or above it). */
  changedSince?: string;
  /** filter.updatedAt: bounds may be date-times (a sync's last run). */
  updatedAt?: DateRange;
}

export interface DocumentSort {
  field: SubmittalSortField;
  order: 'asc' | 'desc';
}

/** Sort value of the last row (as the row carries it) and its uid. */
export interface AfterKey {
  value: string | null;
  uid: string;
}

type SortColumn = { column: string; nullable: boolean; cast: string };

const sortColumns: Record<SubmittalSortField, SortColumn> = {
  createdAt: { column: 'd.created_at', nullable: false, cast: 'timestamptz' },
  updatedAt: { column: 'd.updated_at', nullable: false, cast: 'timestamptz' },
  dueDate: { column: 'd.due_date', nullable: true, cast: 'date' },
  title: { column: 'd.title', nullable: false, cast: 'text' },
  receivedAt: { column: 'd.received_at', nullable: true, cast: 'timestamptz' },
  closedAt: { column: 'd.closed_at', nullable: true, cast: 'timestamptz' },
  referenceNumber: { column: 'd.reference_number', nullable: true, cast: 'text' },
};

/** A `timestamptz(3)` column of `d` by name, as the API's ISO 8601 text. */
export const iso = (column: string) => isoUtc(sql.raw(column));

/** The names of a range filter's two ends, for a 400 that names the parameter. */
const rangeNames = (parameter: string) => ({ from: parameter, to: parameter });

function timestampRange(column: string, range: DateRange | undefined, parameter: string): SQL[] {
  if (!range) return [];
  const col = sql.raw(column);
  const { from, before } = inclusiveWindow(range.from, range.to, rangeNames(parameter));
  return [
    ...(from ? [sql`${col} >= ${from.toISOString()}::timestamptz`] : []),
    ...(before ? [sql`${col} < ${before.toISOString()}::timestamptz`] : []),
  ];
}

function dateRange(column: string, range: DateRange | undefined, parameter: string): SQL[] {
  if (!range) return [];
  inclusiveWindow(range.from, range.to, rangeNames(parameter)); // the same years as every other date filter
  const col = sql.raw(column);
  return [
    ...(range.from ? [sql`${col} >= ${range.from}::date`] : []),
    ...(range.to ? [sql`${col} <= ${range.to}::date`] : []),
  ];
}

const inList = (column: string, values: readonly string[]) =>
  sql`${sql.raw(column)} in (${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;

const terminal = sql.raw(`(${terminalStatuses.map((s) => `'${s}'`).join(', ')})`);

/** Active findings (not soft-deleted, not dismissed), through the `high` lens when asked. */
export const activeFindings = (lens: 'high' | 'any' | undefined) =>
  lens === 'high'
    ? sql`f.document_id = d.id and f.deleted_at is null and not f.dismissed
        and ((f.source = 'spec' and f.severity = 'mismatch') or (f.source = 'quality' and f.severity = 'required'))`
    : sql`f.document_id = d.id and f.deleted_at is null and not f.dismissed`;

/**
 * Full text (weighted number/title over the rest, both dictionaries so stemmed and exact words match) or
 * the trigram index on `number || ' ' || title`: a contains-match for partial numbers like `RFI-00`, and
 * word similarity for misspelt words. Word similarity only for terms without digits: `SUB-001` is
 * "similar" to every other number. Project and organization names are part of none of these.
 */
const searchMatch = (text: string) => sql`(
  d.search_vector @@ websearch_to_tsquery('english', ${text})
  or d.search_vector @@ websearch_to_tsquery('simple', ${text})
  or (d.number || ' ' || d.title) ilike ${likeContains(text)}
  ${/\d/.test(text) ? sql`` : sql`or ${text} <% (d.number || ' ' || d.title)`})`;

export function whereOf(filter: DocumentFilter): SQL {
  const conditions: SQL[] = [
    ...(filter.uid ? [sql`d.id = ${filter.uid}`] : []),
    ...(filter.projectId ? [sql`d.project_id = ${filter.projectId}`] : []),
    ...(filter.organizationId ? [sql`d.organization_id = ${filter.organizationId}`] : []),
    ...(filter.formats?.length ? [inList('d.format', filter.formats)] : []),
    ...(filter.types?.length ? [inList('d.type', filter.types)] : []),
    ...(filter.statuses?.length ? [inList('d.status', filter.statuses)] : []),
    ...(filter.reviewStatuses?.length ? [inList('d.review_status', filter.reviewStatuses)] : []),
    ...(filter.open ? [sql`d.status not in ${terminal}`] : []),
    ...(filter.overdueBefore ? [sql`d.due_date < ${filter.overdueBefore}::date and d.status not in ${terminal}`] : []),
    ...(filter.reviewHint
      ? [sql`exists (select 1 from review_findings f where ${activeFindings(filter.reviewHint)})`]
      : []),
    ...(filter.search ? [searchMatch(filter.search)] : []),
    ...(filter.divisionTitle ? [sql`d.division_title ilike ${likeContains(filter.divisionTitle)}`] : []),
    ...(filter.assigneeId
      ? [
          sql`exists (select 1 from document_assignees a where a.document_id = d.id and a.user_id = ${filter.assigneeId})`,
        ]
      : []),
    ...(filter.assigneeName
      ? [
          sql`exists (select 1 from document_assignees a where a.document_id = d.id and a.name ilike ${likeContains(filter.assigneeName)})`,
        ]
      : []),
    ...dateRange('d.due_date', filter.dueDate, 'filter.dueDate'),
    ...timestampRange('d.created_at', filter.createdAt, 'filter.createdAt'),
    ...timestampRange('d.received_at', filter.receivedAt, 'filter.receivedAt'),
    ...timestampRange('d.closed_at', filter.closedAt, 'filter.closedAt'),
    ...timestampRange('d.updated_at', filter.updatedAt, 'filter.updatedAt'),
    ...(filter.changedSince ? [changedSince(sql`d.change_seq`, filter.changedSince)] : []),
  ];
  return conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
}

/**
 * Requested order, nulls last in both directions, uid as the tiebreak in the same direction. Columns that
 * cannot be null get no NULLS clause: `desc nulls last` would not match a backward scan of their btree
 * index (the planner does not use NOT NULL to drop it) and every page would sort the whole list.
 */
export function orderOf(sort: DocumentSort): SQL {
  const { column, nullable } = sortColumns[sort.field];
  return sql.raw(`${column} ${sort.order}${nullable ? ' nulls last' : ''}, d.id ${sort.order}`);
}

/**
 * Rows strictly after `after` in `orderOf(sort)`. Non-null columns use a row comparison (an index range);
 * nullable ones add the null block, which sorts after every value whichever the direction.
 */
export function afterCursor(sort: DocumentSort, after: AfterKey): SQL {
  const { column, nullable, cast } = sortColumns[sort.field];
  const op = sql.raw(sort.order === 'desc' ? '<' : '>');
  const col = sql.raw(column);
  if (after.value === null) return sql`(${col} is null and d.id ${op} ${after.uid})`;
  const beyond = sql`(${col}, d.id) ${op} (${after.value}::${sql.raw(cast)}, ${after.uid})`;
  return nullable ? sql`(${col} is null or ${beyond})` : beyond;
}

/** Whether a cursor's sort value reads as the sort column's type: a forged cursor is a 400, not a failed cast. */
export function cursorValueFits(sort: DocumentSort, value: string | null): boolean {
  const { nullable, cast } = sortColumns[sort.field];
  if (value === null) return nullable;
  return cast === 'timestamptz' ? isIsoTimestamp(value) : cast === 'date' ? isIsoDate(value) : true;
}

/** The filter's rows strictly after `after` (all of them without). */
export const whereAfter = (select: { filter: DocumentFilter; sort: DocumentSort }, after: AfterKey | undefined): SQL =>
  after ? sql`${whereOf(select.filter)} and ${afterCursor(select.sort, after)}` : whereOf(select.filter);

/** The row's sort value as the cursor carries it (the same text the row shows). */
export const sortValueOf = (sort: DocumentSort, row: Record<string, unknown>): string | null =>
  (row[sort.field] as string | null | undefined) ?? null;

const documentColumns = sql`d.id as "uid", d.number as "id", d.format, d.type, d.title, d.status, d.priority,
  to_char(d.due_date, 'YYYY-MM-DD') as "dueDate", ${iso('d.issued_at')} as "issuedAt",
  ${iso('d.created_at')} as "createdAt", ${iso('d.updated_at')} as "updatedAt"`;

export const activityCountOf = sql`(select count(*)::int from activity a where a.document_id = d.id)`;
const activityCount = sql`${activityCountOf} as "activityCount"`;
const assignees = sql`coalesce((select json_agg(json_build_object('userId', x.user_id, 'name', x.name) order by x.name, x.user_id)
  from document_assignees x where x.document_id = d.id), '[]'::json) as "assignees"`;
const consultantSummaries = sql`coalesce((select json_agg(json_build_object('type', c.type, 'status', c.status) order by c.type, c.id)
  from document_consultants c where c.document_id = d.id), '[]'::json) as "consultants"`;
const consultants = sql`coalesce((select json_agg(json_build_object('type', c.type, 'company', c.company, 'status', c.status,
    'responderName', c.responder_name, 'responderEmail', c.responder_email, 'respondedAt', ${iso('c.responded_at')})
    order by c.type, c.id)
  from document_consultants c where c.document_id = d.id), '[]'::json) as "consultants"`;
const approvers = sql`coalesce((select json_agg(json_build_object('userId', x.user_id, 'name', x.name, 'email', x.email,
    'status', x.status, 'respondedAt', ${iso('x.responded_at')}) order by x.name, x.user_id)
  from document_approvers x where x.document_id = d.id), '[]'::json) as "approvers"`;
const distribution = sql`coalesce((select json_agg(json_build_object('userId', x.user_id, 'name', x.name, 'email', x.email,
    'company', x.company) order by x.name, x.email)
  from document_distribution x where x.document_id = d.id), '[]'::json) as "distributionRecipients"`;
const reviewHints = (
  lens: 'high' | 'any' | undefined,
) => sql`coalesce((select json_agg(json_build_object('source', f.source,
    'severity', f.severity, 'title', f.title, 'description', f.description, 'suggestedComment', f.suggested_comment,
    'specSectionId', f.spec_section_id, 'key', f.key, 'confidence', f.confidence) order by f.created_at, f.id)
  from review_findings f where ${activeFindings(lens)}), '[]'::json) as "reviewHints"`;

export interface SubmittalSelect {
  filter: DocumentFilter;
  sort: DocumentSort;
  /** Embed active findings (through the filter's lens when it has one). */
  withReviewHints: boolean;
}

/** Every Submittal field of the spec, ordered; no LIMIT (the caller pages or streams). */
export function submittalQuery(select: SubmittalSelect, after?: AfterKey): SQL {
  return sql`select ${documentColumns}, ${activityCount}, ${assignees}, ${consultants},
    d.project_id as "projectId", p.name as "projectName", d.organization_id as "organizationId",
    o.name as "organizationName", d.reference_number as "referenceNumber", d.division_title as "divisionTitle",
    d.review_status as "reviewStatus", ${iso('d.received_at')} as "receivedAt", ${iso('d.closed_at')} as "closedAt",
    d.ball_in_court as "ballInCourt", ${approvers}, ${distribution}
    ${select.withReviewHints ? sql`, ${reviewHints(select.filter.reviewHint)}` : sql``}
    from documents d
    join projects p on p.id = d.project_id
    join organizations o on o.id = d.organization_id
    where ${whereAfter(select, after)}
    order by ${orderOf(select.sort)}`;
}

export type DocumentInclude = 'activityCount' | 'assignees' | 'consultants';

export interface DocumentSelect {
  filter: DocumentFilter;
  sort: DocumentSort;
  include: readonly DocumentInclude[];
}

/** The generic Document item; included fields only when asked for. */
export function documentQuery(select: DocumentSelect, after?: AfterKey): SQL {
  const extras = [
    ...(select.include.includes('activityCount') ? [activityCount] : []),
    ...(select.include.includes('assignees') ? [assignees] : []),
    ...(select.include.includes('consultants') ? [consultantSummaries] : []),
  ];
  return sql`select ${documentColumns}${extras.length > 0 ? sql`, ${sql.join(extras, sql`, `)}` : sql``}
    from documents d
    where ${whereAfter(select, after)}
    order by ${orderOf(select.sort)}`;
}

/** One page of a document list (`query` from submittalQuery or documentQuery), each row checked as `item`. */
export const fetchPage = <S extends z.ZodType>(db: Db, query: SQL, limit: number, item: S) =>
  selectRows(db, sql`${query} limit ${limit}`, item);

const CountRow = z.object({ total: z.number() });

export async function countDocuments(db: Db, filter: DocumentFilter): Promise<number> {
  const [row] = await selectRows(
    db,
    sql`select count(*)::int as total from documents d where ${whereOf(filter)}`,
    CountRow,
  );
  return row?.total ?? 0;
}

export type FilterColumn = 'status' | 'reviewStatus' | 'format' | 'type' | 'priority';

const knownValues: Record<Exclude<FilterColumn, 'priority'>, readonly string[]> = {
  status: documentStatuses,
  reviewStatus: reviewStatuses,
  format: documentFormats,
  type: documentTypes,
};

/** A row of the grouping sets: each column's value (null outside its set), `g_<column>`, and the count `n`. */
const groupingRow = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));

/** Known values of each filterable column; with `scope`, counts of every value within it (one scan). */
export async function filterValues(
  db: Db,
  columns: readonly FilterColumn[],
  scope: DocumentFilter | undefined,
): Promise<Record<string, { value: string; count?: number }[]>> {
  const values: Record<string, { value: string; count?: number }[]> = {};
  if (!scope) {
    for (const column of columns) {
      if (column !== 'priority') values[column] = knownValues[column].map((value) => ({ value }));
    }
    return values;
  }
  const sqlName: Record<FilterColumn, string> = {
    status: 'd.status',
    reviewStatus: 'd.review_status',
    format: 'd.format',
    type: 'd.type',
    priority: 'd.priority',
  };
  const sets = sql.raw(columns.map((column) => `(${sqlName[column]})`).join(', '));
  const picks = sql.raw(columns.map((column) => `${sqlName[column]} as "${column}"`).join(', '));
  const groupings = sql.raw(columns.map((column) => `grouping(${sqlName[column]}) as "g_${column}"`).join(', '));
  const rows = await selectRows(
    db,
    sql`select ${picks}, ${groupings}, count(*)::int as n from documents d where ${whereOf(scope)}
      group by grouping sets (${sets})`,
    groupingRow,
  );
  for (const column of columns) {
    const counted = new Map<string, number>();
    for (const row of rows) {
      const value = row[column];
      if (row[`g_${column}`] === 0 && typeof value === 'string') counted.set(value, Number(row.n));
    }
    const known = column === 'priority' ? [...counted.keys()].sort() : knownValues[column];
    values[column] = known.map((value) => ({ value, count: counted.get(value) ?? 0 }));
  }
  return values;
}
