import { z } from 'zod';
import {
  ChangedSince,
  Cursor,
  commaList,
  csvCapableLimit,
  DateOnly,
  Id,
  queryFlag,
  SyncTokenField,
  strictQuery,
  Timestamp,
} from './common.js';

/** Value sets of the spec (States and transitions, Document resource). */
export const documentFormats = [
  'bulletin',
  'certificate',
  'change',
  'instruction',
  'quote',
  'rfi',
  'submittal',
] as const;
export const documentTypes = [
  'Bulletin',
  'CA',
  'CD',
  'Certificate',
  'CO',
  'minute',
  'PC',
  'Quote',
  'report',
  'RFI',
  'SI',
  'Submittal',
] as const;
export const documentStatuses = [
  'draft',
  'pending',
  'submitted',
  'with-consultants',
  'issued',
  'approved',
  'accepted',
  'returned',
  'resubmitted',
  'revision',
  'closed',
  'locked',
  'cancelled',
  'needs-work',
] as const;
export const reviewStatuses = [
  'reviewed',
  'reviewed-as-noted',
  'reviewed-as-noted-partial-resubmit',
  'revise-and-resubmit',
  'revise-and-resubmit-for-record',
  'rejected',
  'for-record-only',
  'not-reviewed',
  'not-required-for-review',
  'pending',
] as const;
/** Statuses that end a document's workflow: excluded by filter.open and filter.overdue. */
export const terminalStatuses = ['closed', 'cancelled', 'locked', 'accepted', 'approved'] as const;

export const submittalSortFields = [
  'createdAt',
  'updatedAt',
  'dueDate',
  'title',
  'receivedAt',
  'closedAt',
  'referenceNumber',
] as const;
export const documentSortFields = ['createdAt', 'updatedAt', 'dueDate', 'title'] as const;
export type SubmittalSortField = (typeof submittalSortFields)[number];

/**
 * A comma-separated OR list whose every value must be one of `allowed`; values in `refused` get that
 * message instead (a value of the spec's set that the list can never match).
 */
const oneOfList = (allowed: readonly string[], refused?: { values: readonly string[]; message: string }) =>
  commaList(500).superRefine((values, ctx) => {
    if (refused && values.some((v) => refused.values.includes(v))) {
      ctx.addIssue({ code: 'custom', message: refused.message });
      return;
    }
    const unknown = values.filter((v) => !allowed.includes(v));
    if (unknown.length > 0)
      ctx.addIssue({ code: 'custom', message: `Unknown value ${unknown.join(', ')}; allowed: ${allowed.join(', ')}` });
  });

/** Types of the spec's value set that no row of the document lists holds: reports are a resource of their own. */
const reportTypes = ['report', 'minute'];

/** `type` of a document list: a report type is refused with where to find reports, never answered with nothing. */
const documentTypeList = oneOfList(
  documentTypes.filter((t) => !reportTypes.includes(t)),
  {
    values: reportTypes,
    message:
      'report and minute are reports, not documents: list them with GET /v1/organization/{orgId}/project/{projectId}/reports (minutes are reportKind meeting_minutes)',
  },
);

const isRealDate = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
};

/** `from,to` as YYYY-MM-DD (either side may be empty; both inclusive, UTC). */
export const dateRange = z
  .string()
  .max(25)
  .transform((value, ctx) => {
    const match = /^(\d{4}-\d{2}-\d{2})?,(\d{4}-\d{2}-\d{2})?$/.exec(value.trim());
    const [from, to] = match ? [match[1], match[2]] : [];
    if (!match || (from && !isRealDate(from)) || (to && !isRealDate(to))) {
      ctx.addIssue({ code: 'custom', message: 'Expected `from,to` as YYYY-MM-DD (either side may be empty)' });
      return z.NEVER;
    }
    if (from && to && from > to) {
      ctx.addIssue({ code: 'custom', message: 'The range starts after it ends' });
      return z.NEVER;
    }
    return { from, to };
  })
  .meta({ description: '`from,to` as YYYY-MM-DD, either side may be empty; inclusive, UTC', example: '2025-01-01,' });
export type DateRange = { from?: string; to?: string };

const instantSide = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
const instantOf = (value: string) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value).getTime();

/**
 * `from,to` like `dateRange`, where each side may also be an ISO 8601 date-time with its zone, so a sync can
 * ask for what changed since the instant it last ran (`filter.updatedAt=2025-01-01T10:00:00.123Z,`).
 */
export const instantRange = z
  .string()
  .max(80)
  .transform((value, ctx) => {
    const parts = value.trim().split(',');
    const [from, to] = parts.map((part) => part || undefined);
    const sideFits = (side: string | undefined) => side === undefined || instantSide.safeParse(side).success;
    if (parts.length !== 2 || !sideFits(from) || !sideFits(to)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'Expected `from,to`, each YYYY-MM-DD or an ISO 8601 date-time with its zone (either side may be empty)',
      });
      return z.NEVER;
    }
    if (from && to && instantOf(from) > instantOf(to)) {
      ctx.addIssue({ code: 'custom', message: 'The range starts after it ends' });
      return z.NEVER;
    }
    return { from, to };
  })
  .meta({
    description:
      '`from,to`, each YYYY-MM-DD (a whole UTC day) or an ISO 8601 date-time with its zone; either side may be empty; inclusive',
    example: '2025-01-01T10:00:00.000Z,',
  });

const sortOrder = z.enum(['asc', 'desc']).default('desc');
/** A filter or option that is on when given as `true` (never `false`). */
const givenFlag = queryFlag({ trueOnly: true });
const search = z.string().max(500).optional().meta({ description: 'Full-text search (≤500 characters)' });
const reviewHintLens = z.enum(['high', 'any']).optional();

const submittalFilters = {
  cursor: Cursor,
  limit: csvCapableLimit,
  sortBy: z.enum(submittalSortFields).default('createdAt'),
  sortOrder,
  search,
  'filter.status': oneOfList(documentStatuses).optional(),
  'filter.reviewStatus': oneOfList(reviewStatuses).optional(),
  'filter.open': givenFlag,
  'filter.overdue': givenFlag,
  'filter.reviewHint': reviewHintLens,
  'filter.dueDate': dateRange.optional(),
  'filter.closedAt': dateRange.optional(),
  'filter.updatedAt': instantRange.optional(),
  'filter.changedSince': ChangedSince,
  include: oneOfList(['reviewHints']).optional(),
  includeMeta: givenFlag,
};

export const SubmittalListQuery = strictQuery(submittalFilters);
export type SubmittalListQuery = z.output<typeof SubmittalListQuery>;

/** The generic lists' `sortBy`: one of `fields`, and any other value falls back to createdAt (the spec's rule). */
const sortByOrCreatedAt = <F extends string>(fields: readonly F[]) =>
  z
    .string()
    .max(100)
    .optional()
    .transform((value): F | 'createdAt' => (fields.includes(value as F) ? (value as F) : 'createdAt'))
    .meta({ description: `${fields.join(', ')}; other values fall back to createdAt` });

/** The platform-wide submittal list: the submittal filters plus the generic document list's ("same filtering"). */
export const AdminSubmittalListQuery = strictQuery({
  ...submittalFilters,
  sortBy: sortByOrCreatedAt(submittalSortFields),
  projectId: Id.optional(),
  organizationId: Id.optional(),
  format: oneOfList(['submittal']).optional(),
  'filter.format': oneOfList(['submittal']).optional(),
  type: documentTypeList.optional(),
  'filter.type': documentTypeList.optional(),
  status: oneOfList(documentStatuses).optional(),
  assigneeId: Id.optional(),
  assigneeName: z.string().max(200).optional(),
  'filter.divisionTitle': z.string().max(500).optional(),
  'filter.createdAt': dateRange.optional(),
  'filter.receivedAt': dateRange.optional(),
});
export type AdminSubmittalListQuery = z.output<typeof AdminSubmittalListQuery>;

const documentIncludes = oneOfList(['activityCount', 'assignees', 'consultants']).optional().meta({
  description: 'Extra fields of each document, comma-separated: activityCount, assignees, consultants',
});

const documentFilters = {
  cursor: Cursor,
  limit: csvCapableLimit,
  sortBy: sortByOrCreatedAt(documentSortFields),
  sortOrder,
  search,
  format: oneOfList(documentFormats).optional(),
  type: documentTypeList.optional(),
  status: oneOfList(documentStatuses).optional(),
  'filter.format': oneOfList(documentFormats).optional(),
  'filter.type': documentTypeList.optional(),
  'filter.status': oneOfList(documentStatuses).optional(),
  assigneeId: Id.optional(),
  assigneeName: z.string().max(200).optional(),
  'filter.dueDate': dateRange.optional(),
  'filter.createdAt': dateRange.optional(),
  'filter.updatedAt': instantRange.optional(),
  'filter.changedSince': ChangedSince,
  include: documentIncludes,
  includeMeta: givenFlag,
};

/** One document of a project: any format, with the generic list's `include` options. */
export const DocumentPath = z.object({
  orgId: Id,
  projectId: Id,
  documentUid: Id.meta({ description: 'The document UID (`uid` of a list row)' }),
});
export const DocumentQuery = strictQuery({ include: documentIncludes });
export type DocumentQuery = z.output<typeof DocumentQuery>;

/** The generic list of one project (no projectId/organizationId: the path gives them). */
export const ProjectDocumentListQuery = strictQuery(documentFilters);
export type ProjectDocumentListQuery = z.output<typeof ProjectDocumentListQuery>;

export const AdminDocumentListQuery = strictQuery({
  ...documentFilters,
  projectId: Id.optional(),
  organizationId: Id.optional(),
});
export type AdminDocumentListQuery = z.output<typeof AdminDocumentListQuery>;

// --- Responses ---

export const Assignee = z.object({ userId: z.string(), name: z.string() });
export const ConsultantSummary = z.object({ type: z.string(), status: z.string() });
export const Consultant = ConsultantSummary.extend({
  company: z.string(),
  responderName: z.string().nullable(),
  responderEmail: z.string().nullable(),
  respondedAt: Timestamp.nullable(),
});
export const Approver = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  status: z.string(),
  respondedAt: Timestamp.nullable(),
});
export const DistributionRecipient = z.object({
  userId: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  company: z.string().nullable(),
});
export const ReviewHint = z.object({
  source: z.enum(['spec', 'quality']),
  severity: z.string(),
  title: z.string(),
  description: z.string(),
  suggestedComment: z.string(),
  specSectionId: z.string(),
  key: z.string(),
  confidence: z.number(),
});

const documentFields = {
  uid: z.string().meta({ description: 'Document UID' }),
  id: z.string().meta({ description: 'Human document number' }),
  format: z.string(),
  type: z.string(),
  title: z.string(),
  status: z.string(),
  priority: z.string().nullable(),
  dueDate: DateOnly.nullable(),
  issuedAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const DocumentItem = z.object({
  ...documentFields,
  activityCount: z.number().int().optional().meta({ description: 'Only with include=activityCount' }),
  assignees: z.array(Assignee).optional().meta({ description: 'Only with include=assignees' }),
  consultants: z.array(ConsultantSummary).optional().meta({ description: 'Only with include=consultants' }),
});
export type DocumentItem = z.infer<typeof DocumentItem>;

export const Submittal = z.object({
  ...documentFields,
  activityCount: z.number().int(),
  assignees: z.array(Assignee),
  consultants: z.array(Consultant),
  projectId: z.string(),
  projectName: z.string().nullable(),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  referenceNumber: z.string().nullable(),
  divisionTitle: z.string().nullable(),
  reviewStatus: z.string().nullable(),
  receivedAt: Timestamp.nullable(),
  closedAt: Timestamp.nullable(),
  ballInCourt: z.object({ userId: z.string().optional(), name: z.string(), company: z.string().optional() }).nullable(),
  approvers: z.array(Approver),
  distributionRecipients: z.array(DistributionRecipient),
  reviewHints: z.array(ReviewHint).optional().meta({ description: 'Only with include=reviewHints' }),
});
export type Submittal = z.infer<typeof Submittal>;

export const FilterValue = z.object({
  value: z.string(),
  count: z.number().int().optional().meta({ description: 'Rows with this value in the list scope, when cheap' }),
});
export const ListMeta = z.object({
  filters: z
    .record(z.string(), z.array(FilterValue))
    .optional()
    .meta({ description: 'With includeMeta=true: allowed values of each filterable column' }),
});
export type ListMeta = z.infer<typeof ListMeta>;

const countedList = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    total: z.number().int().meta({ description: 'Rows matching the filters (all pages)' }),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
    meta: ListMeta,
    syncToken: SyncTokenField,
  });

export const SubmittalList = countedList(Submittal);
export const DocumentList = countedList(DocumentItem);
