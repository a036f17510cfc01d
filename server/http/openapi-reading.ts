import { sample } from 'openapi-sampler';
import type { oas31 } from 'zod-openapi';

/**
 * What makes the generated document read well in a reference and in generated clients: a description on every
 * parameter and an example on every success answer. Applied to the document zod-openapi made, so each route and
 * schema stays as it is declared.
 */

/**
 * Parameters by name: the same name means the same thing on every route. A schema's own description wins; these
 * fill the rest (path `{id}` is the record the path names).
 */
const parameterDescriptions: Record<string, string> = {
  'path:orgId': 'Organization id',
  'path:projectId': 'Project id; the project must belong to the organization in the path',
  'path:id': 'Id of the record the path names',
  'path:documentId': 'Document UID',
  'path:emailId': 'Filed e-mail id',
  'path:reportId': 'Report id',
  'path:mailerMessageId': "The mailer's message id of one dispatch",
  'query:limit': 'Page size of a JSON answer (1–50)',
  'query:cursor': 'Opaque cursor from `nextCursor` of the previous page',
  'query:projectId': 'Only rows of this project',
  'query:organizationId': 'Only rows of this organization',
  'query:documentId': 'Only rows about this document (UID)',
  'query:sortBy': 'Field to sort by; ties by id in the same direction',
  'query:sortOrder': 'Sort direction: asc or desc (default desc)',
  'query:status': 'Comma-separated OR list of workflow statuses',
  'query:filter.status': 'Comma-separated OR list of workflow statuses',
  'query:filter.reviewStatus': 'Comma-separated OR list of consultant review outcomes',
  'query:format': 'Comma-separated OR list of document formats',
  'query:filter.format': 'Comma-separated OR list of document formats',
  'query:type': 'Comma-separated OR list of document types (report and minute are reports: 400)',
  'query:filter.type': 'Comma-separated OR list of document types (report and minute are reports: 400)',
  'query:filter.open':
    '`true`: only documents still in progress (status not closed, cancelled, locked, accepted, approved)',
  'query:filter.overdue': '`true`: only open documents due before today (UTC, server clock)',
  'query:filter.reviewHint':
    'Only submittals with active review findings: `high` (spec mismatches, required quality fixes) or `any`',
  'query:filter.divisionTitle': 'Only rows whose division title contains this text',
  'query:include': 'Comma-separated extra fields of each row',
  'query:includeMeta': '`true`: add `meta.filters`, the values (and counts) of each filterable column',
  'query:includeEmails': '`true`: email_sent entries carry the Email record of each recipient',
  'query:assigneeId': 'Only documents assigned to this user (UID)',
  'query:assigneeName': 'Only documents with an assignee whose name contains this text',
  'query:hasAttachments': '`true`: only e-mails with attachments; `false`: only e-mails without',
  'query:internetMessageId': 'The Message-ID header of the e-mail, with or without angle brackets',
  'query:note': 'A note stored with the filing (raw MIME uploads only; the JSON form carries it in the body)',
};

type Document = ReturnType<typeof import('zod-openapi').createDocument>;

function describeParameters(operation: oas31.OperationObject): void {
  for (const parameter of (operation.parameters ?? []) as oas31.ParameterObject[]) {
    if (parameter.description) continue;
    const own = (parameter.schema as oas31.SchemaObject | undefined)?.description;
    const description = own ?? parameterDescriptions[`${parameter.in}:${parameter.name}`];
    if (!description) throw new Error(`OpenAPI: no description for ${parameter.in} parameter ${parameter.name}`);
    parameter.description = description;
  }
}

/** An example of each JSON success answer, sampled from its schema (so it always fits the schema). */
function exemplifyAnswers(operation: oas31.OperationObject, document: Document): void {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (!status.startsWith('2')) continue;
    for (const [mediaType, content] of Object.entries((response as oas31.ResponseObject).content ?? {})) {
      if (content.example !== undefined || content.examples || !content.schema || !mediaType.includes('json')) continue;
      content.example = sample(content.schema as never, { skipWriteOnly: true, quiet: true }, document);
    }
  }
}

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Adds parameter descriptions and success examples to a document made by zod-openapi, in place. */
export function readable(document: Document): Document {
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of methods) {
      const operation = item?.[method];
      if (!operation) continue;
      describeParameters(operation);
      exemplifyAnswers(operation, document);
    }
  }
  return document;
}
