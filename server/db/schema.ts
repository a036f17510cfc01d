// The whole data model of the spec. Every tenant table carries organization_id so the data can be
// distributed by organization later; timestamps keep millisecond precision so keyset cursors
// (which travel through JavaScript Dates) round-trip exactly.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const createdAt = () => ts('created_at').notNull().default(sql`now()`);
const orgId = () => text('organization_id').notNull();

export const organizations = pgTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Counted up by triggers (migration 0008) whenever the organization's projects change: the suggestion
   *  ranker's cached project names are reloaded when it moves. */
  projectsVersion: bigint('projects_version', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
});

export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    organizationId: orgId().references(() => organizations.id),
    name: text('name').notNull(),
    code: text('code'),
    /** Other names people use for the project ("Lakeshore Library"); the suggestion ranker matches them. */
    aliases: text('aliases').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [index('projects_org_name_idx').on(t.organizationId, t.name, t.id)],
);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash'),
    staff: boolean('staff').notNull().default(false),
    company: text('company'),
    phone: text('phone'),
    title: text('title'),
    /** A disabled person cannot sign in, and every token of theirs is refused on the next request. */
    disabledAt: ts('disabled_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().default(sql`now()`),
  },
  (t) => [uniqueIndex('users_email_idx').on(sql`lower(${t.email})`)],
);

/** Organization membership; a row is also the organization's directory entry. */
export const organizationMembers = pgTable(
  'organization_members',
  {
    id: text('id').primaryKey(),
    organizationId: orgId().references(() => organizations.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role', { enum: ['admin', 'member'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().default(sql`now()`),
  },
  (t) => [
    uniqueIndex('organization_members_org_user_idx').on(t.organizationId, t.userId),
    index('organization_members_user_idx').on(t.userId),
  ],
);

export const projectMembers = pgTable(
  'project_members',
  {
    organizationId: orgId(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('project_members_user_idx').on(t.userId)],
);

export const oauthClients = pgTable(
  'oauth_clients',
  {
    id: text('id').primaryKey(),
    clientId: text('client_id').notNull().unique(),
    secretHash: text('secret_hash').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    superadmin: boolean('superadmin').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    createdBy: text('created_by').notNull(),
    createdByClientId: text('created_by_client_id'),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().default(sql`now()`),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('oauth_clients_created_by_client_idx').on(t.createdByClientId, t.createdAt, t.id)],
);

export const oauthClientOrgScopes = pgTable(
  'oauth_client_org_scopes',
  {
    clientRowId: text('client_row_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    organizationId: orgId().references(() => organizations.id),
    grantedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.clientRowId, t.organizationId] })],
);

export const oauthClientProjectScopes = pgTable(
  'oauth_client_project_scopes',
  {
    clientRowId: text('client_row_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    organizationId: orgId().references(() => organizations.id),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    grantedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.clientRowId, t.projectId] })],
);

/** Per client and route template: aggregated off the request path, flushed in batches. */
export const requestUsage = pgTable(
  'request_usage',
  {
    clientRowId: text('client_row_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
    totalMs: doublePrecision('total_ms').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clientRowId, t.endpoint] })],
);

export const documents = pgTable(
  'documents',
  {
    id: text('id').primaryKey(),
    organizationId: orgId().references(() => organizations.id),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
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
    updatedAt: ts('updated_at').notNull().default(sql`now()`),
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
    searchText: text('search_text').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('simple', coalesce(number, '') || ' ' || coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(title, '') || ' ' || coalesce(search_text, '')), 'B')`,
    ),
  },
  (t) => [
    index('documents_project_created_idx').on(t.projectId, t.createdAt, t.id),
    index('documents_project_updated_idx').on(t.projectId, t.updatedAt, t.id),
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

export const documentAssignees = pgTable(
  'document_assignees',
  {
    organizationId: orgId(),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.userId] }), index('document_assignees_user_idx').on(t.userId)],
);

export const documentApprovers = pgTable(
  'document_approvers',
  {
    organizationId: orgId(),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
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
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
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
    id: text('id').primaryKey(),
    organizationId: orgId(),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
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
    id: text('id').primaryKey(),
    organizationId: orgId(),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    startedAt: ts('started_at').notNull(),
    completedAt: ts('completed_at'),
  },
  (t) => [index('review_runs_document_idx').on(t.documentId)],
);

export const reviewFindings = pgTable(
  'review_findings',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
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

export const comments = pgTable(
  'comments',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    projectId: text('project_id').notNull(),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    authorId: text('author_id').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('comments_document_idx').on(t.documentId, t.createdAt)],
);

export const commentMentions = pgTable(
  'comment_mentions',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    createdAt: createdAt(),
    notifiedAt: ts('notified_at'),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('comment_mentions_comment_idx').on(t.commentId), index('comment_mentions_user_idx').on(t.userId)],
);

/** One table serves both feeds: the organization feed (every row of the org) and a document's
 *  history (rows with document_id). Non-document events (settings changes) leave document_id null. */
export const activity = pgTable(
  'activity',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    projectId: text('project_id'),
    documentId: text('document_id'),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    title: text('title').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    dispatchId: text('dispatch_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('activity_org_created_idx').on(t.organizationId, t.createdAt, t.id),
    index('activity_org_project_created_idx').on(t.organizationId, t.projectId, t.createdAt, t.id),
    index('activity_org_actor_created_idx').on(t.organizationId, t.actorId, t.createdAt, t.id),
    index('activity_org_action_created_idx').on(t.organizationId, t.action, t.createdAt, t.id),
    index('activity_document_created_idx').on(t.documentId, t.createdAt, t.id),
  ],
);

/** Exact row counts of `activity` per organization and project ('' for the organization's own entries), kept by
 *  statement-level triggers in the same transaction as the rows (migration 0004, hand-written): the unfiltered
 *  feed totals without counting the rows. */
export const activityCounts = pgTable(
  'activity_counts',
  {
    organizationId: text('organization_id').notNull(),
    projectId: text('project_id').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.projectId] })],
);

/** A project dispatch (one send to many recipients); recipient_count is kept for the `largest` sort. */
export const dispatches = pgTable(
  'dispatches',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    projectId: text('project_id').notNull(),
    documentId: text('document_id'),
    reportId: text('report_id'),
    activityId: text('activity_id'),
    actionType: text('action_type').notNull(),
    senderId: text('sender_id'),
    senderName: text('sender_name').notNull(),
    senderEmail: text('sender_email').notNull(),
    title: text('title').notNull(),
    dispatchedAt: ts('dispatched_at').notNull(),
    recipientCount: integer('recipient_count').notNull(),
  },
  (t) => [
    index('dispatches_project_recent_idx').on(t.projectId, t.dispatchedAt, t.id),
    index('dispatches_project_largest_idx').on(t.projectId, t.recipientCount, t.id),
    index('dispatches_document_idx').on(t.documentId, t.dispatchedAt),
    index('dispatches_project_sender_idx').on(t.projectId, sql`lower(sender_email)`, t.dispatchedAt),
  ],
);

/** The spec's Email record: one dispatch to one recipient, with its delivery events. */
export const emailMessages = pgTable(
  'email_messages',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    projectId: text('project_id').notNull(),
    dispatchId: text('dispatch_id').notNull(),
    mailerMessageId: text('mailer_message_id').notNull(),
    recipientEmail: text('recipient_email').notNull(),
    recipientName: text('recipient_name').notNull(),
    recipientUid: text('recipient_uid'),
    senderEmail: text('sender_email').notNull(),
    senderName: text('sender_name').notNull(),
    senderUid: text('sender_uid'),
    actionType: text('action_type').notNull(),
    documentId: text('document_id'),
    activityTitle: text('activity_title').notNull(),
    sentAt: ts('sent_at'),
    createdAt: createdAt(),
    sentToMailer: ts('sent_to_mailer'),
    send: ts('send'),
    delivery: ts('delivery'),
    firstOpened: ts('first_opened'),
    lastOpened: ts('last_opened'),
    bounce: ts('bounce'),
    bounceType: text('bounce_type'),
    bounceSubtype: text('bounce_subtype'),
    notSentReason: text('not_sent_reason'),
    notSent: jsonb('not_sent'),
  },
  (t) => [
    index('email_messages_mailer_idx').on(t.mailerMessageId),
    index('email_messages_dispatch_idx').on(t.dispatchId),
    index('email_messages_project_sent_idx').on(t.projectId, t.sentAt, t.id),
    index('email_messages_org_sent_idx').on(t.organizationId, t.sentAt, t.id),
  ],
);

export const reports = pgTable(
  'reports',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    projectId: text('project_id').notNull(),
    /** All versions of one report share a series. */
    seriesId: text('series_id').notNull(),
    type: text('type').notNull().default('report'),
    format: text('format').notNull().default('report'),
    reportKind: text('report_kind').notNull(),
    status: text('status').notNull(),
    title: text('title').notNull(),
    date: ts('date').notNull(),
    location: text('location').notNull().default(''),
    version: text('version').notNull(),
    isLatestVersion: boolean('is_latest_version').notNull(),
    createdAt: createdAt(),
    createdByName: text('created_by_name').notNull(),
    observations: text('observations').notNull().default(''),
    weather: text('weather').notNull().default(''),
    issuedAt: ts('issued_at'),
    issuedByName: text('issued_by_name'),
    pdfBlobKey: text('pdf_blob_key'),
  },
  (t) => [
    index('reports_project_created_idx').on(t.projectId, t.createdAt, t.id),
    index('reports_org_latest_idx').on(t.organizationId, t.isLatestVersion, t.reportKind, t.status),
  ],
);

export const reportSections = pgTable(
  'report_sections',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    items: jsonb('items').$type<{ text: string; status?: string }[]>().notNull().default([]),
  },
  (t) => [index('report_sections_report_idx').on(t.reportId, t.position)],
);

export const reportAttendees = pgTable(
  'report_attendees',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    company: text('company'),
    role: text('role'),
    present: boolean('present').notNull().default(true),
  },
  (t) => [index('report_attendees_report_idx').on(t.reportId)],
);

export const reportDistribution = pgTable(
  'report_distribution',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    userId: text('user_id'),
    name: text('name').notNull(),
    email: text('email').notNull(),
  },
  (t) => [index('report_distribution_report_idx').on(t.reportId)],
);

export const drawingPackages = pgTable(
  'drawing_packages',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    projectId: text('project_id').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('drawing_packages_project_idx').on(t.projectId)],
);

export const drawings = pgTable(
  'drawings',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    projectId: text('project_id').notNull(),
    packageId: text('package_id').references(() => drawingPackages.id),
    number: text('number').notNull(),
    title: text('title').notNull(),
    discipline: text('discipline'),
    createdAt: createdAt(),
  },
  (t) => [index('drawings_project_idx').on(t.projectId, t.number), index('drawings_package_idx').on(t.packageId)],
);

export const drawingRevisions = pgTable(
  'drawing_revisions',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    drawingId: text('drawing_id')
      .notNull()
      .references(() => drawings.id, { onDelete: 'cascade' }),
    revision: text('revision').notNull(),
    sequence: integer('sequence').notNull(),
    blobKey: text('blob_key'),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull().default(0),
    uploadedAt: ts('uploaded_at').notNull(),
  },
  (t) => [uniqueIndex('drawing_revisions_drawing_seq_idx').on(t.drawingId, t.sequence)],
);

export const drawingBundles = pgTable(
  'drawing_bundles',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    projectId: text('project_id').notNull(),
    packageId: text('package_id'),
    /** Hash of the ordered set of drawing revisions that went in: the same set reuses the bundle. */
    cacheKey: text('cache_key').notNull(),
    blobKey: text('blob_key'),
    drawingCount: integer('drawing_count').notNull(),
    totalSourceBytes: bigint('total_source_bytes', { mode: 'number' }).notNull(),
    skippedDrawings: jsonb('skipped_drawings')
      .$type<{ drawingId: string; number: string; reason: string }[]>()
      .notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('drawing_bundles_cache_idx').on(t.organizationId, t.cacheKey)],
);

export const emailFilingSettings = pgTable('email_filing_settings', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  aiSuggest: boolean('ai_suggest').notNull().default(false),
  updatedAt: ts('updated_at'),
  updatedById: text('updated_by_id'),
});

/** Platform-level (staff) records: no organization. */
export const supportIssues = pgTable('support_issues', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull(),
  approach: text('approach').notNull(),
  createdAt: createdAt(),
  createdBy: text('created_by').notNull(),
});

export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    /** The caller the key belongs to: `client:<clientId>` or `user:<userId>`. */
    callerKey: text('caller_key').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    organizationId: text('organization_id'),
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['in_progress', 'done'] }).notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    responseBody: bytea('response_body'),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.callerKey, t.idempotencyKey] }),
    index('idempotency_records_expires_idx').on(t.expiresAt),
  ],
);

export const commandEvents = pgTable('command_events', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id'),
  callerKey: text('caller_key').notNull(),
  command: text('command').notNull(),
  entityId: text('entity_id').notNull(),
  note: text('note'),
  createdAt: createdAt(),
});

// --- People sign-in (OAuth 2.1 authorization server for users and MCP clients) ---

/** Dynamically registered (RFC 7591) or first-party public clients such as the add-in. */
export const oauthApps = pgTable('oauth_apps', {
  clientId: text('client_id').primaryKey(),
  clientSecretHash: text('client_secret_hash'),
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});

export const oauthAuthCodes = pgTable('oauth_auth_codes', {
  codeHash: text('code_hash').primaryKey(),
  clientId: text('client_id').notNull(),
  userId: text('user_id').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  codeChallenge: text('code_challenge').notNull(),
  scopes: text('scopes').array().notNull(),
  resource: text('resource'),
  /** The sign-in (refresh-token family) this code starts: revoked when the code is presented twice. */
  grantId: text('grant_id'),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

/** Sign-ins (grants) ended before their access tokens expire: every access token names its grant, and
 *  a token whose grant is listed here is refused. Rows are kept until no token of the grant can be alive. */
export const revokedGrants = pgTable(
  'revoked_grants',
  {
    grantId: text('grant_id').primaryKey(),
    revokedAt: ts('revoked_at').notNull(),
    /** When the last access token of the grant expires: the row is not needed after that. */
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('revoked_grants_expires_idx').on(t.expiresAt)],
);

export const oauthRefreshTokens = pgTable(
  'oauth_refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    familyId: text('family_id').notNull(),
    clientId: text('client_id').notNull(),
    userId: text('user_id').notNull(),
    scopes: text('scopes').array().notNull(),
    resource: text('resource'),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('oauth_refresh_tokens_family_idx').on(t.familyId)],
);

// --- E-mail filing ---

export const filedEmails = pgTable(
  'filed_emails',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    projectId: text('project_id').notNull(),
    documentId: text('document_id'),
    /** Normalised Message-ID (lower-case, no angle brackets); generated from headers when absent. */
    messageId: text('message_id').notNull(),
    messageIdGenerated: boolean('message_id_generated').notNull().default(false),
    conversationId: text('conversation_id'),
    inReplyTo: text('in_reply_to'),
    references: text('references').array().notNull().default(sql`'{}'::text[]`),
    subject: text('subject').notNull(),
    fromAddress: text('from_address').notNull(),
    fromName: text('from_name'),
    to: jsonb('to').$type<{ address: string; name?: string }[]>().notNull(),
    cc: jsonb('cc').$type<{ address: string; name?: string }[]>().notNull(),
    sentAt: ts('sent_at'),
    bodyText: text('body_text').notNull().default(''),
    rawBlobKey: text('raw_blob_key'),
    htmlBlobKey: text('html_blob_key'),
    hasAttachments: boolean('has_attachments').notNull().default(false),
    note: text('note'),
    filedById: text('filed_by_id').notNull(),
    filedAt: ts('filed_at').notNull(),
    searchText: text('search_text').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('simple', coalesce(subject, '')), 'A') || setweight(to_tsvector('english', coalesce(search_text, '')), 'B')`,
    ),
  },
  (t) => [
    uniqueIndex('filed_emails_project_message_idx').on(t.projectId, t.messageId),
    index('filed_emails_org_message_idx').on(t.organizationId, t.messageId),
    index('filed_emails_project_filed_idx').on(t.projectId, t.filedAt, t.id),
    index('filed_emails_conversation_idx').on(t.organizationId, t.conversationId),
    index('filed_emails_from_idx').on(t.organizationId, sql`lower(from_address)`),
    index('filed_emails_search_idx').using('gin', t.searchVector),
    // Thread linking: replies and siblings share entries of References (In-Reply-To is folded in).
    index('filed_emails_references_idx').using('gin', t.references),
    // Project suggestions: filing history of a sender's domain and of recipients' addresses.
    index('filed_emails_from_domain_idx').on(t.organizationId, sql`split_part(lower(from_address), '@', 2)`),
    index('filed_emails_to_idx').using('gin', t.to.op('jsonb_path_ops')),
    index('filed_emails_cc_idx').using('gin', t.cc.op('jsonb_path_ops')),
  ],
);

export const filedEmailAttachments = pgTable(
  'filed_email_attachments',
  {
    id: text('id').primaryKey(),
    organizationId: orgId(),
    filedEmailId: text('filed_email_id')
      .notNull()
      .references(() => filedEmails.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    blobKey: text('blob_key').notNull(),
    textContent: text('text_content'),
  },
  (t) => [index('filed_email_attachments_email_idx').on(t.filedEmailId)],
);
