import { z } from 'zod';
import { ProjectPath } from '../../shared/common.js';
import {
  DocumentItem,
  documentFormats,
  documentStatuses,
  ProjectDocumentListQuery,
  reviewStatuses,
  Submittal,
  SubmittalListQuery,
} from '../../shared/documents.js';
import { listProjectDocuments, listProjectSubmittals } from '../documents/service.js';
import { restTool } from './rest-tool.js';
import { cursor, list, organizationId, projectId } from './tool-args.js';

// The tools over GET …/documents and GET …/document/submittals: their query schemas and services, so filters,
// ordering and cursors behave exactly as the REST lists do.

const page = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    total: z.number().int().describe('Rows matching the filters, all pages'),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
  });

const DocumentsListInput = z
  .object({
    organizationId,
    projectId,
    format: z.array(z.enum(documentFormats)).min(1).max(7).optional().describe('Document formats, any of'),
    status: z.array(z.enum(documentStatuses)).min(1).max(14).optional().describe('Workflow statuses, any of'),
    search: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('Words or a document number, e.g. "RFI-012" or "curtain wall"'),
    sortBy: z.enum(['createdAt', 'updatedAt', 'dueDate', 'title']).default('createdAt'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
    limit: z.number().int().min(1).max(50).default(20),
    cursor,
  })
  .strict();
export const documentsListTool = restTool({
  name: 'documents_list',
  title: 'List documents of a project',
  description: `List and search a project's documents (RFIs, change orders, instructions, bulletins, certificates,
quotes, submittals): number (id), title, status, priority, due date, assignees. Filter by format and status, search by
words or number. Up to 50 per call with the total count; pass nextCursor back as cursor for more.`,
  operationId: 'listProjectDocuments',
  params: ProjectPath,
  query: ProjectDocumentListQuery,
  input: DocumentsListInput,
  output: page(DocumentItem),
  request: (args) => ({
    params: { orgId: args.organizationId, projectId: args.projectId },
    query: {
      format: list(args.format),
      status: list(args.status),
      search: args.search,
      sortBy: args.sortBy,
      sortOrder: args.sortOrder,
      limit: String(args.limit),
      cursor: args.cursor,
      include: 'assignees',
    },
  }),
  answer: async ({ app, params, query }) => {
    const { data, total, hasMore, nextCursor } = await listProjectDocuments(app, params.projectId, query).page();
    return { data, total, hasMore, nextCursor };
  },
});

const SubmittalsListInput = z
  .object({
    organizationId,
    projectId,
    status: z.array(z.enum(documentStatuses)).min(1).max(14).optional().describe('Workflow statuses, any of'),
    reviewStatus: z
      .array(z.enum(reviewStatuses))
      .min(1)
      .max(10)
      .optional()
      .describe('Consultant review outcomes, any of'),
    open: z
      .boolean()
      .optional()
      .describe('Only submittals still in progress (status not closed/cancelled/locked/accepted/approved)'),
    overdue: z.boolean().optional().describe('Only open submittals whose due date has passed'),
    search: z.string().min(1).max(500).optional().describe('Words or a submittal number'),
    limit: z.number().int().min(1).max(25).default(10),
    cursor,
  })
  .strict();
export const submittalsListTool = restTool({
  name: 'submittals_list',
  title: 'List submittals of a project',
  description: `Read a project's submittals in full: status, consultant review outcome (reviewStatus), ball in court,
due/received/closed dates, assignees, approvers, consultants and distribution. Filter by status, reviewStatus,
open or overdue; search by words or number. Newest first, up to 25 per call with the total; pass nextCursor back as cursor.`,
  operationId: 'listProjectSubmittals',
  params: ProjectPath,
  query: SubmittalListQuery,
  input: SubmittalsListInput,
  output: page(Submittal),
  request: (args) => ({
    params: { orgId: args.organizationId, projectId: args.projectId },
    query: {
      'filter.status': list(args.status),
      'filter.reviewStatus': list(args.reviewStatus),
      'filter.open': args.open ? 'true' : undefined,
      'filter.overdue': args.overdue ? 'true' : undefined,
      search: args.search,
      limit: String(args.limit),
      cursor: args.cursor,
    },
  }),
  answer: async ({ app, params, query }) => {
    const { data, total, hasMore, nextCursor } = await listProjectSubmittals(app, params.projectId, query).page();
    return { data, total, hasMore, nextCursor };
  },
});
