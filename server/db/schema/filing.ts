// The mail people received and filed into projects from Outlook, and each organization's filing setting.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { changeSeq, emptyTextArray, refersTo, tenantRow, ts, tsvector } from './columns.js';
import { organizations } from './organizations.js';

export const emailFilingSettings = pgTable('email_filing_settings', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  aiSuggest: boolean('ai_suggest').notNull().default(false),
  updatedAt: ts('updated_at'),
  updatedById: text('updated_by_id'),
});

type Addresses = { address: string; name?: string }[];

export const filedEmails = pgTable(
  'filed_emails',
  {
    ...tenantRow(),
    projectId: text('project_id').notNull(),
    documentId: text('document_id'),
    /** Normalised Message-ID (lower-case, no angle brackets); generated from headers when absent. */
    messageId: text('message_id').notNull(),
    messageIdGenerated: boolean('message_id_generated').notNull().default(false),
    /**
     * For an e-mail filed as it was sent (its Message-ID generated: the transport had not given one yet), the
     * normalised Message-ID the sent mail carries, once the sender's sent copy or a recipient's copy told it.
     */
    sentMessageId: text('sent_message_id'),
    conversationId: text('conversation_id'),
    inReplyTo: text('in_reply_to'),
    references: text('references').array().notNull().default(emptyTextArray()),
    subject: text('subject').notNull(),
    fromAddress: text('from_address').notNull(),
    fromName: text('from_name'),
    to: jsonb('to').$type<Addresses>().notNull(),
    cc: jsonb('cc').$type<Addresses>().notNull(),
    sentAt: ts('sent_at'),
    /** The text body, its first MAX_STORED_BODY_CHARS characters (the original .eml holds all of it). */
    bodyText: text('body_text').notNull().default(''),
    bodyTextTruncated: boolean('body_text_truncated').notNull().default(false),
    rawBlobKey: text('raw_blob_key'),
    htmlBlobKey: text('html_blob_key'),
    hasAttachments: boolean('has_attachments').notNull().default(false),
    note: text('note'),
    /** Who filed it: a person (`filed_by_id`, a user id) or an API key holding `email:file` (`filed_by_key_id`). */
    filedById: text('filed_by_id'),
    filedByKeyId: text('filed_by_key_id'),
    filedAt: ts('filed_at').notNull(),
    changeSeq: changeSeq(),
    searchText: text('search_text').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      // Angle brackets become spaces: the parser takes `<Pier 9>` for a markup tag and would drop its words.
      // Accents are dropped on both sides (search_unaccent, migration 0020): "facade" finds "façade".
      sql`setweight(to_tsvector('simple', search_unaccent(translate(coalesce(subject, ''), '<>', '  '))), 'A') || setweight(to_tsvector('english', search_unaccent(translate(coalesce(search_text, ''), '<>', '  '))), 'B')`,
    ),
  },
  (t) => [
    check('filed_emails_one_filer', sql`num_nonnulls(filed_by_id, filed_by_key_id) = 1`),
    uniqueIndex('filed_emails_project_message_idx').on(t.projectId, t.messageId),
    index('filed_emails_org_message_idx').on(t.organizationId, t.messageId),
    // One sent e-mail is one record: its transport Message-ID names at most one filing per organization.
    uniqueIndex('filed_emails_org_sent_message_idx').on(t.organizationId, t.sentMessageId),
    // Filings made on send still waiting for their transport Message-ID, found by sender (recipients' copies).
    index('filed_emails_awaiting_sent_id_idx')
      .on(t.organizationId, sql`lower(from_address)`)
      .where(sql`message_id_generated and sent_message_id is null`),
    index('filed_emails_project_filed_idx').on(t.projectId, t.filedAt, t.id),
    // Sync walks: what changed in a project since a sync token.
    index('filed_emails_project_change_idx').on(t.projectId, t.changeSeq),
    // The search over every project in the caller's scope, newest filing first.
    index('filed_emails_org_filed_idx').on(t.organizationId, t.filedAt, t.id),
    // The subject as typed, anywhere in it, folded like the project search (search_fold, migration 0020).
    index('filed_emails_subject_fold_idx').using('gin', sql`search_fold(subject) gin_trgm_ops`),
    index('filed_emails_conversation_idx').on(t.organizationId, t.conversationId),
    index('filed_emails_from_idx').on(t.organizationId, sql`lower(from_address)`),
    index('filed_emails_search_idx').using('gin', t.searchVector),
    // Thread linking: replies and siblings share entries of References (In-Reply-To is folded in).
    index('filed_emails_references_idx').using('gin', t.references),
    // Project suggestions: filing history of a sender's domain and of recipients' addresses.
    index('filed_emails_from_domain_idx').on(t.organizationId, sql`split_part(lower(from_address), '@', 2)`),
    index('filed_emails_to_idx').using('gin', t.to.op('jsonb_path_ops')),
    index('filed_emails_cc_idx').using('gin', t.cc.op('jsonb_path_ops')),
    // The blob sweep asks whether anything still refers to a blob it may delete.
    index('filed_emails_raw_blob_idx').on(t.rawBlobKey),
    index('filed_emails_html_blob_idx').on(t.htmlBlobKey),
  ],
);

export const filedEmailAttachments = pgTable(
  'filed_email_attachments',
  {
    ...tenantRow(),
    filedEmailId: refersTo('filed_email_id', () => filedEmails.id, 'cascade'),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    blobKey: text('blob_key').notNull(),
    textContent: text('text_content'),
  },
  (t) => [
    index('filed_email_attachments_email_idx').on(t.filedEmailId),
    index('filed_email_attachments_blob_idx').on(t.blobKey),
  ],
);

/**
 * The suggestion model learned from filed mail (server/filing/model/): per organization and feature (a word stem of
 * the subject, new text or attachment names, an identifier, a participant address or domain), how many filed
 * e-mails carry it, in how many projects, and — while at most MODEL_MAX_PROJECTS projects hold it (queries.ts) —
 * how many in each (`counts`, project id → e-mails). A feature of more projects says little about which one: its
 * per-project counts are neither kept nor read, and `projects` stays at the cap + 1. So a suggestion reads one row
 * per feature asked and a filing writes one per feature learned, at any number of filed e-mails. Counted up in the
 * filing transaction; counts commute, so the order of filing cannot change a suggestion.
 */
export const suggestionFeatureTotals = pgTable(
  'suggestion_feature_totals',
  {
    organizationId: text('organization_id').notNull(),
    feature: text('feature').notNull(),
    emails: integer('emails').notNull(),
    projects: integer('projects').notNull(),
    counts: jsonb('counts').$type<Record<string, number>>(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.feature] })],
);

/**
 * Boilerplate, learned as mail is filed (server/filing/model/boilerplate.ts): per sender address (`a:`) and sender
 * domain (`d:`), how many filed e-mails carried each line of new text (by a hash of it) and in which projects
 * (counted per project). A line a sender repeats across projects — signature, disclaimer, letterhead, phone — names none.
 */
export const suggestionLines = pgTable(
  'suggestion_lines',
  {
    organizationId: text('organization_id').notNull(),
    scope: text('scope').notNull(),
    line: text('line').notNull(),
    emails: integer('emails').notNull(),
    /**
     * Per project, how many of those e-mails are filed there (projectId → count), so that unfiling or moving one
     * takes its line out of the right project and the "in several projects" test stays true to what is filed.
     */
    projectCounts: jsonb('project_counts').$type<Record<string, number>>().notNull(),
    /** How many projects hold the line (keys of project_counts), kept beside them so the look-up reads no JSON. */
    projects: integer('projects').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.scope, t.line] })],
);
