import { and, asc, desc, eq, getTableColumns, gte, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { KeysetPosition } from '../cursor.js';
import type { Db, Tx } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { selectRows } from '../db/rows.js';
import {
  apiKeys,
  documents,
  filedEmailAttachments,
  filedEmails,
  organizations,
  projectMembers,
  projects,
  users,
} from '../db/schema.js';
import { changedSince } from '../db/sync-token.js';
import type { ProjectRef } from './score.js';

/** A text[] parameter as node-postgres renders it. */
const textArray = (values: readonly string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

/** A filed e-mail without its texts: the body (up to 25 MB) and what the search index reads. */
export type FiledEmailRow = Omit<typeof filedEmails.$inferSelect, 'bodyText' | 'searchText' | 'searchVector'>;
export type NewFiledEmail = typeof filedEmails.$inferInsert;
export type AttachmentRow = typeof filedEmailAttachments.$inferSelect;

/** Organizations a query may look into: a list, or every one (superadmin keys). */
export type OrgFilter = readonly string[] | 'all';

const inOrgs = (orgs: OrgFilter) =>
  orgs === 'all'
    ? // Keeps the (organization_id, …) indexes usable for callers that see every organization.
      inArray(filedEmails.organizationId, sql`(select id from organizations)`)
    : inArray(filedEmails.organizationId, [...orgs]);

const { bodyText, searchText, searchVector, ...withoutTexts } = getTableColumns(filedEmails);

/** Who filed it (joined): a person's name and e-mail, or an API key's name and its creator's e-mail. */
const filerColumns = {
  filedByName: sql<string | null>`coalesce(${users.name}, ${apiKeys.name})`,
  filedByEmail: sql<string | null>`coalesce(${users.email}, ${apiKeys.createdBy})`,
};

/** A filed e-mail as summaries show it, with who filed it: never its texts, which a 24 MB e-mail makes as large. */
const summaryColumns = {
  email: withoutTexts,
  ...filerColumns,
};

export type FiledEmailWithFiler = { email: FiledEmailRow; filedByName: string | null; filedByEmail: string | null };

export async function findDocumentInProject(db: Db, projectId: string, documentId: string) {
  const [row] = await db
    .select({ id: documents.id, number: documents.number, title: documents.title })
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.projectId, projectId)));
  return row;
}

/** The number and title of each of these documents (those of the caller's suggestions). */
export function documentsNamed(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({ id: documents.id, number: documents.number, title: documents.title })
    .from(documents)
    .where(inArray(documents.id, [...ids]));
}

/** A filing named by this Message-ID: its own, or the one the transport gave it after it was filed on send. */
const namedBy = (messageId: string) =>
  or(eq(filedEmails.messageId, messageId), eq(filedEmails.sentMessageId, messageId));

export async function findFiledEmailByMessage(
  db: Db | Tx,
  projectId: string,
  messageId: string,
): Promise<FiledEmailWithFiler | undefined> {
  const [row] = await db
    .select(summaryColumns)
    .from(filedEmails)
    .leftJoin(users, eq(users.id, filedEmails.filedById))
    .leftJoin(apiKeys, eq(apiKeys.id, filedEmails.filedByKeyId))
    .where(and(eq(filedEmails.projectId, projectId), namedBy(messageId)))
    .limit(1);
  return row;
}

/**
 * Serialises, until the transaction ends, everything that gives a project's filing this Message-ID (a new filing,
 * or a filing made on send learning its transport Message-ID): two such writes cannot both see it free.
 */
export async function lockMessageInProject(tx: Tx, projectId: string, messageId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${projectId} ${messageId}`}, 0))`);
}

/** What a copy of a sent e-mail shares with the filing made as it was sent, besides the Message-ID. */
export interface SentCopy {
  /** Sender address, lower case. */
  from: string;
  subject: string;
  /** When this copy says it was sent (its Date header, or when it arrived). */
  sentAt: Date;
  conversationId?: string;
}

/** A copy is dated at most this long after its sending (delivery delays) … */
const COPY_LATER_BY = sql`interval '1 day'`;
/** … and at most this long before it (the sender's clock stamps the filing, the server's the mail). */
const COPY_EARLIER_BY = sql`interval '15 minutes'`;

/**
 * Filings made as an e-mail was sent, still without the transport's Message-ID, that this copy is a copy of: the
 * same sender and subject, sent around the same time, and the same conversation when both know theirs.
 */
const awaitingSentId = (copy: SentCopy) =>
  and(
    eq(filedEmails.messageIdGenerated, true),
    sql`${filedEmails.sentMessageId} is null`,
    sql`lower(${filedEmails.fromAddress}) = ${copy.from}`,
    eq(filedEmails.subject, copy.subject),
    sql`${filedEmails.sentAt} between ${copy.sentAt.toISOString()}::timestamptz - ${COPY_LATER_BY}
      and ${copy.sentAt.toISOString()}::timestamptz + ${COPY_EARLIER_BY}`,
    copy.conversationId
      ? or(sql`${filedEmails.conversationId} is null`, eq(filedEmails.conversationId, copy.conversationId))
      : undefined,
  );

/** The filing of this project made on send that `copy` is a copy of (the most recent if several could be). */
export async function findFiledOnSend(tx: Tx, projectId: string, copy: SentCopy) {
  const [row] = await tx
    .select({ id: filedEmails.id, organizationId: filedEmails.organizationId })
    .from(filedEmails)
    .where(and(eq(filedEmails.projectId, projectId), awaitingSentId(copy)))
    .orderBy(desc(filedEmails.sentAt), desc(filedEmails.id))
    .limit(1);
  return row;
}

/**
 * Records the transport Message-ID on a filing made on send, unless it has one or another filing of its
 * organization carries it already. Call under `lockMessageInProject`. False when nothing changed.
 */
export async function setSentMessageId(tx: Tx, filedEmailId: string, messageId: string): Promise<boolean> {
  const updated = await tx
    .update(filedEmails)
    .set({ sentMessageId: messageId })
    .where(
      and(
        eq(filedEmails.id, filedEmailId),
        eq(filedEmails.messageIdGenerated, true),
        sql`${filedEmails.sentMessageId} is null`,
        sql`not exists (select 1 from filed_emails o
          where o.organization_id = ${filedEmails.organizationId} and o.sent_message_id = ${messageId})`,
      ),
    )
    .returning({ id: filedEmails.id });
  return updated.length > 0;
}

/** Inserts unless the project already holds this Message-ID (the unique index decides races). */
export async function insertFiledEmail(tx: Tx, row: NewFiledEmail): Promise<boolean> {
  const inserted = await tx
    .insert(filedEmails)
    .values(row)
    .onConflictDoNothing({ target: [filedEmails.projectId, filedEmails.messageId] })
    .returning({ id: filedEmails.id });
  return inserted.length > 0;
}

/** Puts a filed e-mail on a document; false when it is on one already (it stays there). */
export async function linkFiledEmailToDocument(tx: Tx, id: string, documentId: string): Promise<boolean> {
  const updated = await tx
    .update(filedEmails)
    .set({ documentId })
    .where(and(eq(filedEmails.id, id), isNull(filedEmails.documentId)))
    .returning({ id: filedEmails.id });
  return updated.length > 0;
}

/** Removes a filed e-mail of a project (its attachment rows go with it); false when there was none. */
/** Deletes a filed e-mail (its attachments cascade); answers the blob keys it referred to, undefined when gone. */
export async function deleteFiledEmail(tx: Tx, projectId: string, id: string): Promise<string[] | undefined> {
  const attachments = await tx
    .select({ blobKey: filedEmailAttachments.blobKey })
    .from(filedEmailAttachments)
    .where(eq(filedEmailAttachments.filedEmailId, id));
  const [deleted] = await tx
    .delete(filedEmails)
    .where(and(eq(filedEmails.id, id), eq(filedEmails.projectId, projectId)))
    .returning({ raw: filedEmails.rawBlobKey, html: filedEmails.htmlBlobKey });
  if (!deleted) return undefined;
  return [deleted.raw, deleted.html, ...attachments.map((a) => a.blobKey)].filter((key) => key !== null);
}

/** Moves a filed e-mail to another project of its organization, onto `documentId` or none; false when it is gone. */
export async function moveFiledEmailRow(
  tx: Tx,
  from: { projectId: string; id: string },
  to: { projectId: string; documentId: string | null },
): Promise<boolean> {
  const moved = await tx
    .update(filedEmails)
    .set({ projectId: to.projectId, documentId: to.documentId })
    .where(and(eq(filedEmails.id, from.id), eq(filedEmails.projectId, from.projectId)))
    .returning({ id: filedEmails.id });
  return moved.length > 0;
}

/** A project's organization and name, or undefined when there is no such project. */
export async function findProjectNamed(db: Db, projectId: string) {
  const [row] = await db
    .select({ organizationId: projects.organizationId, name: projects.name })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row;
}

export async function insertAttachments(tx: Tx, rows: (typeof filedEmailAttachments.$inferInsert)[]) {
  if (rows.length > 0) await tx.insert(filedEmailAttachments).values(rows);
}

export async function attachmentsOf(db: Db, filedEmailId: string): Promise<AttachmentRow[]> {
  return db
    .select()
    .from(filedEmailAttachments)
    .where(eq(filedEmailAttachments.filedEmailId, filedEmailId))
    .orderBy(asc(filedEmailAttachments.name), asc(filedEmailAttachments.id));
}

/** A filing as lookup tells it: where, on which document, by whom, when. */
const filingColumns = {
  filedEmailId: filedEmails.id,
  organizationId: filedEmails.organizationId,
  projectId: filedEmails.projectId,
  projectName: projects.name,
  documentId: filedEmails.documentId,
  documentNumber: documents.number,
  documentTitle: documents.title,
  filedById: filedEmails.filedById,
  filedByKeyId: filedEmails.filedByKeyId,
  ...filerColumns,
  filedAt: filedEmails.filedAt,
};

/** Filings with their project, document and filer joined: what both look-ups below read. */
const filingRows = (db: Db) =>
  db
    .select(filingColumns)
    .from(filedEmails)
    .innerJoin(projects, eq(projects.id, filedEmails.projectId))
    .leftJoin(documents, eq(documents.id, filedEmails.documentId))
    .leftJoin(users, eq(users.id, filedEmails.filedById))
    .leftJoin(apiKeys, eq(apiKeys.id, filedEmails.filedByKeyId));

/**
 * Every filing of one Message-ID in these organizations (by its own or its transport Message-ID, and with `copy`,
 * filings made on send that it is a copy of), with project name, document number and filer.
 */
export async function filingsOfMessage(db: Db, orgs: OrgFilter, messageId: string, copy?: SentCopy) {
  return filingRows(db)
    .where(and(inOrgs(orgs), copy ? or(namedBy(messageId), awaitingSentId(copy)) : namedBy(messageId)))
    .orderBy(asc(filedEmails.filedAt), asc(filedEmails.id))
    .limit(200);
}

/**
 * The latest filing per project and document of other messages of one Outlook conversation in these organizations,
 * newest first (index filed_emails_conversation_idx).
 */
export async function filingsOfConversation(db: Db, orgs: OrgFilter, conversationId: string, exceptMessageId: string) {
  const latest = db
    .selectDistinctOn([filedEmails.projectId, filedEmails.documentId], {
      id: filedEmails.id,
      filedAt: filedEmails.filedAt,
    })
    .from(filedEmails)
    .where(
      and(
        inOrgs(orgs),
        eq(filedEmails.conversationId, conversationId),
        sql`${filedEmails.messageId} <> ${exceptMessageId}`,
        sql`${filedEmails.sentMessageId} is distinct from ${exceptMessageId}`,
      ),
    )
    .orderBy(filedEmails.projectId, filedEmails.documentId, desc(filedEmails.filedAt))
    .limit(200)
    .as('latest');
  return filingRows(db)
    .innerJoin(latest, eq(latest.id, filedEmails.id))
    .orderBy(desc(filedEmails.filedAt), desc(filedEmails.id))
    .limit(50);
}

/** Whose filed e-mails a list reads: one project's, or every project's a caller reaches (`inScope`). */
export type FiledIn = { projectId: string } | { orgs: OrgFilter; projects: readonly string[] };

const filedIn = (within: FiledIn): SQL | undefined => {
  if ('projectId' in within) return eq(filedEmails.projectId, within.projectId);
  const reached = [
    ...(within.orgs === 'all' || within.orgs.length > 0 ? [inOrgs(within.orgs)] : []),
    ...(within.projects.length > 0 ? [inArray(filedEmails.projectId, [...within.projects])] : []),
  ];
  // A scope reaching nothing lists nothing.
  return reached.length > 0 ? or(...reached) : sql`false`;
};

export interface ListFilters {
  within: FiledIn;
  search?: string;
  from?: string;
  to?: string;
  documentId?: string;
  hasAttachments?: boolean;
  sentFrom?: Date;
  sentBefore?: Date;
  /** A sync token: only rows changed since it. */
  changedSince?: string;
  /** Keyset position: rows filed before this (filedAt desc, id desc). */
  after?: KeysetPosition;
  limit: number;
}

/**
 * Words (stemmed, or exact for stop words and codes) anywhere in the indexed text, or the text as typed anywhere in
 * the subject; accents ignored on both sides ("facade" finds "façade"). Angle brackets are spaces on both sides
 * (see the column), so `<RFI-12>` finds its words. The subject is compared folded (search_fold: punctuation is
 * space, which also keeps LIKE's wildcards out of the pattern), through its trigram index.
 */
const searchMatch = (text: string) => {
  const words = sql`search_unaccent(translate(${text}, '<>', '  '))`;
  const folded = sql`search_fold(${text})`;
  return or(
    sql`${filedEmails.searchVector} @@ websearch_to_tsquery('english', ${words})`,
    sql`${filedEmails.searchVector} @@ websearch_to_tsquery('simple', ${words})`,
    sql`(${folded} <> '' and search_fold(${filedEmails.subject}) like '%' || ${folded} || '%')`,
  );
};

const newestFiledFirst = keysetOrder(filedEmails.filedAt, filedEmails.id, 'desc', 'timestamptz');

/** One page of filed e-mails, newest filing first (index filed_emails_project_filed_idx, or for a whole scope
 *  filed_emails_org_filed_idx). */
export async function listFiledEmails(
  db: Db,
  f: ListFilters,
): Promise<(FiledEmailWithFiler & { projectName: string })[]> {
  const conditions: (SQL | undefined)[] = [filedIn(f.within)];
  if (f.search) conditions.push(searchMatch(f.search));
  if (f.from) conditions.push(sql`lower(${filedEmails.fromAddress}) = ${f.from}`);
  if (f.to) {
    const needle = JSON.stringify([{ address: f.to }]);
    conditions.push(or(sql`${filedEmails.to} @> ${needle}::jsonb`, sql`${filedEmails.cc} @> ${needle}::jsonb`));
  }
  if (f.documentId) conditions.push(eq(filedEmails.documentId, f.documentId));
  if (f.hasAttachments !== undefined) conditions.push(eq(filedEmails.hasAttachments, f.hasAttachments));
  if (f.sentFrom) conditions.push(gte(filedEmails.sentAt, f.sentFrom));
  if (f.sentBefore) conditions.push(lt(filedEmails.sentAt, f.sentBefore));
  if (f.changedSince) conditions.push(changedSince(sql`${filedEmails.changeSeq}`, f.changedSince));
  conditions.push(newestFiledFirst.after(f.after));
  return db
    .select({ ...summaryColumns, projectName: projects.name })
    .from(filedEmails)
    .innerJoin(projects, eq(projects.id, filedEmails.projectId))
    .leftJoin(users, eq(users.id, filedEmails.filedById))
    .leftJoin(apiKeys, eq(apiKeys.id, filedEmails.filedByKeyId))
    .where(and(...conditions))
    .orderBy(...newestFiledFirst.orderBy)
    .limit(f.limit);
}

/** A filed e-mail's text body (the detail shows it; summaries do not). */
export async function bodyTextOf(db: Db, id: string): Promise<string> {
  const [row] = await db.select({ bodyText }).from(filedEmails).where(eq(filedEmails.id, id));
  return row?.bodyText ?? '';
}

export async function findFiledEmail(db: Db, projectId: string, id: string): Promise<FiledEmailWithFiler | undefined> {
  const [row] = await db
    .select(summaryColumns)
    .from(filedEmails)
    .leftJoin(users, eq(users.id, filedEmails.filedById))
    .leftJoin(apiKeys, eq(apiKeys.id, filedEmails.filedByKeyId))
    .where(and(eq(filedEmails.id, id), eq(filedEmails.projectId, projectId)));
  return row;
}

/**
 * Other filed messages of the same thread in one organization: the same Outlook conversation, a
 * message this one refers to, or one that shares a reference with it or refers to it.
 */
export async function threadOf(db: Db, email: FiledEmailRow, limit: number) {
  // A filing made on send is known to its replies by the transport's Message-ID (sent_message_id), not its own.
  const ownIds = [email.messageId, ...(email.sentMessageId ? [email.sentMessageId] : [])];
  const linked: SQL[] = [sql`${filedEmails.references} && ${textArray([...ownIds, ...email.references])}`];
  if (email.references.length > 0) {
    linked.push(inArray(filedEmails.messageId, email.references), inArray(filedEmails.sentMessageId, email.references));
  }
  if (email.conversationId) linked.push(eq(filedEmails.conversationId, email.conversationId));
  return db
    .select({
      id: filedEmails.id,
      projectId: filedEmails.projectId,
      messageId: filedEmails.messageId,
      subject: filedEmails.subject,
      fromAddress: filedEmails.fromAddress,
      fromName: filedEmails.fromName,
      sentAt: filedEmails.sentAt,
      filedAt: filedEmails.filedAt,
    })
    .from(filedEmails)
    .where(
      and(
        eq(filedEmails.organizationId, email.organizationId),
        sql`${filedEmails.messageId} <> ${email.messageId}`,
        or(...linked),
      ),
    )
    .orderBy(asc(sql`coalesce(${filedEmails.sentAt}, ${filedEmails.filedAt})`), asc(filedEmails.id))
    .limit(limit);
}

// --- Suggestions ---

/** Each organization's projects_version: moves whenever its projects change (triggers, migration 0008). */
export async function projectsVersions(db: Db, orgIds: readonly string[]) {
  if (orgIds.length === 0) return [];
  return db
    .select({ organizationId: organizations.id, version: organizations.projectsVersion })
    .from(organizations)
    .where(inArray(organizations.id, [...orgIds]));
}

/** The organizations' projects, with the version they are at (one statement, so one snapshot). */
export async function projectsOfOrgs(db: Db, orgIds: readonly string[]) {
  if (orgIds.length === 0) return [];
  const rows = await db
    .select({
      organizationId: organizations.id,
      version: organizations.projectsVersion,
      id: projects.id,
      name: projects.name,
      code: projects.code,
      aliases: projects.aliases,
      siteAddress: projects.siteAddress,
      referenceNumbers: projects.referenceNumbers,
    })
    .from(organizations)
    .leftJoin(projects, eq(projects.organizationId, organizations.id))
    .where(inArray(organizations.id, [...orgIds]))
    .limit(20_000);
  const byOrg = new Map<string, { organizationId: string; version: number; projects: ProjectRef[] }>();
  for (const { organizationId, version, id, name, code, aliases, siteAddress, referenceNumbers } of rows) {
    const org = byOrg.get(organizationId) ?? { organizationId, version, projects: [] };
    if (id !== null && name !== null && aliases !== null && referenceNumbers !== null)
      org.projects.push({ id, organizationId, name, code, aliases, siteAddress, referenceNumbers });
    byOrg.set(organizationId, org);
  }
  return [...byOrg.values()];
}

const threadProjectRow = z.object({ projectId: z.string(), documentId: z.string().nullable() });
const THREAD_PROJECTS = 50;

/**
 * Projects (and documents) where the e-mail's thread was filed: by its Message-ID (as filed, as sent, or in a filed
 * reply's References) or its conversation id. One indexed look-up per way a filing can be linked, joined with
 * `union all`: as one `or`, the planner misjudges the References test and, to skip sorting for the distinct, walks a
 * whole index of the organization's filed mail (1.3 s at 1,000,000 e-mails; bench/suggest-scale.ts).
 */
export async function projectsOfThread(
  db: Db,
  orgIds: readonly string[],
  thread: { messageId?: string; conversationId?: string },
) {
  const linked: (SQL | undefined)[] = [];
  if (thread.messageId) {
    linked.push(namedBy(thread.messageId), sql`${filedEmails.references} @> ${textArray([thread.messageId])}`);
  }
  if (thread.conversationId) linked.push(eq(filedEmails.conversationId, thread.conversationId));
  if (linked.length === 0 || orgIds.length === 0) return [];
  const lookups = linked.map(
    (condition) => sql`(select ${filedEmails.projectId} as "projectId", ${filedEmails.documentId} as "documentId"
      from ${filedEmails} where ${and(inArray(filedEmails.organizationId, [...orgIds]), condition)}
      limit ${THREAD_PROJECTS})`,
  );
  return selectRows(
    db,
    sql`select distinct "projectId", "documentId" from (${sql.join(lookups, sql` union all `)}) linked
      limit ${THREAD_PROJECTS}`,
    threadProjectRow,
  );
}

const participantHistoryRow = z.object({
  term: z.string(),
  projectId: z.string(),
  filings: z.number(),
  weight: z.number(),
});

/**
 * Filing history of participants: per address (as sender, To or Cc) and per sender domain, and per
 * project, how many filings involve it and a recency weight (half-life 180 days). Reads structured
 * columns through their indexes (from, from-domain, to/cc GIN), at most `perTerm` filings per term,
 * so a very common term stays cheap.
 */
export async function participantHistory(
  db: Db,
  orgIds: readonly string[],
  terms: { addresses: readonly string[]; domains: readonly string[] },
  now: Date,
  perTerm = 400,
) {
  if (orgIds.length === 0 || terms.addresses.length + terms.domains.length === 0) return [];
  const orgs = textArray(orgIds);
  const weight = sql`sum(power(0.5, extract(epoch from (${now.toISOString()}::timestamptz - h.filed_at)) / 15552000.0))::float8`;
  const addressMatch = (column: SQL) => sql`${column} @> jsonb_build_array(jsonb_build_object('address', t.term))`;
  return selectRows(
    db,
    sql`
    select t.term, h.project_id as "projectId", count(*)::int as filings, ${weight} as weight
    from unnest(${textArray(terms.addresses)}) as t(term)
    cross join lateral (
      select fe.project_id, fe.filed_at from filed_emails fe
      where fe.organization_id = any(${orgs})
        and (lower(fe.from_address) = t.term or ${addressMatch(sql`fe."to"`)} or ${addressMatch(sql`fe.cc`)})
      limit ${perTerm}
    ) h
    group by t.term, h.project_id
    union all
    select t.term, h.project_id as "projectId", count(*)::int as filings, ${weight} as weight
    from unnest(${textArray(terms.domains)}) as t(term)
    cross join lateral (
      select fe.project_id, fe.filed_at from filed_emails fe
      where fe.organization_id = any(${orgs}) and split_part(lower(fe.from_address), '@', 2) = t.term
      limit ${perTerm}
    ) h
    group by t.term, h.project_id`,
    participantHistoryRow,
  );
}

/** Documents of these organizations with one of these numbers (RFI-012, SUB-045 …). */
export async function documentsByNumber(db: Db, orgIds: readonly string[], numbers: readonly string[]) {
  if (numbers.length === 0 || orgIds.length === 0) return [];
  return db
    .select({ id: documents.id, projectId: documents.projectId, number: documents.number })
    .from(documents)
    .where(
      and(
        inArray(documents.organizationId, [...orgIds]),
        // documents_org_number_idx: (organization_id, upper(number)).
        inArray(sql`upper(${documents.number})`, [...numbers]),
      ),
    )
    .limit(200);
}

/** Project-directory memberships of these participants, by e-mail address. */
export async function membershipsOfAddresses(db: Db, orgIds: readonly string[], addresses: readonly string[]) {
  if (addresses.length === 0 || orgIds.length === 0) return [];
  return db
    .select({ projectId: projectMembers.projectId, email: users.email })
    .from(users)
    .innerJoin(projectMembers, eq(projectMembers.userId, users.id))
    .where(
      and(inArray(sql`lower(${users.email})`, [...addresses]), inArray(projectMembers.organizationId, [...orgIds])),
    )
    .limit(1000);
}

// --- The suggestion model (server/filing/model/) ---

/**
 * A feature held by more projects than this says little about which one: its per-project counts are not kept
 * (schema: suggestion_feature_totals), so a look-up reads one row per feature asked, at any size. Changing it
 * takes a relearn (`cli org relearn-suggestions`).
 */
export const MODEL_MAX_PROJECTS = 40;

/**
 * The feature that counts a project's filed e-mails (`p:<projectId>`, one project's row): a word's or a sender's share
 * of two look-alikes' mail is read against how much each has filed (score.ts, `byRateWithinLookalikes`).
 */
export const filedCountFeature = (projectId: string) => `p:${projectId}`;

const withFiledCount = (projectId: string, features: readonly string[]) =>
  [...features, filedCountFeature(projectId)].sort();

/**
 * Counts one filed e-mail's features in its project and the organization's totals, in the filing transaction: one
 * statement, one row per feature and one for the project's filed e-mails (`filedCountFeature`), sorted, so
 * concurrent filings lock rows in the same order.
 */
export async function learnFeatures(tx: Tx, organizationId: string, projectId: string, features: readonly string[]) {
  const counted = withFiledCount(projectId, features);
  await tx.execute(sql`
    insert into suggestion_feature_totals as t (organization_id, feature, emails, projects, counts)
    select ${organizationId}, f, 1, 1, jsonb_build_object(${projectId}::text, 1)
    from unnest(${textArray(counted)}) as f order by f
    on conflict (organization_id, feature) do update set
      emails = t.emails + 1,
      projects = case when t.counts ? ${projectId} or t.projects > ${MODEL_MAX_PROJECTS} then t.projects
        else t.projects + 1 end,
      counts = case
        when t.counts ? ${projectId}
          then jsonb_set(t.counts, array[${projectId}::text], to_jsonb((t.counts ->> ${projectId})::int + 1))
        when t.projects >= ${MODEL_MAX_PROJECTS} then null
        else t.counts || jsonb_build_object(${projectId}::text, 1) end`);
}

/**
 * Takes one filed e-mail's features back out of its project's counts (it was unfiled or moved), as `learnFeatures`
 * put them in. The rows are locked in feature order first, as learning locks them. A feature held by more than
 * MODEL_MAX_PROJECTS projects keeps no per-project counts: only its total goes down.
 */
export async function unlearnFeatures(tx: Tx, organizationId: string, projectId: string, features: readonly string[]) {
  const held = sql`organization_id = ${organizationId} and feature = any(${textArray(withFiledCount(projectId, features))})`;
  await tx.execute(sql`select 1 from suggestion_feature_totals where ${held} order by feature for update`);
  await tx.execute(sql`
    update suggestion_feature_totals t set
      emails = greatest(t.emails - 1, 0),
      projects = case when (t.counts ->> ${projectId})::int = 1 then t.projects - 1 else t.projects end,
      counts = case
        when (t.counts ->> ${projectId})::int > 1
          then jsonb_set(t.counts, array[${projectId}::text], to_jsonb((t.counts ->> ${projectId})::int - 1))
        else t.counts - ${projectId}::text end
    where ${held}`);
  await tx.execute(sql`delete from suggestion_feature_totals where ${held} and emails = 0`);
}

const learnedCountRow = z.object({
  organizationId: z.string(),
  feature: z.string(),
  projectId: z.string(),
  emails: z.number(),
  total: z.number(),
});

/**
 * Per feature asked about, the projects whose filed e-mails carry it and how many, for features held by at most
 * MODEL_MAX_PROJECTS projects of an organization: one primary-key read per feature. In a fixed order, so that of two
 * learned words that weigh the same, the one named as the reason does not depend on where the rows lie on disk.
 */
export async function learnedCounts(db: Db, orgIds: readonly string[], features: readonly string[]) {
  if (orgIds.length === 0 || features.length === 0) return [];
  return selectRows(
    db,
    sql`
    select t.organization_id as "organizationId", t.feature, c.key as "projectId", c.value::int as emails,
      t.emails as total
    from suggestion_feature_totals t cross join lateral jsonb_each_text(t.counts) c
    where t.organization_id = any(${textArray(orgIds)}) and t.feature = any(${textArray(features)})
      and t.counts is not null
    order by t.feature, c.key`,
    learnedCountRow,
  );
}

/**
 * Counts the lines of one filed e-mail's new text (model/boilerplate.ts) under its sender's scopes (address, domain)
 * and its project, in the filing transaction: one statement, rows in key order. The counts are per project, so
 * unfiling or moving takes a line out of the project it was learned in (`unlearnLines`), and whether a line is in
 * several projects does not depend on the order of filing. Like a feature's, a line's per-project counts are kept while
 * at most MODEL_MAX_PROJECTS projects hold it, then dropped ('{}', `projects` left above the bound): a colleague's
 * signature filed in thousands of projects would otherwise rewrite a map of thousands of keys at each filing, and a
 * line in that many projects is boilerplate for good.
 */
export async function learnLines(
  tx: Tx,
  organizationId: string,
  projectId: string,
  lines: { scopes: readonly string[]; keys: readonly string[] },
) {
  if (lines.keys.length === 0 || lines.scopes.length === 0) return;
  await tx.execute(sql`
    insert into suggestion_lines as l (organization_id, scope, line, emails, project_counts, projects)
    select ${organizationId}, s, k, 1, jsonb_build_object(${projectId}::text, 1), 1
    from unnest(${textArray(lines.scopes)}) as s cross join unnest(${textArray(lines.keys)}) as k order by s, k
    on conflict (organization_id, scope, line) do update set
      emails = l.emails + 1,
      projects = case when l.project_counts ? ${projectId} or l.projects > ${MODEL_MAX_PROJECTS} then l.projects
        else l.projects + 1 end,
      project_counts = case
        when l.project_counts ? ${projectId}
          then jsonb_set(l.project_counts, array[${projectId}::text], to_jsonb((l.project_counts ->> ${projectId})::int + 1))
        when l.projects >= ${MODEL_MAX_PROJECTS} then '{}'::jsonb
        else l.project_counts || jsonb_build_object(${projectId}::text, 1) end`);
}

/**
 * Takes one unfiled (or moved-away) e-mail's lines back out of their counts in `projectId`, as `learnLines` put them
 * in (rows locked in key order first, as learning locks them): a line left in one project only is no longer
 * boilerplate on that evidence.
 */
export async function unlearnLines(
  tx: Tx,
  organizationId: string,
  projectId: string,
  lines: { scopes: readonly string[]; keys: readonly string[] },
) {
  if (lines.keys.length === 0 || lines.scopes.length === 0) return;
  const held = sql`organization_id = ${organizationId} and scope = any(${textArray(lines.scopes)})
    and line = any(${textArray(lines.keys)})`;
  await tx.execute(sql`select 1 from suggestion_lines where ${held} order by scope, line for update`);
  await tx.execute(sql`
    update suggestion_lines l set
      emails = l.emails - 1,
      projects = case when coalesce((l.project_counts ->> ${projectId})::int, 0) = 1 then l.projects - 1
        else l.projects end,
      project_counts = case when coalesce((l.project_counts ->> ${projectId})::int, 0) > 1
        then jsonb_set(l.project_counts, array[${projectId}::text], to_jsonb((l.project_counts ->> ${projectId})::int - 1))
        else l.project_counts - ${projectId}::text end
    where ${held}`);
  await tx.execute(sql`delete from suggestion_lines where ${held} and emails <= 0`);
}

/** Of these lines, those the sender's scopes filed often enough, in several projects, to be boilerplate. */
export async function boilerplateLines(
  db: Db,
  orgIds: readonly string[],
  lines: { scopes: readonly string[]; keys: readonly string[] },
  minEmails: number,
): Promise<Set<string>> {
  if (orgIds.length === 0 || lines.keys.length === 0) return new Set();
  const rows = await selectRows(
    db,
    sql`select distinct line from suggestion_lines
    where organization_id = any(${textArray(orgIds)}) and scope = any(${textArray(lines.scopes)})
      and line = any(${textArray(lines.keys)}) and projects > 1 and emails >= ${minEmails}`,
    z.object({ line: z.string() }),
  );
  return new Set(rows.map((r) => r.line));
}

/** Organizations that have filed e-mail, by id. */
export async function organizationsWithFiledEmails(db: Db): Promise<string[]> {
  const rows = await selectRows(
    db,
    sql`select distinct organization_id as "organizationId" from filed_emails order by 1`,
    z.object({ organizationId: z.string() }),
  );
  return rows.map((row) => row.organizationId);
}

/** What the suggestion model learns of a filed e-mail (`learnedFeatures`), and its project. */
const toLearnRow = z.object({
  id: z.string(),
  projectId: z.string(),
  subject: z.string(),
  bodyText: z.string(),
  fromAddress: z.string(),
  fromName: z.string().nullable(),
  to: z.array(z.object({ address: z.string() })),
  cc: z.array(z.object({ address: z.string() })),
  filerEmail: z.string(),
  attachmentNames: z.array(z.string()),
});
export type FiledEmailToLearn = z.output<typeof toLearnRow>;

const toLearn = (where: SQL, limit: number) =>
  sql`
    select fe.id, fe.project_id as "projectId", fe.subject, fe.body_text as "bodyText", fe.from_address as "fromAddress",
      fe.from_name as "fromName", fe."to", fe.cc, coalesce(u.email, '') as "filerEmail",
      coalesce((select array_agg(a.name order by a.name) from filed_email_attachments a where a.filed_email_id = fe.id), '{}') as "attachmentNames"
    from filed_emails fe left join users u on u.id = fe.filed_by_id
    where ${where}
    order by fe.id limit ${limit}`;

/** One page of an organization's filed e-mails (by id) with their attachment names, to learn from. */
export async function filedEmailsToLearn(db: Db, organizationId: string, afterId: string, limit: number) {
  return selectRows(db, toLearn(sql`fe.organization_id = ${organizationId} and fe.id > ${afterId}`, limit), toLearnRow);
}

/** One filed e-mail as the model learned it (to take it back out). */
export async function filedEmailToLearn(db: Db, id: string): Promise<FiledEmailToLearn | undefined> {
  const [row] = await selectRows(db, toLearn(sql`fe.id = ${id}`, 1), toLearnRow);
  return row;
}

/** Forgets what the organization's model learned (before relearning it from its filed e-mails). */
export async function forgetLearned(tx: Tx, organizationId: string) {
  await tx.execute(sql`delete from suggestion_feature_totals where organization_id = ${organizationId}`);
  await tx.execute(sql`delete from suggestion_lines where organization_id = ${organizationId}`);
}
