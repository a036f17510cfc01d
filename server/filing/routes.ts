import express, { type RequestHandler } from 'express';
import { ProjectPath } from '../../shared/common.js';
import {
  FiledEmailDetail,
  FiledEmailFoundList,
  FiledEmailList,
  FiledEmailListQuery,
  FiledEmailPath,
  FiledEmailSummary,
  FileEmailJson,
  FileEmailQuery,
  FileEmailResult,
  LookupQuery,
  LookupResult,
  MAX_MESSAGE_BYTES,
  MoveFiledEmailBody,
  RawMessage,
  SentMessageIdBody,
  SuggestionRequest,
  SuggestionResult,
} from '../../shared/filing.js';
import { ApiError } from '../errors.js';
import { oneRecord } from '../http/declarations.js';
import { refuseNulInJson } from '../http/nul.js';
import { access, defineRoute, Reply } from '../http/route.js';
import { composeMime, parseRawMessage } from './message.js';
import { moveFiledEmail, unfileEmail } from './refile.js';
import {
  filedEmailDetail,
  fileEmail,
  listProjectEmails,
  lookupFilings,
  recordSentMessageId,
  searchFiledEmails,
  suggestProjects,
} from './service.js';

const emailBodyTypes: RequestHandler = (req, _res, next) => {
  next(
    req.is(['application/json', 'message/rfc822'])
      ? undefined
      : new ApiError(
          'unsupported_media_type',
          'Send the message as message/rfc822, or the JSON form as application/json',
        ),
  );
};

/** The JSON form's largest body: 25 MB of attachments in base64, and room for the rest. */
const jsonFormLimitBytes = (Math.ceil((MAX_MESSAGE_BYTES * 4) / 3 / 1024 / 1024) + 2) * 1024 * 1024;

const tags = ['E-mail filing'];
/** A project's filed e-mails are read with email:read. */
const readProjectEmails = { method: 'get' as const, tags, access: access.needs('email:read', 'project') };

export const filingRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/organization/:orgId/project/:projectId/emails',
    operationId: 'fileEmail',
    summary: 'File an e-mail (with its attachments) into a project, optionally onto one of its documents',
    description:
      'Needs `email:file` on the project: organization members hold it; an API key holding it files as ' +
      'itself (`filedBy.kind: apiKey`, its name and its creator’s e-mail). Send the raw message as `message/rfc822` ' +
      '(up to 25 MB; options in the query) or the JSON form (options in the body). The same Message-ID is ' +
      'stored once per project: filing it again answers 200 with the existing record and `duplicate: true`. ' +
      'A message without Message-ID gets a stable generated one (`messageIdGenerated: true`).',
    tags,
    access: access.needs('email:file', 'project'),
    params: ProjectPath,
    query: FileEmailQuery,
    body: FileEmailJson,
    bodyContentTypes: { 'message/rfc822': { schema: RawMessage } },
    // A filing holds its message (up to 25 MB, several times that while parsed): a few at a time. Its body (raw
    // MIME up to 25 MB, or JSON with base64 attachments) is read after the access check, to a temporary file past
    // 1 MB, and parsed once it has all arrived and a slot is free: a slow upload holds no slot.
    gate: 'filing',
    ownBody: true,
    before: [emailBodyTypes],
    gatedBody: {
      limit: jsonFormLimitBytes,
      raw: { type: 'message/rfc822', limit: MAX_MESSAGE_BYTES },
      parsers: [
        // A compressed message (Content-Encoding) is inflated here, within the same limit.
        express.raw({ type: 'message/rfc822', limit: MAX_MESSAGE_BYTES }),
        express.json({ limit: jsonFormLimitBytes, verify: refuseNulInJson }),
      ],
    },
    responses: {
      201: { description: 'Filed', schema: FileEmailResult },
      200: {
        description:
          'Already filed in this project (duplicate: true): nothing changed, except that a `documentId` given links a record that was on no document (linkedToDocument: true)',
        schema: FileEmailResult,
      },
    },
    errors: {
      404: 'Project not found in this organization, or documentId is not a document of this project',
      409: 'Already filed in this project on another document than documentId',
      413: 'The message is larger than 25 MB',
      415: 'Neither message/rfc822 nor application/json',
      503: 'The server is running its most filings at once (FILINGS_MAX) and none finished within the wait',
    },
    handler: async ({ req, app, caller, params, query, body }) => {
      const target = { organizationId: params.orgId, projectId: params.projectId };
      let filing: Awaited<ReturnType<typeof fileEmail>>;
      if (Buffer.isBuffer(body)) {
        filing = await fileEmail(app, caller, { ...target, ...query }, await parseRawMessage(body));
      } else {
        if (Object.keys(req.query).length > 0) {
          throw ApiError.badRequest('With the JSON form, give documentId, note and conversationId in the body');
        }
        const form = body as FileEmailJson;
        const decodedBytes = form.attachments.reduce((sum, a) => sum + Math.floor((a.contentBase64.length * 3) / 4), 0);
        if (decodedBytes > MAX_MESSAGE_BYTES) throw new ApiError('payload_too_large', 'Attachments exceed 25 MB');
        const email = await parseRawMessage(composeMime(form, app.clock.now()));
        filing = await fileEmail(
          app,
          caller,
          { ...target, documentId: form.documentId, note: form.note, conversationId: form.conversationId },
          email,
        );
      }
      // Two success statuses: 201 new, 200 duplicate.
      return new Reply(filing.status, filing.body);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/filed-emails/lookup',
    operationId: 'lookupFiledEmail',
    description:
      "Answers where a message (by its Message-ID, or by sender, subject and sent time together) is filed in the projects the caller may read: each filing's project, documents, who filed it and when. An empty list when it is filed nowhere the caller can see.",
    summary: 'Where an e-mail is already filed (projects, documents, by whom, when) within your scope',
    tags,
    access: access.needs('email:read'),
    query: LookupQuery,
    responses: { 200: { description: 'Filings of this Message-ID (possibly none)', schema: LookupResult } },
    errors: { 400: 'from, subject and sentAt given without one another' },
    handler: async ({ app, caller, query }) => lookupFilings(app, caller, query),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/filed-emails',
    operationId: 'searchFiledEmails',
    summary: 'Search every filed e-mail you may read, in all projects of your scope, newest filing first',
    description:
      'The same search and filters as a project’s list, over every project the caller reaches: a person, those ' +
      'of their organizations; a key, its organizations and the projects granted one by one. Words match ' +
      'subject, sender and recipients, body and attachment names and text, accents ignored ("facade" finds ' +
      '"façade"). Each e-mail names its organization and project (`projectName`).',
    tags,
    access: access.needs('email:read'),
    query: FiledEmailListQuery,
    responses: { 200: { description: 'One page', schema: FiledEmailFoundList } },
    handler: async ({ app, caller, query }) => searchFiledEmails(app, caller, query),
  }),
  defineRoute({
    ...readProjectEmails,
    path: '/v1/organization/:orgId/project/:projectId/emails',
    operationId: 'listFiledEmails',
    description:
      'The e-mails filed in this project, newest filing first, a page at a time. Words match subject, sender and recipients, body and attachment names and text, accents ignored; filters narrow by document, sender and date.',
    summary: "Search a project's filed e-mails, newest filing first",
    params: ProjectPath,
    query: FiledEmailListQuery,
    responses: { 200: { description: 'One page', schema: FiledEmailList } },
    handler: async ({ app, params, query }) => listProjectEmails(app, params.projectId, query),
  }),
  defineRoute({
    ...readProjectEmails,
    path: '/v1/organization/:orgId/project/:projectId/emails/:emailId',
    operationId: 'getFiledEmail',
    description:
      'The filed e-mail with its body, the other messages of its thread filed in this project, its attachments with signed download links (valid for a limited time) and the documents it is filed on.',
    summary: 'One filed e-mail with its thread, attachments and signed download URLs',
    params: FiledEmailPath,
    ...oneRecord('filed e-mail', FiledEmailDetail, ' in this project'),
    handler: async ({ app, caller, params }) => filedEmailDetail(app, caller, params.projectId, params.emailId),
  }),
  defineRoute({
    method: 'put',
    path: '/v1/organization/:orgId/project/:projectId/emails/:emailId/sent-message-id',
    operationId: 'setFiledEmailSentMessageId',
    summary: 'Tell the Message-ID the transport gave an e-mail that was filed as it was sent',
    description:
      "Sent by the add-in from the sender's sent copy: the filing made on send (its Message-ID generated) is then " +
      'found by the Message-ID every copy of the mail carries, and filing a copy answers it as a duplicate. ' +
      'Only the person who filed it; the same Message-ID again is a no-op.',
    tags,
    access: access.needsPerson('document:read', 'project'),
    params: FiledEmailPath,
    body: SentMessageIdBody,
    responses: { 200: { description: 'The filed e-mail with its sentMessageId', schema: FiledEmailSummary } },
    errors: {
      403: 'Someone else filed this e-mail',
      404: 'No such filed e-mail in this project',
      409: 'It has a Message-ID already, or the Message-ID names another filed e-mail of this project or organization',
    },
    handler: async ({ app, caller, params, body }) =>
      recordSentMessageId(app, caller, params.projectId, params.emailId, body.internetMessageId),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/organization/:orgId/project/:projectId/emails/:emailId',
    operationId: 'unfileEmail',
    summary: 'Unfile an e-mail from a project (undo a filing, manual or made on send)',
    description:
      'Whoever may file into the project may unfile from it. The record, its attachments and its search entry go; ' +
      'the same e-mail filed in other projects stays there. Sends `email.unfiled` and records `email_unfiled` activity.',
    tags,
    // Who may file into the project may put a filing there right: people only, as filing.
    access: access.needsPerson('document:read', 'project'),
    params: FiledEmailPath,
    responses: { 204: { description: 'Unfiled' } },
    errors: { 404: 'No such filed e-mail in this project' },
    handler: async ({ app, caller, params }) => {
      await unfileEmail(app, caller, params);
      return undefined;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/organization/:orgId/project/:projectId/emails/:emailId/move',
    operationId: 'moveFiledEmail',
    summary: 'Move a filed e-mail to another project of the organization (optionally onto one of its documents)',
    description:
      'For people who may read the e-mail where it is and file into the other project. Its record moves whole ' +
      '(attachments, note, who filed it and when); it is then found in the other project and no longer in this one. ' +
      'Sends `email.moved` and records `email_moved_out` / `email_moved_in` activity in the two projects.',
    tags,
    access: access.needsPerson('document:read', 'project'),
    params: FiledEmailPath,
    body: MoveFiledEmailBody,
    responses: { 200: { description: 'The filed e-mail where it is now', schema: FileEmailResult } },
    errors: {
      400: 'The project to move into is the one it is in',
      403: 'You may not file into the project to move into',
      404: 'No such filed e-mail in this project, no such project in this organization, or no such document in it',
      409: 'The project to move into holds this e-mail already',
    },
    handler: async ({ app, caller, params, body }) => moveFiledEmail(app, caller, params, body),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/filing/suggestions',
    operationId: 'suggestFilingProjects',
    summary: 'Suggest projects (and documents) to file an e-mail into',
    description:
      "Signed-in people only, over the projects of their organizations. Local ranking always; AI re-ranking only when a provider is configured and every candidate's organization has aiSuggest on.",
    tags,
    access: access.user,
    body: SuggestionRequest,
    responses: { 200: { description: 'Ranked suggestions, best first', schema: SuggestionResult } },
    handler: async ({ app, caller, body }) => suggestProjects(app, caller, body),
  }),
];
