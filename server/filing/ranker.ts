import type { SuggestionRequest } from '../../shared/filing.js';
import type { Db } from '../db/connection.js';
import { isListMailing } from './clues/list-mailing.js';
import { automatedKind } from './clues/mail-kind.js';
import { contentOf, type EmailContent } from './content.js';
import { domainOf, normaliseMessageId } from './message.js';
import { BOILERPLATE_EMAILS, lineKeys, lineScopes, withoutLines } from './model/boilerplate.js';
import { freemailDomains, isOwnDomain, weightedFeatures } from './model/features.js';
import type { ProjectIndexCache } from './project-index-cache.js';
import {
  boilerplateLines,
  documentsByNumber,
  filedCountFeature,
  learnedCounts,
  membershipsOfAddresses,
  projectsOfThread,
} from './queries.js';
import { type OrgProjects, type RankedProject, type Role, scoreProjects } from './score.js';

export type { RankedProject } from './score.js';

/**
 * The local project ranker: no external calls. Extracts the clues of the e-mail (content.ts, clues/) and its
 * features (model/features.ts), gathers what the database knows about them (the thread, what filed mail taught
 * of its words, identifiers and participants, documents with the numbers quoted, directory memberships), and
 * leaves the weighing to the pure scoreProjects.
 */
const MAX_PARTICIPANTS = 30;
const addressInText = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/gi;

export async function rankProjects(
  db: Db,
  projectIndexes: ProjectIndexCache,
  input: { orgIds: readonly string[]; callerEmail: string; request: SuggestionRequest; now: Date; limit: number },
): Promise<RankedProject[]> {
  const { orgIds } = input;
  if (orgIds.length === 0) return [];
  const self = input.callerEmail.toLowerCase();
  const selfDomain = domainOf(self);
  const request = await withoutBoilerplate(db, orgIds, input.request);
  const content = contentOf(request);
  const { roleOf, domainRole } = participantsOf(request, content.quotedSenders, self);

  const asked = weightedFeatures({
    subject: request.subject,
    body: request.bodyPreview,
    attachmentNames: request.attachmentNames,
    from: request.from.address,
    fromName: request.from.name,
    recipients: [...request.to, ...request.cc].map((a) => a.address),
    ownDomain: selfDomain,
  });
  const [orgs, thread, learned, documents, members] = await Promise.all([
    projectIndexes.of(orgIds),
    projectsOfThread(db, orgIds, {
      messageId: request.internetMessageId ? normaliseMessageId(request.internetMessageId) : undefined,
      conversationId: request.conversationId,
    }),
    // Colleagues' addresses are not learned (they are on every project's mail); the directory places them.
    learnedCounts(db, orgIds, [
      ...new Set([
        ...asked.keys(),
        ...[...roleOf.keys()].filter((a) => !isOwnDomain(domainOf(a), selfDomain)).map((a) => `a:${a}`),
        ...[...domainRole.keys()].map((d) => `d:${d}`),
      ]),
    ]),
    documentsByNumber(db, orgIds, content.documentNumbers),
    membershipsOfAddresses(db, orgIds, [...roleOf.keys()]),
  ]);
  const filed = await filedCounts(db, orgIds, lookalikesHolding(orgs, learned));
  const participant = (f: string) => f.startsWith('a:') || f.startsWith('d:');
  const history = learned
    .filter((r) => participant(r.feature))
    .map((r) => ({ term: r.feature.slice(2), projectId: r.projectId, filings: r.emails, weight: r.emails }));
  const from = request.from.address.toLowerCase();
  const stranger = isStranger(from, selfDomain, history);
  return scoreProjects(
    {
      orgs,
      content,
      roleOf,
      domainRole,
      thread,
      history,
      learned: learned.filter((r) => !participant(r.feature)),
      asked,
      automated:
        isDiscountedKind(request, !isOwnDomain(domainOf(from), selfDomain) && history.some((h) => h.term === from)) ||
        isInternalBroadcast(request, content, self) ||
        isListMailing({
          from: request.from.address,
          recipients: visibleRecipients(request),
          ownDomain: selfDomain,
          quotes: content.quotedSenders.length > 0 || content.sections.some((sec) => sec.where === 'quoted'),
        }),
      stranger,
      documents,
      members,
      filed,
    },
    input.limit,
  );
}

/** The look-alikes of groups one of whose members holds a feature of the e-mail: those whose filed counts matter. */
function lookalikesHolding(orgs: OrgProjects[], learned: { projectId: string }[]): string[] {
  const holding = new Set(learned.map((r) => r.projectId));
  return orgs.flatMap((o) => o.lookalikeGroups.filter((g) => g.some((id) => holding.has(id))).flat());
}

/** How many e-mails each of these projects has filed (`filedCountFeature`): one primary-key read per project. */
async function filedCounts(db: Db, orgIds: readonly string[], projectIds: readonly string[]) {
  const rows = await learnedCounts(db, orgIds, [...new Set(projectIds)].map(filedCountFeature));
  return new Map(rows.map((r) => [r.projectId, r.emails]));
}

/**
 * Automated mail whose kind says it is about no project. A notice from an outside machine address whose own mail the
 * organization has filed is not: the organization files that portal's notices in its projects ("Application …
 * Building: Al Waha Mall - Level 2"), so it counts as any mail naming a project would. Its domain is not enough: a
 * contractor whose people's mail is filed also sends golf-day invitations from events@.
 */
function isDiscountedKind(request: SuggestionRequest, filedNotifier: boolean) {
  const kind = automatedKind({ subject: request.subject, from: request.from.address, body: request.bodyPreview });
  return kind !== null && (kind !== 'notice' || !filedNotifier);
}

/**
 * A colleague's own text to an address of the organization that is not the caller's (a list such as all-staff, or
 * the caller in Bcc), quoting nothing: mail to the firm, not about one of its projects, whatever it mentions.
 */
function isInternalBroadcast(request: SuggestionRequest, content: EmailContent, self: string) {
  const own = (address: string) => isOwnDomain(domainOf(address), domainOf(self));
  const recipients = visibleRecipients(request);
  return (
    own(request.from.address.toLowerCase()) &&
    recipients.length > 0 &&
    recipients.every((a) => a !== self && own(a)) &&
    content.quotedSenders.length === 0 &&
    !content.sections.some((s) => s.where === 'quoted')
  );
}

/** To and Cc, lower-cased: who a mail shows it was sent to (Bcc is not seen). */
const visibleRecipients = (request: SuggestionRequest) =>
  [...request.to, ...request.cc].map((a) => a.address.toLowerCase());

/** A sender from outside the organization whose address and domain no filed e-mail has. */
function isStranger(from: string, selfDomain: string, history: { term: string }[]) {
  const domain = domainOf(from);
  return !isOwnDomain(domain, selfDomain) && !history.some((h) => h.term === from || h.term === domain);
}

/** The request without the lines its sender (or the sender's domain) is known to write in every project's mail. */
async function withoutBoilerplate(db: Db, orgIds: readonly string[], request: SuggestionRequest) {
  const lines = { scopes: lineScopes(request.from.address), keys: lineKeys(request.bodyPreview) };
  const boilerplate = await boilerplateLines(db, orgIds, lines, BOILERPLATE_EMAILS);
  return boilerplate.size === 0
    ? request
    : { ...request, bodyPreview: withoutLines(request.bodyPreview, boilerplate, request.from) };
}

/**
 * Participants and their roles: the sender, recipients, the original senders of quoted messages (as senders
 * when a colleague forwards, so the forwarder does not drown them), and (weaker) addresses in the body.
 */
function participantsOf(request: SuggestionRequest, quotedSenders: string[], self: string) {
  const selfDomain = domainOf(self);
  const roleOf = new Map<string, Role>();
  const add = (address: string, role: Role) => {
    const a = address.toLowerCase();
    if (a !== self && !roleOf.has(a) && roleOf.size < MAX_PARTICIPANTS) roleOf.set(a, role);
  };
  const forwardedByColleague = isOwnDomain(domainOf(request.from.address.toLowerCase()), selfDomain);
  add(request.from.address, 'from');
  for (const a of quotedSenders) add(a, forwardedByColleague ? 'from' : 'other');
  for (const p of [...request.to, ...request.cc]) add(p.address, 'other');
  for (const a of request.bodyPreview.match(addressInText) ?? []) add(a, 'body');
  const domainRole = new Map<string, Role>();
  const rank = (role: Role) => ['from', 'other', 'body'].indexOf(role);
  for (const [address, role] of roleOf) {
    const domain = domainOf(address);
    if (isOwnDomain(domain, selfDomain) || freemailDomains.has(domain)) continue;
    const current = domainRole.get(domain);
    if (!current || rank(role) < rank(current)) domainRole.set(domain, role);
  }
  return { roleOf, domainRole };
}
