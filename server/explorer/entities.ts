/**
 * The explorer's allow-list: per entity, its table and the fields a caller may select, filter, group
 * and sort by. Everything that ends up in the SQL text comes from here; caller input only ever
 * becomes bound parameters.
 */

import { emailDeliveryStatusSql } from '../dispatches/queries.js';

export type FieldType = 'string' | 'number' | 'timestamp' | 'date' | 'boolean';

export interface FieldDef {
  /** SQL expression over the table alias `t`. */
  sql: string;
  type: FieldType;
  nullable?: boolean;
  /** Usable as the keyset sort of an ungrouped query (never null). */
  sortable?: boolean;
  /** Organization / project id fields: filter values are checked against the caller's scope. */
  scope?: 'org' | 'project';
}

export interface EntityDef {
  table: string;
  /** Extra predicate that defines the entity within its table (submittals are documents). */
  where?: string;
  description: string;
  defaultFields: string[];
  defaultOrder: { field: string; direction: 'asc' | 'desc' };
  fields: Record<string, FieldDef>;
}

const text = (sql: string, extra: Partial<FieldDef> = {}): FieldDef => ({ sql, type: 'string', ...extra });
const nullableText = (sql: string): FieldDef => text(sql, { nullable: true });
const time = (sql: string, extra: Partial<FieldDef> = {}): FieldDef => ({ sql, type: 'timestamp', ...extra });
const nullableTime = (sql: string): FieldDef => time(sql, { nullable: true });

/** The default order of most entities: by a time field, newest first. */
const newestFirst = (field: string): EntityDef['defaultOrder'] => ({ field, direction: 'desc' });

const tenancy = {
  organizationId: text('t.organization_id', { scope: 'org' }),
  projectId: text('t.project_id', { scope: 'project' }),
};

/** Fields several entities have alike: the row's id, its title and creation time (the keyset sorts), and the
 *  document it concerns. */
const uid = text('t.id', { sortable: true });
const title = text('t.title', { sortable: true });
const createdAt = time('t.created_at', { sortable: true });
const documentId = nullableText('t.document_id');

const documentFields: Record<string, FieldDef> = {
  uid,
  number: text('t.number', { sortable: true }),
  ...tenancy,
  format: text('t.format'),
  type: text('t.type'),
  title,
  status: text('t.status'),
  priority: nullableText('t.priority'),
  dueDate: { sql: 't.due_date', type: 'date', nullable: true },
  issuedAt: nullableTime('t.issued_at'),
  createdAt,
  updatedAt: time('t.updated_at', { sortable: true }),
  reviewStatus: nullableText('t.review_status'),
  referenceNumber: nullableText('t.reference_number'),
  divisionTitle: nullableText('t.division_title'),
  receivedAt: nullableTime('t.received_at'),
  closedAt: nullableTime('t.closed_at'),
};

export const explorerEntityDefs: Record<string, EntityDef> = {
  documents: {
    table: 'documents',
    description: 'Documents of every format (rfi, submittal, change, …)',
    defaultFields: ['uid', 'number', 'format', 'title', 'status', 'projectId', 'createdAt'],
    defaultOrder: newestFirst('createdAt'),
    fields: documentFields,
  },
  submittals: {
    table: 'documents',
    where: "t.format = 'submittal'",
    description: 'Submittals (documents of format submittal) with review outcome',
    defaultFields: ['uid', 'number', 'title', 'status', 'reviewStatus', 'dueDate', 'projectId'],
    defaultOrder: newestFirst('createdAt'),
    fields: documentFields,
  },
  activity: {
    table: 'activity',
    description: 'Activity entries (status changes, comments, uploads, e-mails sent)',
    defaultFields: ['uid', 'action', 'title', 'actorName', 'documentId', 'projectId', 'createdAt'],
    defaultOrder: newestFirst('createdAt'),
    fields: {
      uid,
      organizationId: tenancy.organizationId,
      projectId: { ...tenancy.projectId, nullable: true },
      documentId,
      actorId: nullableText('t.actor_id'),
      actorName: text('t.actor_name'),
      actorEmail: text('t.actor_email'),
      action: text('t.action'),
      title,
      createdAt,
    },
  },
  dispatches: {
    table: 'dispatches',
    description: 'Project dispatches: one send of a document, report or invite to many recipients',
    defaultFields: ['uid', 'actionType', 'title', 'senderEmail', 'recipientCount', 'dispatchedAt', 'projectId'],
    defaultOrder: newestFirst('dispatchedAt'),
    fields: {
      uid,
      ...tenancy,
      documentId,
      reportId: nullableText('t.report_id'),
      actionType: text('t.action_type'),
      senderName: text('t.sender_name'),
      senderEmail: text('t.sender_email'),
      title,
      dispatchedAt: time('t.dispatched_at', { sortable: true }),
      recipientCount: { sql: 't.recipient_count', type: 'number', sortable: true },
    },
  },
  emails: {
    table: 'email_messages',
    description: 'E-mail records: one dispatch to one recipient, with delivery events',
    defaultFields: ['mailerMessageId', 'recipientEmail', 'activityTitle', 'deliveryStatus', 'sentAt', 'projectId'],
    defaultOrder: newestFirst('createdAt'),
    fields: {
      uid,
      mailerMessageId: text('t.mailer_message_id'),
      ...tenancy,
      documentId,
      recipientEmail: text('t.recipient_email'),
      recipientName: text('t.recipient_name'),
      senderEmail: text('t.sender_email'),
      senderName: text('t.sender_name'),
      actionType: text('t.action_type'),
      activityTitle: text('t.activity_title'),
      deliveryStatus: text(emailDeliveryStatusSql('t')),
      createdAt,
      sentAt: nullableTime('t.sent_at'),
      delivery: nullableTime('t.delivery'),
      firstOpened: nullableTime('t.first_opened'),
      lastOpened: nullableTime('t.last_opened'),
      bounce: nullableTime('t.bounce'),
      bounceType: nullableText('t.bounce_type'),
    },
  },
  drawings: {
    table: 'drawings',
    description: 'Drawings (sheets) of a project',
    defaultFields: ['uid', 'number', 'title', 'discipline', 'projectId'],
    defaultOrder: { field: 'number', direction: 'asc' },
    fields: {
      uid,
      ...tenancy,
      packageId: nullableText('t.package_id'),
      number: text('t.number', { sortable: true }),
      title,
      discipline: nullableText('t.discipline'),
      createdAt,
    },
  },
  reports: {
    table: 'reports',
    description: 'Site reports (meeting minutes, inspections) and their versions',
    defaultFields: ['uid', 'reportKind', 'title', 'status', 'date', 'version', 'projectId'],
    defaultOrder: newestFirst('date'),
    fields: {
      uid,
      ...tenancy,
      reportKind: text('t.report_kind'),
      status: text('t.status'),
      title,
      date: time('t.date', { sortable: true }),
      location: text('t.location'),
      version: text('t.version'),
      isLatestVersion: { sql: 't.is_latest_version', type: 'boolean' },
      createdAt,
      issuedAt: nullableTime('t.issued_at'),
      createdByName: text('t.created_by_name'),
    },
  },
};
