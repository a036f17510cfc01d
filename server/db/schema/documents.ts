// Documents (RFIs, submittals, change orders …), the people on them, and their automated reviews.
import { sql } from 'drizzle-orm';
import { boolean, date, index, jsonb, pgTable, primaryKey, real, text } from 'drizzle-orm/pg-core';
import { changeSeq, createdAt, orgId, refersTo, tenantRow, ts, tsvector, updatedAt } from './columns.js';
import { organizations, projects } from './organizations.js';

export const documents = pgTable(
  'documents',
  {
    id: text('id').primaryKey(),
    organizationId: orgId().references(() => organizations.id),
    projectId: refersTo('project_id', () => projects.id),
    number: text('number').notNull(),
    format: text('format').notNull(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    status: text('status').notNull(),
    priority: text('priority'),
    dueDate: date('due_date', { mode: 'string' }),
    issuedAt: ts('issued_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    createdById: text('created_by_id'),
    /** Format-specific fields: RFI question/answer, change-order reason, amounts. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    referenceNumber: text('reference_number'),
    divisionTitle: text('division_title'),
    reviewStatus: text('review_status'),
    receivedAt: ts('received_at'),
    closedAt: ts('closed_at'),
    ballInCourt: jsonb('ball_in_court').$type<{ userId?: string; name: string; company?: string } | null>(),
    /** Everything searchable beyond number and title (question, reasons, comments, responses,
     *  responder names and e-mails, division title), kept current by the services that change them. */
    changeSeq: changeSeq(),
    searchText: text('search_text').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('simple', coalesce(number, '') || ' ' || coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(title, '') || ' ' || coalesce(search_text, '')), 'B')`,
    ),
  },
  (t) => [
    index('documents_project_created_idx').on(t.projectId, t.createdAt, t.id),
    index('documents_project_updated_idx').on(t.projectId, t.updatedAt, t.id),
    // Sync walks: what changed in a project since a sync token.
    index('documents_project_change_idx').on(t.projectId, t.changeSeq),
    index('documents_project_due_idx').on(t.projectId, t.dueDate, t.id),
    index('documents_project_format_created_idx').on(t.projectId, t.format, t.createdAt, t.id),
    index('documents_org_created_idx').on(t.organizationId, t.createdAt, t.id),
    index('documents_created_idx').on(t.createdAt, t.id),
    index('documents_format_created_idx').on(t.format, t.createdAt, t.id),
    index('documents_search_idx').using('gin', t.searchVector),
    index('documents_number_trgm_idx').using('gin', sql`(number || ' ' || title) gin_trgm_ops`),
    // E-mail filing suggestions look documents up by the numbers an e-mail quotes (RFI-012, SUB-045).
    index('documents_org_number_idx').on(t.organizationId, sql`upper(number)`),
  ],
);

/** The document a row belongs to: it goes with the document. */
const ofDocument = () => refersTo('document_id', () => documents.id, 'cascade');

export const documentAssignees = pgTable(
  'document_assignees',
  {
    organizationId: orgId(),
    documentId: ofDocument(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.userId] }), index('document_assignees_user_idx').on(t.userId)],
);

export const documentApprovers = pgTable(
  'document_approvers',
  {
    organizationId: orgId(),
    documentId: ofDocument(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    status: text('status').notNull(),
    respondedAt: ts('responded_at'),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.userId] })],
);

export const documentDistribution = pgTable(
  'document_distribution',
  {
    organizationId: orgId(),
    documentId: ofDocument(),
    email: text('email').notNull(),
    userId: text('user_id'),
    name: text('name').notNull(),
    company: text('company'),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.email] })],
);

export const documentConsultants = pgTable(
  'document_consultants',
  {
    ...tenantRow(),
    documentId: ofDocument(),
    type: text('type').notNull(),
    company: text('company').notNull(),
    responderName: text('responder_name'),
    responderEmail: text('responder_email'),
    status: text('status').notNull(),
    response: text('response'),
    respondedAt: ts('responded_at'),
  },
  (t) => [index('document_consultants_document_idx').on(t.documentId)],
);

export const reviewRuns = pgTable(
  'review_runs',
  {
    ...tenantRow(),
    documentId: ofDocument(),
    startedAt: ts('started_at').notNull(),
    completedAt: ts('completed_at'),
  },
  (t) => [index('review_runs_document_idx').on(t.documentId)],
);

export const reviewFindings = pgTable(
  'review_findings',
  {
    ...tenantRow(),
    documentId: ofDocument(),
    reviewRunId: text('review_run_id').references(() => reviewRuns.id),
    source: text('source', { enum: ['spec', 'quality'] }).notNull(),
    severity: text('severity').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    suggestedComment: text('suggested_comment').notNull().default(''),
    specSectionId: text('spec_section_id').notNull().default(''),
    key: text('key').notNull(),
    confidence: real('confidence').notNull(),
    dismissed: boolean('dismissed').notNull().default(false),
    deletedAt: ts('deleted_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('review_findings_active_idx')
      .on(t.documentId, t.source, t.severity)
      .where(sql`deleted_at IS NULL AND NOT dismissed`),
  ],
);
