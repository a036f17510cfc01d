import type { z } from 'zod';
import {
  AI_SENDS,
  type FiledEmailDetail,
  type FiledEmailListQuery,
  type FiledEmailSummary,
  type FileEmailResult,
  type Filer,
  type LookupQuery,
  type LookupResult,
  type SuggestionRequest,
  type SuggestionResult,
} from '../../shared/filing.js';
import { recordActivity } from '../activity/queries.js';
import { type Caller, canAccessProject, projectsInOrg } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { cursorPosition, cutPage, type KeysetPosition, keysetCursor } from '../cursor.js';
import { inclusiveWindow } from '../date-window.js';
import type { Db, Tx } from '../db/connection.js';
import { currentSyncToken } from '../db/sync-token.js';
import { signDownload } from '../downloads/signing.js';
import { ApiError } from '../errors.js';
import { readEmailFilingSettings } from '../filing-settings/queries.js';
import { newId } from '../ids.js';
import { findOrganization } from '../organizations/queries.js';
import { emitEvent } from '../outbox/queries.js';
import { rerankWithProvider } from './ai.js';
import {
  attachmentText,
  clippedBody,
  domainOf,
  type IncomingEmail,
  normaliseMessageId,
  searchTextOf,
} from './message.js';
import { lineKeys, lineScopes } from './model/boilerplate.js';
import { isOwnDomain, learnedFeatures } from './model/features.js';
import {
  attachmentsOf,
  bodyTextOf,
  documentsNamed,
  type FiledEmailToLearn,
  type FiledEmailWithFiler,
  type FiledIn,
  filedEmailsToLearn,
  filingsOfConversation,
  filingsOfMessage,
  findDocumentInProject,
  findFiledEmail,
  findFiledEmailByMessage,
  findFiledOnSend,
  forgetLearned,
  insertAttachments,
  insertFiledEmail,
  learnFeatures,
  learnLines,
  linkFiledEmailToDocument,
  listFiledEmails,
  lockMessageInProject,
  type OrgFilter,
  organizationsWithFiledEmails,
  setSentMessageId,
  threadOf,
} from './queries.js';
import { rankProjects } from './ranker.js';

export interface FilingTarget {
  organizationId: string;
  projectId: string;
  documentId?: string;
  conversationId?: string;
  note?: string;
}

/**
 * Files one e-mail into a project (optionally onto one of its documents). The same Message-ID in the
 * same project is stored once: a repeat, or a concurrent second filing, gets the existing record
 * with `duplicate: true`.
 */
export async function fileEmail(
  app: AppContext,
  caller: Caller,
  target: FilingTarget,
  email: IncomingEmail,
): Promise<{ status: 200 | 201; body: z.output<typeof FileEmailResult> }> {
  const document = target.documentId
    ? await findDocumentInProject(app.db, target.projectId, target.documentId)
    : undefined;
  if (target.documentId && !document) throw ApiError.notFound('Document');

  const existing =
    (await findFiledEmailByMessage(app.db, target.projectId, email.messageId)) ??
    (await claimFiledOnSend(app.db, target.projectId, email));
  if (existing) {
    app.metrics.filings.inc({ result: 'duplicate' });
    const linked = document ? await linkToDocument(app, caller, existing, document) : undefined;
    return { status: 200, body: await filingResult(app, caller, linked ?? existing, true, linked !== undefined) };
  }

  const blobs = await storeBlobs(app, email);
  const filing: NewFiling = {
    id: newId('fem'),
    filedAt: app.clock.now(),
    caller,
    target,
    document,
    email,
    blobs,
    // Derived before the transaction: a transaction holds a pooled connection, and stays as short as its writes.
    searchText: searchTextOf(email, blobs.attachments),
    lines: { scopes: lineScopes(email.from.address), keys: lineKeys(email.bodyText) },
    learned: learnedFeatures({
      subject: email.subject,
      body: email.bodyText,
      attachmentNames: email.attachments.map((a) => a.name),
      from: email.from.address,
      fromName: email.from.name,
      recipients: [...email.to, ...email.cc].map((a) => a.address),
      ownDomain: domainOf(caller.email.toLowerCase()),
    }),
  };
  const inserted = await app.db.transaction((tx) => insertFiling(tx, filing));
  if (inserted) app.webhooks.nudge();
  const stored = await findFiledEmailByMessage(app.db, target.projectId, email.messageId);
  if (!stored) throw new Error(`Filed e-mail ${email.messageId} vanished after insert`);
  app.metrics.filings.inc({ result: inserted ? 'filed' : 'duplicate' });
  return { status: inserted ? 201 : 200, body: await filingResult(app, caller, stored, !inserted, false) };
}

/**
 * Filing an e-mail the project holds already, onto a document: the record is linked to that document when it is on
 * none yet (the updated record), left alone when it is on that document (undefined), and refused when it is on
 * another one (moving it would take it off a document someone chose).
 */
async function linkToDocument(
  app: AppContext,
  caller: Caller,
  existing: FiledEmailWithFiler,
  document: NonNullable<Awaited<ReturnType<typeof findDocumentInProject>>>,
): Promise<FiledEmailWithFiler | undefined> {
  const { email } = existing;
  if (email.documentId === document.id) return undefined;
  const linked = await app.db.transaction(async (tx) => {
    if (!(await linkFiledEmailToDocument(tx, email.id, document.id))) return false;
    await recordActivity(tx, {
      organizationId: email.organizationId,
      projectId: email.projectId,
      documentId: document.id,
      actor: caller,
      action: 'email_filed',
      title: `E-mail filed on ${document.number}: ${email.subject || '(no subject)'}`.slice(0, 500),
      details: { filedEmailId: email.id, internetMessageId: email.messageId, from: email.fromAddress },
      at: app.clock.now(),
    });
    return true;
  });
  const current = await findFiledEmail(app.db, email.projectId, email.id);
  if (linked && current) return current;
  if (current?.email.documentId === document.id) return undefined;
  const other = current?.email.documentId
    ? await findDocumentInProject(app.db, email.projectId, current.email.documentId)
    : undefined;
  throw new ApiError(
    'conflict',
    `This e-mail is already filed in this project on ${other?.number ?? 'another document'}; it was not linked to ${document.number}`,
  );
}

type StoredBlobs = Awaited<ReturnType<typeof storeBlobs>>;

/** The raw message, its HTML body and its attachments in the blob store, with each attachment's text. */
async function storeBlobs(app: AppContext, email: IncomingEmail) {
  // Blobs are content-addressed: storing them before the transaction is harmless if it loses a race.
  const [raw, html, attachments] = await Promise.all([
    app.blobs.put(email.raw),
    email.bodyHtml ? app.blobs.put(Buffer.from(email.bodyHtml, 'utf8')) : undefined,
    Promise.all(
      email.attachments.map(async (a) => ({
        ...a,
        blob: await app.blobs.put(a.content),
        text: attachmentText(a),
      })),
    ),
  ]);
  return { raw, html, attachments };
}

interface NewFiling {
  id: string;
  filedAt: Date;
  caller: Caller;
  target: FilingTarget;
  document: Awaited<ReturnType<typeof findDocumentInProject>>;
  email: IncomingEmail;
  blobs: StoredBlobs;
  /** What the search index reads (`searchTextOf`). */
  searchText: string;
  /** The suggestion model's features of the e-mail (`learnedFeatures`). */
  learned: string[];
  /** Its lines of new text, to learn boilerplate from (model/boilerplate.ts). */
  lines: { scopes: string[]; keys: string[] };
}

/** The filed e-mail, its attachments, its `email.filed` webhook event and, when filed on a document, its
 *  activity; false if the same Message-ID was filed in the project meanwhile. */
async function insertFiling(tx: Tx, filing: NewFiling): Promise<boolean> {
  const { id, filedAt, caller, target, document, email, blobs, searchText, learned, lines } = filing;
  await lockMessageInProject(tx, target.projectId, email.messageId);
  // A filing made on send may have learned this Message-ID meanwhile (the unique index knows only its own).
  if (await findFiledEmailByMessage(tx, target.projectId, email.messageId)) return false;
  const fresh = await insertFiledEmail(tx, {
    id,
    organizationId: target.organizationId,
    projectId: target.projectId,
    documentId: document?.id ?? null,
    messageId: email.messageId,
    messageIdGenerated: email.messageIdGenerated,
    conversationId: target.conversationId ?? null,
    inReplyTo: email.inReplyTo,
    references: email.references,
    subject: email.subject,
    fromAddress: email.from.address,
    fromName: email.from.name ?? null,
    to: email.to,
    cc: email.cc,
    sentAt: email.sentAt,
    ...clippedBody(email.bodyText),
    rawBlobKey: blobs.raw.key,
    htmlBlobKey: blobs.html?.key ?? null,
    hasAttachments: blobs.attachments.length > 0,
    note: target.note ?? null,
    // A person, or an API key holding email:file.
    filedById: caller.kind === 'user' ? caller.id : null,
    filedByKeyId: caller.kind === 'client' ? caller.id : null,
    filedAt,
    searchText,
  });
  if (!fresh) return false;
  await learnFeatures(tx, target.organizationId, target.projectId, learned);
  await learnLines(tx, target.organizationId, target.projectId, lines);
  await insertAttachments(
    tx,
    blobs.attachments.map((a) => ({
      id: newId('fea'),
      organizationId: target.organizationId,
      filedEmailId: id,
      name: a.name,
      contentType: a.contentType,
      size: a.blob.size,
      blobKey: a.blob.key,
      textContent: a.text,
    })),
  );
  await emitEvent(tx, {
    organizationId: target.organizationId,
    projectId: target.projectId,
    type: 'email.filed',
    data: {
      id,
      organizationId: target.organizationId,
      projectId: target.projectId,
      documentId: document?.id ?? null,
      internetMessageId: email.messageId,
      subject: email.subject,
      from: email.from,
      sentAt: email.sentAt?.toISOString() ?? null,
      attachmentCount: blobs.attachments.length,
      filedBy: {
        kind: caller.kind === 'client' ? 'apiKey' : 'person',
        id: caller.id,
        name: caller.name,
        email: caller.email,
      },
      filedAt: filedAt.toISOString(),
    },
    at: filedAt,
  });
  if (document) {
    await recordActivity(tx, {
      organizationId: target.organizationId,
      projectId: target.projectId,
      documentId: document.id,
      actor: caller,
      action: 'email_filed',
      title: `E-mail filed on ${document.number}: ${email.subject || '(no subject)'}`.slice(0, 500),
      details: { filedEmailId: id, internetMessageId: email.messageId, from: email.from.address },
      at: filedAt,
    });
  }
  return true;
}

/**
 * A received copy of an e-mail that was filed into this project as it was sent: the filing made on send learns the
 * copy's Message-ID (the transport's), and is the one record of it. Undefined when there is no such filing.
 */
async function claimFiledOnSend(db: Db, projectId: string, email: IncomingEmail) {
  if (email.messageIdGenerated || !email.sentAt) return undefined;
  const copy = { from: email.from.address.toLowerCase(), subject: email.subject, sentAt: email.sentAt };
  const claimed = await db.transaction(async (tx) => {
    await lockMessageInProject(tx, projectId, email.messageId);
    const filed = await findFiledOnSend(tx, projectId, copy);
    return filed && (await setSentMessageId(tx, filed.id, email.messageId));
  });
  return claimed ? findFiledEmailByMessage(db, projectId, email.messageId) : undefined;
}

/**
 * The sender's sent copy of an e-mail filed as it was sent tells the Message-ID the transport gave it, so that
 * every copy (the sent one, each recipient's) finds the one record. Only the person who filed it, whose mailbox
 * holds the sent copy; idempotent.
 */
export async function recordSentMessageId(
  app: AppContext,
  caller: Caller,
  projectId: string,
  filedEmailId: string,
  internetMessageId: string,
) {
  const row = await findFiledEmail(app.db, projectId, filedEmailId);
  if (!row) throw ApiError.notFound('Filed e-mail');
  if (row.email.filedById !== caller.id) {
    throw new ApiError('forbidden', 'Only the person who filed this e-mail as it was sent can tell its Message-ID');
  }
  const messageId = normaliseMessageId(internetMessageId);
  if (row.email.sentMessageId === messageId) return summaryOf(row);
  if (!row.email.messageIdGenerated || row.email.sentMessageId) {
    throw new ApiError('conflict', 'This filed e-mail has its Message-ID already');
  }
  await app.db.transaction(async (tx) => {
    await lockMessageInProject(tx, projectId, messageId);
    if (await findFiledEmailByMessage(tx, projectId, messageId)) {
      throw new ApiError('conflict', 'This project holds that Message-ID as another filed e-mail');
    }
    if (!(await setSentMessageId(tx, filedEmailId, messageId))) {
      throw new ApiError('conflict', 'Another filed e-mail of this organization has that Message-ID');
    }
  });
  const updated = await findFiledEmail(app.db, projectId, filedEmailId);
  if (!updated) throw ApiError.notFound('Filed e-mail');
  return summaryOf(updated);
}

export async function filingResult(
  app: AppContext,
  caller: Caller,
  row: FiledEmailWithFiler,
  duplicate: boolean,
  linkedToDocument: boolean,
) {
  const [attachments, alsoFiledIn] = await Promise.all([
    attachmentsOf(app.db, row.email.id),
    otherFilings(app, caller, row),
  ]);
  return {
    ...summaryOf(row),
    duplicate,
    linkedToDocument,
    attachments: attachments.map((a) => ({ id: a.id, name: a.name, contentType: a.contentType, size: a.size })),
    alsoFiledIn,
  };
}

/** The same e-mail filed in other projects the caller can see (cross-project filing is linked, not copied). */
async function otherFilings(app: AppContext, caller: Caller, row: FiledEmailWithFiler) {
  const filings = await filingsOfMessage(app.db, [row.email.organizationId], row.email.messageId);
  return filings
    .filter((f) => f.filedEmailId !== row.email.id && canAccessProject(caller.scope, f.organizationId, f.projectId))
    .map(otherFilingOf);
}

const otherFilingOf = (f: Awaited<ReturnType<typeof filingsOfMessage>>[number]) => ({
  filedEmailId: f.filedEmailId,
  projectId: f.projectId,
  projectName: f.projectName,
  documentId: f.documentId,
  filedBy: filerOf(f),
  filedAt: f.filedAt.toISOString(),
});

/** Who filed it, from the stored ids and the joined name and e-mail (the person's, or the key's and its creator's). */
function filerOf(row: {
  filedById: string | null;
  filedByKeyId: string | null;
  filedByName: string | null;
  filedByEmail: string | null;
}): Filer {
  const who = { name: row.filedByName ?? '', email: row.filedByEmail ?? '' };
  return row.filedByKeyId
    ? { kind: 'apiKey', id: row.filedByKeyId, ...who }
    : { kind: 'person', id: row.filedById ?? '', ...who };
}

export function summaryOf({ email, filedByName, filedByEmail }: FiledEmailWithFiler): FiledEmailSummary {
  return {
    id: email.id,
    organizationId: email.organizationId,
    projectId: email.projectId,
    documentId: email.documentId,
    internetMessageId: email.messageId,
    messageIdGenerated: email.messageIdGenerated,
    sentMessageId: email.sentMessageId,
    conversationId: email.conversationId,
    subject: email.subject,
    from: { address: email.fromAddress, ...(email.fromName ? { name: email.fromName } : {}) },
    to: email.to,
    cc: email.cc,
    sentAt: email.sentAt?.toISOString() ?? null,
    hasAttachments: email.hasAttachments,
    note: email.note,
    filedBy: filerOf({ ...email, filedByName, filedByEmail }),
    filedAt: email.filedAt.toISOString(),
  };
}

/** Most places a conversation's filings are told in (the newest). */
const MAX_CONVERSATION_FILINGS = 10;

/**
 * Where one e-mail is filed, across every organization and project in the caller's scope. With the copy's sender,
 * subject and time, also a filing made as it was sent that has not learned this Message-ID yet; with its
 * conversation id, where the rest of its conversation is filed.
 */
export async function lookupFilings(app: AppContext, caller: Caller, query: z.output<typeof LookupQuery>) {
  const messageId = normaliseMessageId(query.internetMessageId);
  const orgs: OrgFilter = caller.scope.allOrgs
    ? 'all'
    : [...new Set([...caller.scope.orgs, ...caller.scope.projects.keys()])];
  const { from, subject, sentAt, conversationId } = query;
  const given = [from, subject, sentAt].filter((v) => v !== undefined).length;
  if (given !== 0 && given !== 3) throw ApiError.badRequest('Give from, subject and sentAt together, or none of them');
  const copy =
    from && subject !== undefined && sentAt
      ? { from: from.address, subject, sentAt: new Date(sentAt), conversationId }
      : undefined;
  const [filings, conversation] = await Promise.all([
    filingsOfMessage(app.db, orgs, messageId, copy),
    conversationId ? filingsOfConversation(app.db, orgs, conversationId, messageId) : [],
  ]);
  const visible = (list: typeof filings) =>
    list
      .filter((f) => canAccessProject(caller.scope, f.organizationId, f.projectId))
      .map((f) => ({
        ...otherFilingOf(f),
        organizationId: f.organizationId,
        documentNumber: f.documentNumber,
        documentTitle: f.documentTitle,
      }));
  const result: z.output<typeof LookupResult> = {
    internetMessageId: messageId,
    filings: visible(filings),
    conversation: visible(conversation).slice(0, MAX_CONVERSATION_FILINGS),
  };
  return result;
}

/** A filed e-mail's place in a project's list, newest filing first. */
const filedAtPosition = ({ email }: FiledEmailWithFiler): KeysetPosition => ({
  key: email.filedAt.toISOString(),
  id: email.id,
});

export async function listProjectEmails(app: AppContext, projectId: string, query: FiledEmailQuery) {
  const { page, nextCursor, hasMore, syncToken } = await filedEmailPage(app, { projectId }, { projectId }, query);
  return { data: page.map(summaryOf), nextCursor, hasMore, ...(syncToken ? { syncToken } : {}) };
}

/** Every filed e-mail the caller may read, in every project of their scope, newest filing first. */
export async function searchFiledEmails(app: AppContext, caller: Caller, query: FiledEmailQuery) {
  const { scope } = caller;
  const within: FiledIn = scope.allOrgs
    ? { orgs: 'all', projects: [] }
    : { orgs: [...scope.orgs], projects: [...scope.projects.values()].flatMap((ids) => [...ids]) };
  const { page, nextCursor, hasMore, syncToken } = await filedEmailPage(app, within, { list: 'filed-emails' }, query);
  const data = page.map((row) => ({ ...summaryOf(row), projectName: row.projectName }));
  return { data, nextCursor, hasMore, ...(syncToken ? { syncToken } : {}) };
}

type FiledEmailQuery = z.output<typeof FiledEmailListQuery>;

/** One page of the filed e-mails `within` reaches (rows, with their project's name); the cursor is bound to `list`
 *  and the filters. */
async function filedEmailPage(app: AppContext, within: FiledIn, list: object, query: FiledEmailQuery) {
  const { cursor, limit, ...filters } = query;
  const binding = { ...list, ...filters };
  const after = cursorPosition(app.cursorKey, cursor, binding, 'timestamp');
  // The first page of a walk hands on the token of the next sync, taken before the page reads anything.
  const syncToken = after ? undefined : await currentSyncToken(app.db);
  const sent = inclusiveWindow(filters.sentAt?.from, filters.sentAt?.to, { from: 'sentAt', to: 'sentAt' });
  const rows = await listFiledEmails(app.db, {
    within,
    search: filters.search,
    from: filters.from,
    to: filters.to,
    documentId: filters.documentId,
    hasAttachments: filters.hasAttachments,
    changedSince: filters['filter.changedSince'],
    sentFrom: sent.from,
    sentBefore: sent.before,
    after,
    limit: limit + 1,
  });
  return { ...cutPage(rows, limit, keysetCursor(app.cursorKey, binding, filedAtPosition)), syncToken };
}

/** Content types a browser could run (HTML, SVG, XML, scripts) are only ever handed out as opaque bytes. */
const downloadTypeOf = (contentType: string) =>
  /html|xml|svg|javascript|ecmascript/i.test(contentType) || !/^[\w.+-]+\/[\w.+-]+$/.test(contentType)
    ? 'application/octet-stream'
    : contentType;

const fileNameOf = (name: string) => name.replace(/[\\/\p{Cc}]/gu, '_').slice(0, 200) || 'file';

export async function filedEmailDetail(
  app: AppContext,
  caller: Caller,
  projectId: string,
  id: string,
): Promise<z.output<typeof FiledEmailDetail>> {
  const row = await findFiledEmail(app.db, projectId, id);
  if (!row) throw ApiError.notFound('Filed e-mail');
  const { email } = row;
  const [attachments, alsoFiledIn, thread, bodyText] = await Promise.all([
    attachmentsOf(app.db, email.id),
    otherFilings(app, caller, row),
    threadOf(app.db, email, 100),
    bodyTextOf(app.db, email.id),
  ]);
  const baseName = fileNameOf(email.subject || 'message');
  const scope = projectsInOrg(caller.scope, email.organizationId);
  return {
    ...summaryOf(row),
    inReplyTo: email.inReplyTo,
    references: email.references,
    bodyText,
    bodyTextTruncated: email.bodyTextTruncated,
    original: email.rawBlobKey
      ? signDownload(app, { blobKey: email.rawBlobKey, fileName: `${baseName}.eml`, contentType: 'message/rfc822' })
      : null,
    html: email.htmlBlobKey
      ? signDownload(app, {
          blobKey: email.htmlBlobKey,
          fileName: `${baseName}.html`,
          contentType: 'application/octet-stream',
        })
      : null,
    attachments: attachments.map((a) => ({
      id: a.id,
      name: a.name,
      contentType: a.contentType,
      size: a.size,
      download: signDownload(app, {
        blobKey: a.blobKey,
        fileName: fileNameOf(a.name),
        contentType: downloadTypeOf(a.contentType),
      }),
    })),
    thread: thread
      .filter((t) => scope === 'all' || scope.includes(t.projectId))
      .map((t) => ({
        id: t.id,
        projectId: t.projectId,
        internetMessageId: t.messageId,
        subject: t.subject,
        from: { address: t.fromAddress, ...(t.fromName ? { name: t.fromName } : {}) },
        sentAt: t.sentAt?.toISOString() ?? null,
        filedAt: t.filedAt.toISOString(),
      })),
    alsoFiledIn,
  };
}

/** As many as are sent to the AI provider, which re-ranks the suggestions shown. */
const SUGGESTIONS_RETURNED = AI_SENDS.candidates;
/**
 * The provider is asked only when the top local probability (calibrated: score.ts W.calibration) is below this: on the
 * corpora's tuning mail, first suggestions from 0.6 on are right 97.5 % of the time and 39 % of e-mails fall below
 * (bench/suggest-calibrate.run.ts), so a round trip above it would mostly confirm local.
 */
export const AI_ASK_BELOW = 0.6;
/** Below this probability a suggestion is weak: dropped when the provider answers "none of these". */
const WEAK_SCORE = 0.5;
/** Mail among colleagues only goes to the provider when local evidence points at a project at least this much. */
const INTERNAL_POINTS_AT = 0.15;
/** Other mail too needs a little: below this the top candidate is a word or two shared by chance (a newsletter's
 *  "construction", a vendor's "units"), and a provider would choose among candidates that all say nothing. On the
 *  corpora no project mail that the provider could set right scored below 0.06 (bench/suggest-history.ts). */
export const POINTS_AT = 0.05;

/**
 * Project suggestions for an e-mail over the caller's organizations. The AI provider is asked only when a
 * provider is configured, the user did not opt out for this request, EVERY organization of the candidates
 * has aiSuggest on — read from the table on each request
 * (no cache), so a settings change applies to the next request on every instance — and local is unsure (top
 * probability below AI_ASK_BELOW) but found candidates that local evidence points at a little (POINTS_AT; mail whose participants are all at the
 * caller's own domain, INTERNAL_POINTS_AT). The provider sees the e-mail's summary and the few local
 * candidates (at most SUGGESTIONS_RETURNED), never the organization's project list (`providerPayload`); an answer
 * "none of these" drops the weak local suggestions.
 */
export async function suggestProjects(
  app: AppContext,
  caller: Caller,
  request: SuggestionRequest,
): Promise<z.output<typeof SuggestionResult>> {
  // Wall time for the operator (metrics), not business time: not from app.clock.
  const stopTimer = app.metrics.suggestionDuration.startTimer();
  const orgIds = [...caller.scope.orgs];
  const projectIndexes = app.caches.projectIndex;
  const ranked = await rankProjects(app.db, projectIndexes, {
    orgIds,
    callerEmail: caller.email,
    request,
    now: app.clock.now(),
    limit: SUGGESTIONS_RETURNED,
  });
  const top = ranked[0]?.score ?? 0;
  const ownDomain = domainOf(caller.email.toLowerCase());
  const internal = [request.from, ...request.to, ...request.cc].every((p) =>
    isOwnDomain(domainOf(p.address.toLowerCase()), ownDomain),
  );
  // A reply that switches topic and names several projects goes to the provider however sure the counts are: on
  // the corpora such replies were right locally 1 time in 2 at 0.66-0.74 (bench/suggest-history.ts, switch kind).
  const unsure =
    (top < AI_ASK_BELOW || ranked[0]?.topicInDoubt === true) && top >= (internal ? INTERNAL_POINTS_AT : POINTS_AT);
  let suggestions = ranked;
  let aiUsed = false;
  if (app.config.ai && request.allowAi !== false && unsure && ranked.length > 0) {
    const concerned = [...new Set(ranked.map((r) => r.organizationId))];
    const settings = await readEmailFilingSettings(app.db, concerned);
    const allowed = concerned.every((org) => settings.some((s) => s.organizationId === org && s.aiSuggest));
    if (allowed) {
      const reranked = await rerankWithProvider(app.config.ai, request, ranked, app.log, (outcome) =>
        app.metrics.aiRequests.inc({ outcome }),
      );
      if (reranked) {
        suggestions =
          reranked.length > 0 ? reranked.slice(0, SUGGESTIONS_RETURNED) : ranked.filter((r) => r.score >= WEAK_SCORE);
        aiUsed = true;
      }
    }
  }
  // A document suggested by the thread carries no number; numbers repeat across projects, titles tell them apart.
  const named = new Map(
    (await documentsNamed(app.db, [...new Set(suggestions.flatMap((s) => (s.documentId ? [s.documentId] : [])))])).map(
      (d) => [d.id, d],
    ),
  );
  stopTimer({ source: aiUsed ? 'local+ai' : 'local' });
  return {
    suggestions: suggestions.map(({ evidence: _evidence, projectCode: _code, topicInDoubt: _doubt, ...s }) => {
      const d = s.documentId ? named.get(s.documentId) : undefined;
      const reasons = s.reasons.filter((r) => !namesCaller(r, caller));
      return d ? { ...s, reasons, documentNumber: d.number, documentTitle: d.title } : { ...s, reasons };
    }),
    source: aiUsed ? 'local+ai' : 'local',
    aiUsed,
  };
}

/**
 * Whether a reason names the person asking (their address, or a word of their name such as "mia" learned from
 * "Hello Mia"): true of every e-mail they receive, it tells them nothing about where this one belongs.
 */
function namesCaller(reason: string, caller: Caller): boolean {
  const text = reason.toLowerCase();
  if (text.includes(caller.email.toLowerCase())) return true;
  return caller.name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3)
    .some((word) => new RegExp(`(^|[^\\p{L}\\p{N}])${word}($|[^\\p{L}\\p{N}])`, 'u').test(text));
}

/** What the suggestion model learned of a filed e-mail, as filing it learned it. */
export const featuresOf = (row: FiledEmailToLearn) =>
  learnedFeatures({
    subject: row.subject,
    body: row.bodyText,
    attachmentNames: row.attachmentNames,
    from: row.fromAddress,
    fromName: row.fromName ?? undefined,
    recipients: [...row.to, ...row.cc].map((a) => a.address),
    ownDomain: domainOf(row.filerEmail.toLowerCase()),
  });

/**
 * Relearns an organization's suggestion model from every e-mail filed in it (mail filed before the model existed,
 * or rows written past the API, as the seed does): forgets it, then learns each e-mail as filing would have.
 */
export async function relearnOrganization(db: Db, organizationId: string): Promise<number> {
  return db.transaction(async (tx) => {
    await forgetLearned(tx, organizationId);
    let learned = 0;
    for (let after = ''; ; ) {
      const page = await filedEmailsToLearn(tx, organizationId, after, 500);
      for (const row of page) {
        await learnFeatures(tx, organizationId, row.projectId, featuresOf(row));
        await learnLines(tx, organizationId, row.projectId, {
          scopes: lineScopes(row.fromAddress),
          keys: lineKeys(row.bodyText),
        });
      }
      learned += page.length;
      if (page.length < 500) break;
      after = page.at(-1)!.id;
    }
    return learned;
  });
}

/**
 * `cli org relearn-suggestions`: the model relearned from every filed e-mail of these organizations (all that
 * have filed mail when none is named) — for mail filed before the model existed, or after a change to what it counts.
 */
export async function relearnOrganizations(db: Db, organizationIds?: readonly string[]) {
  for (const id of organizationIds ?? []) {
    if (!(await findOrganization(db, id))) throw ApiError.notFound(`Organization ${id}`);
  }
  const ids = organizationIds ?? (await organizationsWithFiledEmails(db));
  const relearned: { organizationId: string; emails: number }[] = [];
  for (const organizationId of ids)
    relearned.push({ organizationId, emails: await relearnOrganization(db, organizationId) });
  return relearned;
}
