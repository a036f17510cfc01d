import type { Suggestion, SuggestionRequest } from '../../shared/filing.js';
import type { Db } from '../db/client.js';
import { domainOf, normaliseMessageId } from './message.js';
import {
  documentsByNumber,
  membershipsOfAddresses,
  participantHistory,
  projectsOfOrgs,
  projectsOfThread,
} from './queries.js';

/**
 * The local project ranker: no external calls. Evidence per project is added up from
 * - the thread already filed (Message-ID, References, Outlook conversation id);
 * - filing history of the participants' addresses and domains, weighted by recency and by how much of
 *   that address's history lies in the project (an address seen everywhere says little);
 * - project codes and names, and document numbers (RFI-012, SUB-045), in subject, body and attachment names;
 * - participants listed in project directories.
 * Filing history is capped per project (HISTORY_CAP) below any single clue in the content: a firm that
 * works on several projects of one organization writes to all of them, and when its e-mail names a
 * project, code, document or attachment, that outweighs where its earlier e-mails went.
 * score = 1 − e^(−evidence/4): 0 for no evidence, approaching 1 as it piles up.
 */
export interface RankedProject extends Suggestion {
  evidence: number;
  projectCode: string | null;
}

/** Addresses at these domains say nothing about a project. */
const freemailDomains = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
]);

const MAX_PARTICIPANTS = 30;
const MAX_DOCUMENT_NUMBERS = 10;
const addressInText = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/gi;
/** Document numbers as people write them: `RFI-012`, `RFI 12`, `sub_045`, `QT-017` (a quote). */
const documentNumberInText = /\b(RFI|SUB|SUBM|CO|SI|PC|CA|CD|CERT|BUL|QUO|QT|Q|INS|CHG)[\s_-]?(\d{1,5})\b/gi;

const W = {
  thread: 8,
  /** Most evidence the participants' filing history may give one project (below every content clue). */
  historyCap: 4,
  fromAddress: 3,
  otherAddress: 2,
  bodyAddress: 1.5,
  fromDomain: 2,
  otherDomain: 1.2,
  bodyDomain: 0.8,
  codeInSubject: 6,
  codeInBody: 5,
  nameInSubject: 6,
  nameInBody: 4.5,
  document: 5,
  directory: 1,
};

type Role = 'from' | 'other' | 'body';

export async function rankProjects(
  db: Db,
  input: { orgIds: readonly string[]; callerEmail: string; request: SuggestionRequest; now: Date; limit: number },
): Promise<RankedProject[]> {
  const { orgIds, request } = input;
  if (orgIds.length === 0) return [];
  const self = input.callerEmail.toLowerCase();
  const selfDomain = domainOf(self);

  // Participants: sender, recipients, and (weaker) addresses quoted in the body, e.g. of a forwarded thread.
  const roleOf = new Map<string, Role>();
  const addParticipant = (address: string, role: Role) => {
    const a = address.toLowerCase();
    if (a !== self && !roleOf.has(a) && roleOf.size < MAX_PARTICIPANTS) roleOf.set(a, role);
  };
  addParticipant(request.from.address, 'from');
  for (const p of [...request.to, ...request.cc]) addParticipant(p.address, 'other');
  for (const a of request.bodyPreview.match(addressInText) ?? []) addParticipant(a, 'body');
  const domainRole = new Map<string, Role>();
  for (const [address, role] of roleOf) {
    const domain = domainOf(address);
    if (domain === selfDomain || freemailDomains.has(domain)) continue;
    const current = domainRole.get(domain);
    if (!current || rank(role) < rank(current)) domainRole.set(domain, role);
  }

  const text = {
    subject: request.subject.toLowerCase(),
    body: `${request.bodyPreview}\n${request.attachmentNames.join('\n')}`.toLowerCase(),
  };
  const numbers = [
    ...new Set(
      [...`${request.subject}\n${text.body}`.matchAll(documentNumberInText)]
        .slice(0, MAX_DOCUMENT_NUMBERS)
        .flatMap(([, prefix, digits]) => numberVariants(prefix!.toUpperCase(), digits!)),
    ),
  ];

  const [projects, thread, history, docs, members] = await Promise.all([
    projectsOfOrgs(db, orgIds),
    projectsOfThread(db, orgIds, {
      messageId: request.internetMessageId ? normaliseMessageId(request.internetMessageId) : undefined,
      conversationId: request.conversationId,
    }),
    // Colleagues (the caller's own domain) are on every project's mail: their filing history is costly to read
    // and says little; the project directory already places them.
    participantHistory(
      db,
      orgIds,
      { addresses: [...roleOf.keys()].filter((a) => domainOf(a) !== selfDomain), domains: [...domainRole.keys()] },
      input.now,
    ),
    documentsByNumber(db, orgIds, numbers),
    membershipsOfAddresses(db, orgIds, [...roleOf.keys()]),
  ]);

  const byId = new Map(
    projects.map((p) => [
      p.id,
      {
        organizationId: p.organizationId,
        projectId: p.id,
        projectName: p.name,
        projectCode: p.code,
        evidence: 0,
        reasons: [] as { weight: number; text: string }[],
        documents: [] as { id: string; number: string }[],
      },
    ]),
  );
  const add = (projectId: string, weight: number, reason: string) => {
    const entry = byId.get(projectId);
    if (!entry || weight <= 0) return;
    entry.evidence += weight;
    entry.reasons.push({ weight, text: reason });
  };

  for (const t of new Set(thread.map((t) => t.projectId))) add(t, W.thread, 'This conversation is already filed here');
  for (const t of thread) {
    if (t.documentId) byId.get(t.projectId)?.documents.push({ id: t.documentId, number: '' });
  }

  const totals = new Map<string, { weight: number; filings: number }>();
  for (const h of history) {
    const total = totals.get(h.term) ?? { weight: 0, filings: 0 };
    total.weight += h.weight;
    total.filings += h.filings;
    totals.set(h.term, total);
  }
  const fromHistory = new Map<string, { weight: number; reason: string }[]>();
  const addHistory = (projectId: string, weight: number, reason: string) =>
    fromHistory.set(projectId, [...(fromHistory.get(projectId) ?? []), { weight, reason }]);
  for (const h of history) {
    const total = totals.get(h.term)!;
    const share = total.weight > 0 ? h.weight / total.weight : 0;
    const confidence = Math.min(1, total.filings / 3);
    const addressRole = roleOf.get(h.term);
    if (addressRole) {
      const weight = addressRole === 'from' ? W.fromAddress : addressRole === 'other' ? W.otherAddress : W.bodyAddress;
      addHistory(
        h.projectId,
        weight * share * confidence,
        `${h.term} appears in ${plural(h.filings, 'e-mail')} filed here`,
      );
    } else {
      const role = domainRole.get(h.term) ?? 'body';
      const weight = role === 'from' ? W.fromDomain : role === 'other' ? W.otherDomain : W.bodyDomain;
      addHistory(h.projectId, weight * share * confidence, `${plural(h.filings, 'e-mail')} from ${h.term} filed here`);
    }
  }
  for (const [projectId, parts] of fromHistory) {
    const sum = parts.reduce((s, p) => s + p.weight, 0);
    const scale = sum > W.historyCap ? W.historyCap / sum : 1;
    for (const p of parts) add(projectId, p.weight * scale, p.reason);
  }

  for (const entry of byId.values()) {
    const code = entry.projectCode?.toLowerCase();
    if (code && code.length >= 2) {
      if (containsWord(text.subject, code))
        add(entry.projectId, W.codeInSubject, `Subject names project ${entry.projectCode}`);
      else if (containsWord(text.body, code))
        add(entry.projectId, W.codeInBody, `Message names project ${entry.projectCode}`);
    }
    const name = entry.projectName.toLowerCase();
    if (name.length >= 4) {
      if (containsWord(text.subject, name))
        add(entry.projectId, W.nameInSubject, `Subject names “${entry.projectName}”`);
      else if (containsWord(text.body, name))
        add(entry.projectId, W.nameInBody, `Message names “${entry.projectName}”`);
    }
  }

  const docsByNumber = new Map<string, typeof docs>();
  for (const d of docs) {
    const key = d.number.toUpperCase();
    docsByNumber.set(key, [...(docsByNumber.get(key) ?? []), d]);
  }
  // A number such as RFI-012 exists in many projects: the fewer projects hold it, the more it says. Among
  // the holders, those where the participants' mail is already filed are the ones meant: the number is split
  // among them alone (a firm on two of the organization's projects quoting QT-017, which five projects have).
  for (const matches of docsByNumber.values()) {
    const known = matches.filter((d) => fromHistory.has(d.projectId));
    const among = known.length > 0 ? known.length : matches.length;
    for (const d of matches) {
      const weight =
        known.length === 0 || fromHistory.has(d.projectId) ? W.document / among : W.document / matches.length;
      add(d.projectId, weight, `Mentions ${d.number} of this project`);
      byId.get(d.projectId)?.documents.push({ id: d.id, number: d.number });
    }
  }

  const memberCount = new Map<string, number>();
  for (const m of members) memberCount.set(m.email.toLowerCase(), (memberCount.get(m.email.toLowerCase()) ?? 0) + 1);
  for (const m of members) {
    const email = m.email.toLowerCase();
    add(m.projectId, W.directory / memberCount.get(email)!, `${email} is in this project's directory`);
  }

  return [...byId.values()]
    .filter((e) => e.evidence > 0)
    .sort((a, b) => b.evidence - a.evidence || a.projectName.localeCompare(b.projectName))
    .slice(0, input.limit)
    .map((e) => {
      const document = e.documents.find((d) => d.number) ?? e.documents[0];
      return {
        organizationId: e.organizationId,
        projectId: e.projectId,
        projectName: e.projectName,
        projectCode: e.projectCode,
        ...(document
          ? { documentId: document.id, ...(document.number ? { documentNumber: document.number } : {}) }
          : {}),
        score: Math.round((1 - Math.exp(-e.evidence / 4)) * 1000) / 1000,
        evidence: e.evidence,
        reasons: e.reasons
          .sort((a, b) => b.weight - a.weight)
          .map((r) => r.text)
          .slice(0, 6),
      };
    });
}

/** `RFI`, `12` → RFI-12, RFI-012, RFI-0012: the stored zero padding is not known. */
const numberVariants = (prefix: string, digits: string) => {
  const value = String(Number(digits));
  return [...new Set([digits, value, value.padStart(3, '0'), value.padStart(4, '0')])].map((d) => `${prefix}-${d}`);
};

const rank = (role: Role) => (role === 'from' ? 0 : role === 'other' ? 1 : 2);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `needle` in `haystack` as whole words (not inside a longer word or number). */
function containsWord(haystack: string, needle: string): boolean {
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return false;
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if (
      (before === undefined || !/[\p{L}\p{N}]/u.test(before)) &&
      (after === undefined || !/[\p{L}\p{N}]/u.test(after))
    )
      return true;
    from = at + 1;
  }
}
