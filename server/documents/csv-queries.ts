// The document lists' CSV exports: the same rows as the JSON lists (queries.ts), each cell as text — lists
// joined by `; ` — computed in SQL so that PostgreSQL can stream them with COPY.
import { type SQL, sql } from 'drizzle-orm';
import type { CsvColumn } from '../db/csv-cells.js';
import {
  type AfterKey,
  activeFindings,
  activityCountOf,
  type DocumentInclude,
  type DocumentSelect,
  iso,
  orderOf,
  type SubmittalSelect,
  whereAfter,
} from './queries.js';

const listOf = (item: string, from: string, order: string) =>
  sql.raw(`(select string_agg(${item}, '; ' order by ${order}) from ${from} where x.document_id = d.id)`);

const text = (expression: string) => sql.raw(expression);

const assigneeNames = listOf('x.name', 'document_assignees x', 'x.name, x.user_id');
const csvActivityCount: CsvColumn = { header: 'activityCount', value: activityCountOf, integer: true };

/** The columns of the generic document list's CSV export. */
export function documentCsvColumns(include: readonly DocumentInclude[]): CsvColumn[] {
  return [
    { header: 'uid', value: text('d.id') },
    { header: 'id', value: text('d.number') },
    { header: 'title', value: text('d.title') },
    { header: 'format', value: text('d.format') },
    { header: 'type', value: text('d.type') },
    { header: 'status', value: text('d.status') },
    { header: 'priority', value: text('d.priority') },
    { header: 'dueDate', value: text(`to_char(d.due_date, 'YYYY-MM-DD')`) },
    { header: 'issuedAt', value: iso('d.issued_at') },
    { header: 'createdAt', value: iso('d.created_at') },
    { header: 'updatedAt', value: iso('d.updated_at') },
    ...(include.includes('activityCount') ? [csvActivityCount] : []),
    ...(include.includes('assignees') ? [{ header: 'assignees', value: assigneeNames }] : []),
    ...(include.includes('consultants')
      ? [
          {
            header: 'consultants',
            value: listOf(`x.type || ': ' || x.status`, 'document_consultants x', 'x.type, x.id'),
          },
        ]
      : []),
  ];
}

/** The generic document list for the CSV export: the query after its select list, ordered, without LIMIT. */
export function documentCsvFrom(select: Omit<DocumentSelect, 'include'>, after?: AfterKey): SQL {
  return sql`from documents d where ${whereAfter(select, after)} order by ${orderOf(select.sort)}`;
}

/** The columns of the submittal list's CSV export (review hints through the filter's lens when asked). */
export function submittalCsvColumns(reviewHints: false | { lens: 'high' | 'any' | undefined }): CsvColumn[] {
  return [
    { header: 'uid', value: text('d.id') },
    { header: 'id', value: text('d.number') },
    { header: 'referenceNumber', value: text('d.reference_number') },
    { header: 'title', value: text('d.title') },
    { header: 'format', value: text('d.format') },
    { header: 'type', value: text('d.type') },
    { header: 'status', value: text('d.status') },
    { header: 'reviewStatus', value: text('d.review_status') },
    { header: 'priority', value: text('d.priority') },
    { header: 'divisionTitle', value: text('d.division_title') },
    { header: 'dueDate', value: text(`to_char(d.due_date, 'YYYY-MM-DD')`) },
    { header: 'receivedAt', value: iso('d.received_at') },
    { header: 'issuedAt', value: iso('d.issued_at') },
    { header: 'closedAt', value: iso('d.closed_at') },
    { header: 'createdAt', value: iso('d.created_at') },
    { header: 'updatedAt', value: iso('d.updated_at') },
    { header: 'projectId', value: text('d.project_id') },
    { header: 'projectName', value: text('p.name') },
    { header: 'organizationId', value: text('d.organization_id') },
    { header: 'organizationName', value: text('o.name') },
    { header: 'ballInCourt', value: text(`d.ball_in_court->>'name'`) },
    { header: 'assignees', value: assigneeNames },
    {
      header: 'approvers',
      value: listOf(
        `x.name || ' <' || x.email || '> (' || x.status || ')'`,
        'document_approvers x',
        'x.name, x.user_id',
      ),
    },
    {
      header: 'distributionRecipients',
      value: listOf(`x.name || ' <' || x.email || '>'`, 'document_distribution x', 'x.name, x.email'),
    },
    {
      header: 'consultants',
      value: listOf(`x.company || ' (' || x.type || '): ' || x.status`, 'document_consultants x', 'x.type, x.id'),
    },
    csvActivityCount,
    ...(reviewHints
      ? [
          {
            header: 'reviewHints',
            value: sql`(select string_agg(f.source || '/' || f.severity || ': ' || f.title, '; ' order by f.created_at, f.id)
              from review_findings f where ${activeFindings(reviewHints.lens)})`,
          },
        ]
      : []),
  ];
}

/** The submittal list for the CSV export: the query after its select list, ordered, without LIMIT. */
export function submittalCsvFrom(select: Omit<SubmittalSelect, 'withReviewHints'>, after?: AfterKey): SQL {
  return sql`from documents d
    join projects p on p.id = d.project_id
    join organizations o on o.id = d.organization_id
    where ${whereAfter(select, after)}
    order by ${orderOf(select.sort)}`;
}
