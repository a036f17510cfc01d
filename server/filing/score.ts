import { LIKELY_SCORE, type Suggestion } from '../../shared/filing.js';
import { codeBase, effectiveCode, matchesCode, readableAsJobNumber, spellsCode } from './clues/job-numbers.js';
import { addressMatchesIn, buildFieldIndex, type FieldIndex, referenceMatchesIn } from './clues/project-fields.js';
import {
  buildNameIndex,
  lookalikeMatchesIn,
  lookalikeWordsIn,
  type NameIndex,
  type NameMatch,
  type NameStrength,
  nameMatchesIn,
  wordsOf,
} from './clues/project-names.js';
import type { EmailContent, Where } from './content.js';
import { type AskedFeature, identifierKey, partWeight, textFeatures } from './model/features.js';

/**
 * Pure scoring of the evidence the ranker gathered: the clues of the e-mail itself (thread, job numbers, project
 * names, document numbers), what the organization's filed mail taught (model/: words and identifiers of filed
 * e-mails, their participants) and the project directory add up to each project's evidence E. The score is a
 * probability: P(p) = (e^(E_p/T) − 1) / (K + Σ_q (e^(E_q/T) − 1)), where K is the weight of "none of them", so
 * a project with no evidence gets 0 and weak evidence everywhere stays well below 0.5; then calibrated
 * (W.calibration, fitted on held-out mail by bench/suggest-calibrate.run.ts). Equal evidence is
 * ordered by the strongest clue of the e-mail itself, then by project name: never by the order of filing.
 */
export const W = {
  thread: 12,
  /** A thread whose new text names another project at least as clearly as the thread's: still evidence. */
  threadContested: 3,
  /** Its evidence at most this share of the project the new text switches to (it stays offered, second). */
  threadSwitched: 0.9,
  /** A project name, job number or site field in the new text with at least this weight names it. */
  namesClearly: 3.5,
  jobNumberLabelled: 9,
  jobNumberBare: 7,
  name: { name: 9, alias: 9, phrase: 7, word: 4, 'generic-phrase': 2 } satisfies Record<NameStrength, number>,
  document: 8,
  /** A reference number or site address an admin set on the project: as strong as its name or labelled code. */
  referenceNumber: 9,
  siteAddress: 9,
  /** A reference number's digits alone ("4471" for PO-4471) may be a quantity or a price. */
  referenceDigitsOnly: 0.7,
  /** How much a clue counts by where it stands: signatures and disclaimers carry little. */
  where: {
    subject: 1,
    attachment: 1,
    body: 0.9,
    passing: 0.3,
    quotedSubject: 0.9,
    quoted: 0.8,
    /** The sender's signature block, recognised by the sender's name (clues/mail-body.ts): who writes, from where. */
    signature: 0.6,
    banner: 0.2,
  } satisfies Record<Where, number>,
  /** A bare number in running text may be anything (a quantity, an address): only in subjects and file names. */
  bareNumberPlaces: new Set<Where>(['subject', 'attachment', 'quotedSubject']),
  /** Of a reply's old topic and the project its new text points to without naming it decisively (described, or one
   *  word of a name), the leader's evidence at most this much above the other's: odds at most e^(0.5/T) = 1.28 times
   *  the other's (1.30 calibrated) keep the leader below 0.57, under AI_ASK_BELOW (0.6, service.ts). */
  contestedLead: 0.5,
  /** Of an e-mail whose new text, read alone, says more for another project than for the one it scores highest (a
   *  reply's old topic, or a new e-mail's aside), the leader's evidence at most this much above that project's: odds
   *  at most e^(2.5/T) = 3.5 times the other's (3.7 calibrated) keep the leader below 0.79, under LIKELY_SCORE (0.8). */
  dissentLead: 2.5,
  /** Of a contested reply, how much more its new text read alone must say for the other project than for the old
   *  topic to put that project first: what names a project (W.namesProject), one distinctive word more. */
  turnsReply: 3,
  /** Least that the new text read alone must say for a project to dispute the leader: half of what names one. */
  dissents: 1.5,
  /** One word of a name found in at least `filed` filed e-mails, less than `share` of them the project's, is everyday
   *  there (weighedByFiledMail). */
  everydayNameWord: { filed: 3, share: 0.5 },
  /** Least content evidence that names a project (one distinctive word in the body does; a signature does not). */
  namesProject: 3,
  historyCap: 4,
  fromAddress: 3,
  otherAddress: 2,
  bodyAddress: 1.5,
  fromDomain: 2,
  otherDomain: 1.2,
  bodyDomain: 0.8,
  directory: 1,
  /** A learned identifier (PO, permit, bid package …) or word wholly of one project, found in the subject. */
  learnedIdentifier: 8,
  learnedWord: 2.5,
  /** Words (and numbers that are no project's own identifier) a project's filed mail holds in at most `emails`
   *  e-mails may all come from the same one or two: for a sure score, together they count at most `cap`, as one clue
   *  that names a project clearly (W.namesClearly; 3 and 4 were tried: 3 took two more right preselections off corpus
   *  16, 4 kept a wrong one on 18); a leader sure only by more is held at `hold`, below LIKELY_SCORE
   *  (narrowLeaderScore). */
  fewFiled: { emails: 2, cap: 3.5, hold: 0.79 },
  /** A learned word seen in one filed e-mail counts 1/(1+wordSupport) of one seen in many. */
  wordSupport: 2,
  identifierSupport: 0.5,
  /** From a stranger, a part of a name (a phrase or word, or an alias of its words: strengthOf; not the whole name or
   *  another alias) and words learned from filed mail count this much: a mention, maybe not the topic (a recruiter's "data centre projects"). */
  stranger: 0.5,
  /** Newsletters, automatic replies and calendar notices (clues/mail-kind.ts): their evidence counts this much. */
  automatedMail: 0.25,
  /** A look-alike group's shared word written with nothing that tells the members apart: each member gets this. */
  groupWord: 1,
  /** Of a look-alike's filed-content and participant evidence, the share its siblings get (shareWithLookalikes). */
  lookalikeShare: 0.25,
  /** Between a leader and its look-alikes (NameIndex.lookalikes), the evidence gap counts 1/lookalikeGap in the
   *  probability: what tells two phases of one scheme apart is a few clues of the same kind the rest of their mail
   *  shares (people, site, words), so a gap between them is less sure than the same gap over another project. The
   *  order stays. Fitted by likelihood (bench/suggest-calibrate.run.ts, SUGGEST_CALIBRATE_LOOKALIKE) on the retired
   *  blind corpora 19–22 and the tuning sets' rolling origin. */
  lookalikeGap: 1.5,
  /** Temperature and "none" weight of the probability (see above). */
  temperature: 2,
  none: 6,
  /**
   * Calibration (bench/suggest-calibrate.run.ts fits it on the corpora's tuning mail, never their reported part):
   * each project's odds against "none" are raised to 1/sharpness and "none" is weighed e^noneBias. Temperature
   * scaling with "none" as an outcome of its own: it keeps the order, and mail for no project pulls it down.
   */
  calibration: { sharpness: 0.95, noneBias: 0 },
};

export type Role = 'from' | 'other' | 'body';
export type ClueKind =
  | 'thread'
  | 'job-number'
  | 'project-name'
  | 'document-number'
  | 'project-field'
  | 'filed-content'
  | 'history'
  | 'directory';

export interface RankedProject extends Suggestion {
  evidence: number;
  projectCode: string | null;
  /** A reply that leaves its old topic and whose new text names several projects ("unrelated to the bridge, but
   *  the Kaimai barrier …"): which one it is about is a matter of reading, whatever the counts say. */
  topicInDoubt: boolean;
}

export interface ProjectRef {
  id: string;
  organizationId: string;
  name: string;
  code: string | null;
  aliases: string[];
  siteAddress: string | null;
  referenceNumbers: { label: string; value: string }[];
}

/** What scoring needs of one organization's projects: built once per version of them (project-index-cache.ts). */
export interface OrgProjects {
  projects: ProjectRef[];
  byId: Map<string, ProjectRef>;
  /** Names are distinctive within the organization: "a single word that no other project of it has". */
  names: NameIndex;
  /** Projects whose code (or the job number their name starts with) has digits, by the code's base (codeBase):
   *  a job number matches only codes of its base, so a suggestion never compares it with every project's. */
  codes: Map<string, { id: string; code: string }[]>;
  /** Site addresses and reference numbers set on the projects. */
  fields: FieldIndex;
  /** Each group of look-alikes (projects a word of their names joins: NameIndex.lookalikes) once, by project id. */
  lookalikeGroups: string[][];
}

export function indexProjects(projects: ProjectRef[]): OrgProjects {
  const codes = new Map<string, { id: string; code: string }[]>();
  for (const p of projects) {
    const code = effectiveCode(p);
    if (code && /\d/.test(code)) codes.set(codeBase(code), [...(codes.get(codeBase(code)) ?? []), { id: p.id, code }]);
  }
  const names = buildNameIndex(projects);
  const groups = [...names.lookalikes.values()].map((group) => group.map((g) => g.projectId).sort());
  return {
    projects,
    byId: new Map(projects.map((p) => [p.id, p])),
    names,
    codes,
    fields: buildFieldIndex(projects.map(withCodeAsReference)),
    lookalikeGroups: [...new Map(groups.map((g) => [g.join(' '), g])).values()],
  };
}

/** A code job-number reading cannot take whole ("VR-25-015": a year between letters and number, read as a bare
 *  "015") is read as a reference number, by its segments wherever it stands, as the organization writes it. */
function withCodeAsReference(p: ProjectRef): ProjectRef {
  if (!p.code || readableAsJobNumber(p.code)) return p;
  return { ...p, referenceNumbers: [...p.referenceNumbers, { label: 'Job number', value: p.code }] };
}

export interface Evidence {
  /** The caller's organizations. */
  orgs: OrgProjects[];
  content: EmailContent;
  roleOf: Map<string, Role>;
  domainRole: Map<string, Role>;
  thread: { projectId: string; documentId: string | null }[];
  history: { term: string; projectId: string; filings: number; weight: number }[];
  /** Learned counts of the e-mail's words and identifiers (model/), with how they stand in the e-mail. */
  learned: { feature: string; projectId: string; emails: number; total: number }[];
  asked: Map<string, AskedFeature>;
  /** Bulk mail, an automatic reply or a calendar notice: about no project, whatever it names. */
  automated: boolean;
  /** The sender is outside the organization and no filed e-mail has its address or domain. */
  stranger: boolean;
  documents: { id: string; projectId: string; number: string }[];
  members: { projectId: string; email: string }[];
  /** How many e-mails look-alikes holding the e-mail's features have filed (ranker.ts, `filedCountFeature`). */
  filed: Map<string, number>;
}

interface Entry {
  project: ProjectRef;
  /** Per kind, the clue's weight and, when it adds up several features (filed-content), its single strongest one. */
  content: Map<ClueKind, { weight: number; text: string; single: number }>;
  other: { kind: ClueKind; weight: number; text: string }[];
  documents: { id: string; number: string }[];
}

/** The evidence gathered per project, made on a project's first clue: a suggestion's work grows with its clues,
 *  not with the organization's project count. */
class Entries {
  private readonly entries = new Map<string, Entry>();
  readonly projectCount: number;

  constructor(private readonly orgs: OrgProjects[]) {
    this.projectCount = orgs.reduce((n, o) => n + o.projects.length, 0);
  }

  /** The entry of one of the organizations' projects; undefined for any other project. */
  get(projectId: string): Entry | undefined {
    let entry = this.entries.get(projectId);
    if (entry) return entry;
    const project = this.orgs.find((o) => o.byId.has(projectId))?.byId.get(projectId);
    if (!project) return undefined;
    entry = { project, content: new Map(), other: [], documents: [] };
    this.entries.set(projectId, entry);
    return entry;
  }

  has(projectId: string): boolean {
    return this.orgs.some((o) => o.byId.has(projectId));
  }

  values() {
    return this.entries.values();
  }
}

export function scoreProjects(e: Evidence, limit: number): RankedProject[] {
  const byId = new Entries(e.orgs);
  /** Per project and kind, the strongest content clue counts (the name twice is not twice the evidence). */
  const content = (projectId: string, kind: ClueKind, weight: number, text: string, single = weight) => {
    const entry = byId.get(projectId);
    if (entry && weight > (entry.content.get(kind)?.weight ?? 0)) entry.content.set(kind, { weight, text, single });
  };
  const other = (projectId: string, kind: ClueKind, weight: number, text: string) => {
    if (weight > 0) byId.get(projectId)?.other.push({ kind, weight, text });
  };
  const clues: ({ projectId: string; kind: ClueKind; weight: number; text: string; where: Where } & ClueDetail)[] = [];
  scoreContentClues(e, (projectId, kind, weight, text, where, detail) =>
    clues.push({ projectId, kind, weight, text, where, ...detail }),
  );
  const clear = clues.filter((c) => c.weight >= W.namesClearly);
  const shape = mailShape(e.content);
  /** Per project, how clearly the new text (not a quote, not the subject a reply repeats) names it. A new e-mail in
   *  a known conversation wrote its subject anew ("Pier 9 tower crane base"): its subject is new text too. */
  const namedInNewText = new Map<string, number>();
  const isNewText = (where: Where) => where === 'body' || (shape === 'new' && where === 'subject');
  /** What the conversation was about before this e-mail: the filed thread's projects, or else those a reply's
   *  repeated subject or quoted messages name clearly. */
  const oldTopic = new Set(e.thread.map((t) => t.projectId));
  if (e.thread.length > 0 || shape === 'reply')
    for (const c of clear) {
      if (isNewText(c.where)) namedInNewText.set(c.projectId, Math.max(c.weight, namedInNewText.get(c.projectId) ?? 0));
      else if (e.thread.length === 0 && (c.where === 'subject' || c.where === 'quotedSubject' || c.where === 'quoted'))
        oldTopic.add(c.projectId);
    }
  // A reply whose new text names another project at least as clearly as the thread's is about that project: the
  // thread's own mention is then the old topic ("the riser issue at the mill is long closed").
  const threadNamed = Math.max(0, ...[...oldTopic].map((id) => namedInNewText.get(id) ?? 0));
  const switchedTo = new Set(
    [...namedInNewText].filter(([id, w]) => w >= threadNamed && !oldTopic.has(id)).map(([id]) => id),
  );
  // A reply's new text read alone (its own lines and attachments: not the quotes, not the subject it repeats), by
  // what it names and what filed mail taught of its words. When it says more for another project than the old topic
  // gets from it, the reply may be about that project without naming it ("on the west building, the hotel
  // operator's ballroom …"): the thread is then evidence, not a verdict.
  const learned = learnedWeights(e, byId, namedAddressFeatures(clues));
  const newSupport = newTextSupport(e, clues, learned, newTextParts(shape));
  const described = describedElsewhere(e, newSupport, oldTopic, switchedTo.size > 0);
  if (described) switchedTo.add(described);
  const contested = switchedTo.size > 0;
  // A reply's subject is the thread's: when the new text names another project, it counts as quoted for the others.
  const subjectScale = (projectId: string) =>
    contested && !switchedTo.has(projectId) ? partWeight.quoted / partWeight.subject : 1;
  // A new e-mail's subject is what its writer chose to say it is about: when it names a project clearly, another
  // project its text names is a mention ("the site shed from Horotiu goes to the old Stage 1 compound").
  const subjectNamed = new Set(
    shape === 'new' && e.thread.length === 0 ? clear.filter((c) => c.where === 'subject').map((c) => c.projectId) : [],
  );
  // Its first paragraph that names a project clearly is its main part: a project named only in a shorter paragraph
  // after it is an aside ("PS - the Coomera hall as-builts went to Bramwell", "Also, could Kate send me the Stage A
  // as-builts"). Where the subject names several projects, the main part tells which of them is the topic, and the
  // others are mentions there too ("Stage B façade change and Stage A as-builts").
  const leadNamed = shape === 'new' && e.thread.length === 0 ? mainPartNamed(e) : new Set<string>();
  const bothNamed = new Set([...subjectNamed].filter((id) => leadNamed.has(id)));
  const topicNamed = bothNamed.size > 0 ? bothNamed : subjectNamed.size > 0 ? subjectNamed : leadNamed;
  const mentionScale = W.where.passing / W.where.body;
  const mentioned = (projectId: string, where: Where) =>
    where === 'body' && topicNamed.size > 0 && !topicNamed.has(projectId);
  /** Per project its name words that the text only mentions: what filed mail taught of them counts as a mention too. */
  const mentionedWords = new Map<string, Set<string>>();
  const lessWritten = lessWrittenIdentifiers(clues);
  for (const c of clues) {
    const scale =
      (c.where === 'subject'
        ? subjectScale(c.projectId) * (bothNamed.size > 0 && !bothNamed.has(c.projectId) ? mentionScale : 1)
        : mentioned(c.projectId, c.where)
          ? mentionScale
          : 1) * (lessWritten.has(c.projectId) && exactIdentifiers.has(c.kind) ? mentionScale : 1);
    content(c.projectId, c.kind, c.weight * scale, c.text);
    if (mentioned(c.projectId, c.where) && c.words)
      mentionedWords.set(c.projectId, new Set([...(mentionedWords.get(c.projectId) ?? []), ...c.words.split(' ')]));
  }
  for (const t of e.thread) {
    content(
      t.projectId,
      'thread',
      contested ? W.threadContested : W.thread,
      contested
        ? 'This conversation is filed here, but its new text points to another project'
        : 'This conversation is already filed here',
    );
    if (t.documentId) byId.get(t.projectId)?.documents.push({ id: t.documentId, number: '' });
  }
  const historyProjects = scoreHistory(e, other);
  scoreDocuments(e, historyProjects, content, byId);
  const memberCount = new Map<string, number>();
  for (const m of e.members) memberCount.set(m.email.toLowerCase(), (memberCount.get(m.email.toLowerCase()) ?? 0) + 1);
  for (const m of e.members) {
    const email = m.email.toLowerCase();
    other(m.projectId, 'directory', W.directory / memberCount.get(email)!, `${email} is in this project's directory`);
  }
  const fewFiledExcess = scoreLearned(learned, content, (part, projectId, text) => {
    const stranger = strangerScale(e, part);
    if (lessWritten.get(projectId)?.has(identifierKey(text))) return stranger * mentionScale;
    if (part === 'subject') return stranger * subjectScale(projectId);
    const words = mentionedWords.get(projectId);
    if (part === 'body' && words && wordsOf(text).some((w) => words.has(w))) return stranger * mentionScale;
    return stranger;
  });
  // A machine's mail from a sender the organization never filed (a newsletter, an advert) doubts twice: it is automated,
  // and nothing says its sender writes about our projects. A place it names ("Jumeirah Bay Island villas sell for …")
  // then stays below the AI's floor (POINTS_AT, service.ts).
  const kindScale = e.automated ? W.automatedMail * (e.stranger ? W.stranger : 1) : 1;
  const ranked = [...byId.values()].map((entry) => rankedOf(entry, kindScale)).filter((r) => r.evidence > 0);
  liftLookalikes(e, byId, ranked, kindScale);
  // The project the new text switches to wins; the thread's stays offered, second, whatever its history adds.
  // A verdict needs more than one word of a name ("pump house" is not Victoria House): a phrase, the name, a code.
  const switched = Math.max(0, ...ranked.filter((r) => switchedTo.has(r.projectId)).map((r) => r.evidence));
  const switchedDecisively = [...switchedTo].some(
    (id) => (namedInNewText.get(id) ?? 0) >= W.name.phrase * W.where.body,
  );
  if (switchedDecisively)
    for (const r of ranked)
      if (e.thread.some((t) => t.projectId === r.projectId))
        r.evidence = Math.min(r.evidence, switched * W.threadSwitched);
  // A reply that leaves its old topic for a project it describes, or names by one word only, is in doubt: neither
  // that project nor the old topic is sure, so both are offered and the AI reads it.
  if (contested && !switchedDecisively) {
    const strongest = (ids: Set<string>) =>
      ranked
        .filter((r) => ids.has(r.projectId))
        .reduce<(typeof ranked)[number] | undefined>(
          (top, r) => (r.evidence > (top?.evidence ?? 0) ? r : top),
          undefined,
        );
    const threadTop = strongest(oldTopic);
    const other = strongest(switchedTo);
    if (threadTop && other) {
      // When the new text backs the other project clearly more than the old topic (by what names a project), it
      // decides the order: the same two scores, the higher one the other's, the thread's project second.
      const turned =
        (newSupport.get(other.projectId) ?? 0) >= (newSupport.get(threadTop.projectId) ?? 0) + W.turnsReply;
      const [high, low] = [Math.max(threadTop.evidence, other.evidence), Math.min(threadTop.evidence, other.evidence)];
      const [leader, second] = turned || other.evidence > threadTop.evidence ? [other, threadTop] : [threadTop, other];
      leader.evidence = Math.min(high, low + W.contestedLead);
      second.evidence = low;
    }
  }
  // The new text, read alone, points elsewhere than the leader: neither is sure, so both are offered.
  const dissent =
    replyDissent(e, newSupport, oldTopic) ??
    (topicNamed.size === 0 && shape === 'new' && e.thread.length === 0 ? asideDissent(e, learned) : undefined);
  const disputer = ranked.find((r) => r.projectId === dissent);
  if (disputer)
    for (const r of ranked) if (r !== disputer) r.evidence = Math.min(r.evidence, disputer.evidence + W.dissentLead);
  ranked.sort(
    (a, b) =>
      b.evidence - a.evidence ||
      b.contentWeight - a.contentWeight ||
      a.projectName.localeCompare(b.projectName) ||
      a.projectId.localeCompare(b.projectId),
  );
  const strength = (evidence: number) => Math.expm1(evidence / W.temperature);
  const candidates = ranked.reduce((sum, r) => sum + strength(r.evidence), 0);
  // A never-seen sender whose words name no project clearly (a recruiter's "data centre projects", a supplier's
  // "price list") writes about none of them at least as likely as about all of them together: no project reaches 0.5.
  // Clearly is one clue (a name, a job number, an identifier, one strong learned word): many weak words learned from
  // filed mail add up to evidence, not to a name.
  const unnamed = e.stranger && !ranked.some((r) => r.strongestContent >= W.namesClearly);
  const none = W.none + (unnamed ? candidates : 0);
  const oddsOf = (evidence: number) => (strength(evidence) / none) ** (1 / W.calibration.sharpness);
  const odds = probabilityEvidence(e, ranked).map(oddsOf);
  const mass = Math.exp(W.calibration.noneBias) + odds.reduce((sum, o) => sum + o, 0);
  const scores = odds.map((o) => o / mass);
  // A leader sure only by what one or two of its filed e-mails hold is likely, not sure (narrowLeaderScore).
  const leader = ranked[0];
  if (leader) {
    // The narrow part comes off what the clues added up to (or the floor a look-alike lifted it to); a thread's or a
    // dissent's cap on the leader still holds.
    const uncapped = Math.max(leader.evidence, leader.summed);
    const narrow =
      kindScale * ((fewFiledExcess.get(leader.projectId) ?? 0) + sharedNameExcess(clues, leader.projectId));
    const broad = oddsOf(Math.max(0, Math.min(leader.evidence, uncapped - narrow)));
    scores[0] = narrowLeaderScore(scores[0]!, broad / (mass - odds[0]! + broad));
  }
  const topicInDoubt = contested && namedInNewText.size >= 2;
  return ranked.slice(0, limit).map(({ contentWeight: _c, strongestContent: _s, summed: _t, ...r }, i) => ({
    ...r,
    topicInDoubt,
    score: Math.round(1000 * scores[i]!) / 1000,
  }));
}

/** Each ranked project's evidence as the probability reads it: a look-alike of the leader as far behind it as
 *  1/W.lookalikeGap of its gap (the ranking itself keeps the evidence as it is). */
function probabilityEvidence(e: Evidence, ranked: readonly { projectId: string; evidence: number }[]): number[] {
  const leader = ranked[0];
  if (!leader) return [];
  const siblings = new Set(e.orgs.flatMap((o) => o.lookalikeGroups.filter((g) => g.includes(leader.projectId)).flat()));
  return ranked.map((r) =>
    r !== leader && siblings.has(r.projectId)
      ? leader.evidence - (leader.evidence - r.evidence) / W.lookalikeGap
      : r.evidence,
  );
}

/** What a look-alike group's shared word adds to a project's name evidence: it tells the project from nothing. */
function sharedNameExcess(clues: { projectId: string; weight: number; shared?: boolean }[], projectId: string) {
  const own = clues.filter((c) => c.projectId === projectId);
  const strongest = (shared: boolean) =>
    Math.max(0, ...own.filter((c) => (c.shared ?? false) === shared).map((c) => c.weight));
  return Math.max(0, strongest(true) - strongest(false));
}

/**
 * Per project whose identifiers (job number, a reference set on it) the e-mail writes fewer times than another
 * project's, those identifiers as written (identifierKey): a mention beside the topic. An hour sheet books five days to
 * one job and half a day to another ("vr 4u VRB-25-105 + 4u VRB-25-104"); a list of several jobs names each once.
 */
function lessWrittenIdentifiers(clues: ({ projectId: string; where: Where } & ClueDetail)[]): Map<string, Set<string>> {
  const written = new Map<string, { times: number; keys: Set<string> }>();
  for (const { projectId, where, identifier } of clues) {
    if (!identifier || !writtenParts.has(where)) continue;
    const current = written.get(projectId) ?? { times: 0, keys: new Set<string>() };
    current.times += identifier.times;
    current.keys.add(identifierKey(identifier.written));
    written.set(projectId, current);
  }
  const most = Math.max(0, ...[...written.values()].map((w) => w.times));
  return new Map([...written].filter(([, w]) => w.times < most).map(([id, w]) => [id, w.keys]));
}

/** What the writer wrote: not the quotes, signatures or banners. */
const writtenParts = new Set<Where>(['subject', 'body', 'attachment']);

/**
 * A leader sure only by words (and shared numbers) that one or two of its filed e-mails hold (an alarm like one filed
 * once, a standard's clause two notices cited, a client's words in one earlier complaint) is likely, not sure: those
 * may all be the same e-mail, so counted together as one clue (W.fewFiled.cap) what is left must still make it sure
 * (LIKELY_SCORE), or its score stays just below (W.fewFiled.hold). Only the preselection changes: the order does not,
 * and a score at AI_ASK_BELOW or above stays there, so no more mail goes to the AI.
 */
function narrowLeaderScore(score: number, broadScore: number): number {
  return broadScore >= LIKELY_SCORE ? score : Math.min(score, Math.max(broadScore, W.fewFiled.hold));
}

/**
 * Look-alike projects (a word of their names that only they share: two stages of one subdivision) share a client, its
 * council, consultants and site: what filed mail and participants say of one says a little of the others, so a
 * project's look-alike is lifted to a share of that evidence (W.lookalikeShare) and offered beside it. A floor, not a
 * sum: a look-alike never passes the project whose evidence lifts it, and names (what tells them apart) lift nothing.
 */
function liftLookalikes(e: Evidence, byId: Entries, ranked: ReturnType<typeof rankedOf>[], kindScale: number) {
  const learnedOf = (entry: Entry) =>
    kindScale *
    ((entry.content.get('filed-content')?.weight ?? 0) +
      entry.other.filter((c) => c.kind === 'history').reduce((sum, c) => sum + c.weight, 0));
  const learned = new Map([...byId.values()].map((entry) => [entry.project.id, learnedOf(entry)]));
  const floors = new Map<string, { evidence: number; of: string }>();
  for (const org of e.orgs)
    for (const group of org.names.lookalikes.values())
      for (const { projectId } of group)
        for (const sibling of group) {
          const evidence = W.lookalikeShare * (learned.get(sibling.projectId) ?? 0);
          if (sibling.projectId !== projectId && evidence > (floors.get(projectId)?.evidence ?? 0))
            floors.set(projectId, { evidence, of: org.byId.get(sibling.projectId)!.name });
        }
  for (const [projectId, floor] of floors) {
    let r = ranked.find((x) => x.projectId === projectId);
    if (r && r.evidence >= floor.evidence) continue;
    if (!r) {
      const entry = byId.get(projectId);
      if (!entry) continue;
      r = rankedOf(entry, kindScale);
      ranked.push(r);
    }
    r.evidence = floor.evidence;
    r.reasons = [...r.reasons, `A look-alike of ${floor.of}, where this e-mail's words and people point`].slice(0, 6);
  }
}

/**
 * The projects the main part of a new e-mail's text names clearly, when it has asides: its first paragraph that names
 * a project clearly, if a later, shorter paragraph names another one. Empty when the text is one part.
 */
function mainPartNamed(e: Evidence): Set<string> {
  const text = e.content.sections.find((s) => s.where === 'body')?.text ?? '';
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const named = paragraphs.map((p) => new Set(clearlyNamedIn(e, p).keys()));
  const lead = named.findIndex((ids) => ids.size > 0);
  if (lead < 0) return new Set();
  const aside = paragraphs.some(
    (p, i) => i > lead && p.length < paragraphs[lead]!.length && [...named[i]!].some((id) => !named[lead]!.has(id)),
  );
  return aside ? named[lead]! : new Set();
}

/**
 * A reply (its subject repeats an earlier one, "RE:", or it quotes earlier mail), a forward (it passes an earlier
 * message on, and its subject with it) or a new e-mail, whose subject its writer chose.
 */
function mailShape(content: EmailContent): 'new' | 'reply' | 'forward' {
  const subject = content.sections.find((s) => s.where === 'subject')?.text ?? '';
  if (/^\s*(fw|fwd|rv|wg|tr)\s*:/i.test(subject)) return 'forward';
  if (/^\s*(re|aw|sv|vs)\s*:/i.test(subject) || content.sections.some((s) => s.where === 'quoted')) return 'reply';
  return 'new';
}

/**
 * The project a reply's new text describes without naming it, when that is not its old topic: per project, what the
 * reply's own lines and attachment names say for it (a name or field found there, and what filed mail taught of its
 * words and identifiers), never the quoted part or the subject a reply repeats. Enough is at least what names a
 * project (W.namesProject: one distinctive word of filed mail) and at least what the same lines say for the old
 * topic: a reply on topic repeats its thread's own words, so there the thread's project keeps the lead. A new
 * e-mail in a known conversation (its subject neither "RE:" nor "FW:") wrote its subject anew: that is new text too.
 */
function describedElsewhere(
  e: Evidence,
  support: Map<string, number>,
  oldTopic: Set<string>,
  named: boolean,
): string | undefined {
  if (named || oldTopic.size === 0) return undefined;
  const topic = Math.max(0, ...[...oldTopic].map((id) => support.get(id) ?? 0));
  const [best, weight] = strongestOutside(e, support, oldTopic);
  return best && weight >= Math.max(W.namesProject, topic) ? best : undefined;
}

/** Where a reply's own new text stands; a new e-mail in a known conversation wrote its subject anew. Where a clue
 *  stands (Where) and where a learned feature stands (its part) share these names. */
const newTextParts = (shape: ReturnType<typeof mailShape>) =>
  new Set<string>(shape === 'new' ? ['body', 'attachment', 'subject'] : ['body', 'attachment']);

/** Per project, what the new text alone says for it: its strongest name or field clue there, and what filed mail
 *  taught of its words and identifiers there. */
function newTextSupport(
  e: Evidence,
  clues: { projectId: string; weight: number; where: Where }[],
  learned: LearnedWeight[],
  newText: Set<string>,
): Map<string, number> {
  const strongestClue = new Map<string, number>();
  for (const c of clues)
    if (newText.has(c.where)) strongestClue.set(c.projectId, Math.max(c.weight, strongestClue.get(c.projectId) ?? 0));
  return supportOf(
    e,
    strongestClue,
    learned.filter((l) => newText.has(l.part)),
  );
}

/** Per project, what some clues (their weights) and learned features say together, a stranger's learned words as in
 *  the full ranking. */
function supportOf(e: Evidence, clues: Map<string, number>, learned: LearnedWeight[]): Map<string, number> {
  const support = new Map(clues);
  for (const l of learned)
    support.set(l.projectId, (support.get(l.projectId) ?? 0) + l.weight * strangerScale(e, l.part));
  return support;
}

/** What a never-seen sender's words count for (W.stranger): what is written, not who writes or to whom. */
const strangerScale = (e: Evidence, part: AskedFeature['part']) =>
  e.stranger && (part === 'subject' || part === 'body' || part === 'attachment') ? W.stranger : 1;

/** The project, not among `excluded`, that `support` says most for, and how much. */
function strongestOutside(
  e: Evidence,
  support: Map<string, number>,
  excluded: Set<string>,
): [string | undefined, number] {
  const [top] = [...support].filter(([id, w]) => !excluded.has(id) && w > 0).sort(strongestFirst(e));
  return top ?? [undefined, 0];
}

/** Projects by weight, strongest first; equal ones by name, as the ranking breaks ties. Never by id alone: ids are
 *  random per organization, so the same mail filed in another order (another organization) could go the other way. */
const strongestFirst =
  (e: Evidence) =>
  ([a, wa]: [string, number], [b, wb]: [string, number]) =>
    wb - wa || projectNameOf(e, a).localeCompare(projectNameOf(e, b)) || a.localeCompare(b);

const projectNameOf = (e: Evidence, projectId: string) =>
  e.orgs.find((o) => o.byId.has(projectId))?.byId.get(projectId)?.name ?? '';

/** A reply whose new text says more for another project than for its old topic (the thread, the subject's
 *  reference, the quote), and enough to dispute it (W.dissents): that project. Weaker than describedElsewhere, which
 *  takes the thread's weight away; this only keeps the old topic from being sure. */
function replyDissent(e: Evidence, support: Map<string, number>, oldTopic: Set<string>): string | undefined {
  if (oldTopic.size === 0) return undefined;
  const topic = Math.max(0, ...[...oldTopic].map((id) => support.get(id) ?? 0));
  const [best, weight] = strongestOutside(e, support, oldTopic);
  return best && weight > topic && weight >= W.dissents ? best : undefined;
}

/**
 * A new e-mail that names a project clearly only in an aside: sentences after its first, together under a third of
 * its text ("… open the cinema room and the pool deck. We may do the Corniche ballroom in June too."). When the rest
 * of its text, read alone, says more for another project (W.dissents at least), that project disputes the named one.
 * Position and share, not cue words: what most of the text is about is its topic.
 */
function asideDissent(e: Evidence, learned: LearnedWeight[]): string | undefined {
  const text = e.content.sections.find((s) => s.where === 'body')?.text ?? '';
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const namedIn = sentences.map((p) => clearlyNamedIn(e, p));
  // The project the body names most clearly is the one that would lead.
  const [named] = namedIn
    .flatMap((ids) => [...ids])
    .sort(strongestFirst(e))
    .map(([id]) => id);
  if (!named || namedIn[0]!.has(named)) return undefined;
  const inAside = (i: number) => namedIn[i]!.has(named);
  const length = (ps: string[]) => ps.reduce((n, p) => n + p.length, 0);
  if (length(sentences.filter((_, i) => inAside(i))) * 3 >= length(sentences)) return undefined;
  const support = restSupport(e, learned, sentences.filter((_, i) => !inAside(i)).join(' '));
  const [best, weight] = strongestOutside(e, support, new Set([named]));
  return best && weight >= W.dissents && weight > (support.get(named) ?? 0) ? best : undefined;
}

/** Per project, how strongly a piece of the body names it. */
function namesIn(e: Evidence, text: string): Map<string, number> {
  const ids = new Map<string, number>();
  scoreNames({ ...e, content: { ...e.content, sections: [{ where: 'body', text, jobNumbers: [] }] } }, (id, _k, w) =>
    ids.set(id, Math.max(w, ids.get(id) ?? 0)),
  );
  return ids;
}

/** The projects a piece of the body names clearly, with how clearly. */
const clearlyNamedIn = (e: Evidence, text: string) =>
  new Map([...namesIn(e, text)].filter(([, weight]) => weight >= W.namesClearly));

/** What a part of the body says for each project: the names it writes, and the learned body words it holds. */
function restSupport(e: Evidence, learned: LearnedWeight[], text: string): Map<string, number> {
  const words = new Set(wordsOf(text));
  return supportOf(
    e,
    namesIn(e, text),
    learned.filter((l) => l.part === 'body' && wordsOf(l.text).every((w) => words.has(w))),
  );
}

/** Adds the learned weights per project, scaled by where each stands; the strongest one is the reason. */
function scoreLearned(
  learned: LearnedWeight[],
  add: AddContent,
  scale: (part: AskedFeature['part'], projectId: string, text: string) => number,
): Map<string, number> {
  const perProject = new Map<string, { weight: number; few: number; best: number; text: string }>();
  for (const l of learned) {
    const weight = l.weight * scale(l.part, l.projectId, l.text);
    const current = perProject.get(l.projectId) ?? { weight: 0, few: 0, best: 0, text: '' };
    current.weight += weight;
    if (l.emails <= W.fewFiled.emails && !l.exact) current.few += weight;
    if (weight > current.best) {
      current.best = weight;
      current.text = `${partText[l.part]} “${l.text}”, as ${plural(l.emails, 'e-mail')} filed here`;
    }
    perProject.set(l.projectId, current);
  }
  for (const [projectId, p] of perProject) add(projectId, 'filed-content', p.weight, p.text, p.best);
  return new Map([...perProject].map(([projectId, p]) => [projectId, Math.max(0, p.few - W.fewFiled.cap)]));
}

/** What one feature of the e-mail says for one project, before where it stands in this e-mail's shape scales it. */
interface LearnedWeight {
  projectId: string;
  part: AskedFeature['part'];
  text: string;
  emails: number;
  weight: number;
  /** An identifier of one project's filed mail (a permit, a PO): exact, however few e-mails hold it. */
  exact: boolean;
}

/**
 * What filed mail says of the e-mail's words and identifiers: a feature counts for a project by the share of its
 * filed e-mails there, times how concentrated it is (1 − its entropy over the projects holding it, relative to
 * the organization's project count: a word of every project says nothing), times its support (a feature seen
 * once may be chance), times where it stands in the e-mail. The words and numbers of a site address the e-mail
 * names (`addressFeatures`) are the address clue's, and do not count here.
 */
function learnedWeights(e: Evidence, byId: Entries, addressFeatures: Set<string>): LearnedWeight[] {
  const byFeature = new Map<string, Evidence['learned']>();
  for (const row of e.learned) byFeature.set(row.feature, [...(byFeature.get(row.feature) ?? []), row]);
  const projectCount = Math.max(2, byId.projectCount);
  const out: LearnedWeight[] = [];
  // A word of several projects' names ("Westgate", "Queensway" of two phases) is theirs to tell apart by the names'
  // other words (scoreNames): how often each was filed with it says only which is filed more.
  const sharedNameWord = (text: string) => wordsOf(text).some((w) => e.orgs.some((o) => o.names.lookalikes.has(w)));
  for (const [feature, rows] of byFeature) {
    const asked = e.asked.get(feature);
    const known = rows.filter((r) => byId.has(r.projectId));
    if (!asked || known.length === 0 || addressFeatures.has(feature)) continue;
    if (feature.startsWith('w:') && sharedNameWord(asked.text)) continue;
    const total = Math.max(rows[0]!.total, 1);
    const shares = known.map((r) => r.emails / total);
    const entropy = -shares.reduce((sum, s) => sum + (s > 0 ? s * Math.log(s) : 0), 0);
    const split = byRateWithinLookalikes(e, known, shares);
    const concentration = Math.max(0, 1 - entropy / Math.log(projectCount));
    // An identifier is one project's (its PO, permit, drawing): a number the organization filed with several projects
    // is a standard, a catalogue or a clause every job cites ("NS 8407"), and says no more than a word.
    const identifier = feature.startsWith('n:') && rows.length === 1;
    // A number written alone may be a size, a quantity or a year: it recurs by chance as a word does, so it needs the
    // support of a word; an identifier with letters or separators ("BP26-0113") needs less. A number of seven digits or
    // more (a contract sum, a long reference) is not met by chance: once is support enough.
    const support = isLongNumber(feature)
      ? 1
      : total / (total + (identifier && !isPlainNumber(asked) ? W.identifierSupport : W.wordSupport));
    const base = (identifier ? W.learnedIdentifier : W.learnedWord) * asked.weight * concentration * support;
    out.push(
      ...known.map((r, i) => ({
        projectId: r.projectId,
        part: asked.part,
        text: asked.text,
        emails: r.emails,
        weight: base * split[i]!,
        exact: identifier && !isPlainNumber(asked),
      })),
    );
  }
  return out;
}

/** The words and numbers of the site addresses the e-mail names ("adma", "190" of "Rua Dona Adma Jafet, 190"), as
 *  features: the address clue counts them. Learned from filed mail they would count again, for whichever project
 *  filed them more, and two phases on one site share the address. */
function namedAddressFeatures(clues: readonly ClueDetail[]): Set<string> {
  return new Set(clues.flatMap((c) => (c.siteAddress ? [...textFeatures(c.siteAddress).keys()] : [])));
}

/**
 * A feature's (a word's, an identifier's, a participant's) shares of look-alikes' mail, split between them by the rate
 * at which each one's filed mail holds it rather than by its count: two phases of one site share a client, its
 * consultants and the site's words, and counted, the phase that has filed more wins them all (a sender in 3 of the 15
 * e-mails of phase 1 and in 3 of the 6 of phase 2 says phase 2 as much as phase 1). Together they keep what the counts
 * gave them against every other project; between them, the feature says which it is only as far as it is more
 * typical of one. A feature only one of them holds keeps its share: what tells them apart.
 */
function byRateWithinLookalikes(e: Evidence, held: { projectId: string; emails: number }[], shares: number[]) {
  const split = [...shares];
  for (const org of e.orgs)
    for (const group of org.lookalikeGroups) {
      const members = held.flatMap((h, i) =>
        group.includes(h.projectId) && (e.filed.get(h.projectId) ?? 0) > 0 ? [i] : [],
      );
      if (members.length < 2) continue;
      const pooled = members.reduce((sum, i) => sum + shares[i]!, 0);
      const rates = members.map((i) => held[i]!.emails / e.filed.get(held[i]!.projectId)!);
      const rateSum = rates.reduce((sum, r) => sum + r, 0);
      members.forEach((i, k) => {
        split[i] = (pooled * rates[k]!) / rateSum;
      });
    }
  return split;
}

const isLongNumber = (feature: string) => /^n:\d{7,}$/.test(feature);
/** A number as written, with no letters or separators that would make it an identifier: three digits at most anywhere
 *  (900 values: sizes, quantities meet by chance), four in running text ("the 250 kVA generator", "2026"). Four digits
 *  in a subject stay identifiers: POs, street numbers, job numbers. */
const isPlainNumber = (asked: AskedFeature) =>
  /^\d{1,3}$/.test(asked.text) ||
  ((asked.part === 'body' || asked.part === 'passing' || asked.part === 'quoted') && /^\d{4}$/.test(asked.text));

const partText: Record<AskedFeature['part'], string> = {
  subject: 'Its subject has',
  attachment: 'An attachment name has',
  body: 'Its message has',
  passing: 'A comparison in its message has',
  quoted: 'The quoted message has',
  from: 'It comes from',
  recipient: 'It is sent to',
};

type AddContent = (projectId: string, kind: ClueKind, weight: number, text: string, single?: number) => void;
/** A content clue of the e-mail itself, with where it stands and, for a name, the name words written. */
type AddClue = (
  projectId: string,
  kind: ClueKind,
  weight: number,
  text: string,
  where: Where,
  detail?: ClueDetail,
) => void;
interface ClueDetail {
  /** A name's words as written. */
  words?: string;
  /** A look-alike group's shared word: it names every member alike. */
  shared?: boolean;
  /** An identifier of the project (its job number, a reference set on it) as written, and how many times. */
  identifier?: { written: string; times: number };
  /** The project's site address, as set on it, that the text names. */
  siteAddress?: string;
}

const whereText: Record<Where, string> = {
  subject: 'Subject',
  attachment: 'An attachment name',
  body: 'Message',
  passing: 'A comparison in the message',
  quotedSubject: 'Quoted subject',
  quoted: 'Quoted message',
  signature: 'Signature',
  banner: 'A banner or disclaimer',
};

/** The clues of the e-mail's own words: job numbers, project names, fields set on the projects. */
function scoreContentClues(e: Evidence, add: AddClue) {
  scoreJobNumbers(e, add);
  scoreNames(e, add);
  scoreProjectFields(e, add);
}

function scoreJobNumbers(e: Evidence, add: AddClue) {
  for (const section of e.content.sections) {
    for (const n of section.jobNumbers) {
      const codes = e.orgs.flatMap((o) => o.codes.get(codeBase(n.value)) ?? []);
      // The code as the organization writes it, letters and all, is labelled wherever it stands.
      const spelled = codes.filter((c) => spellsCode(n, e.orgs.find((o) => o.byId.has(c.id))!.byId.get(c.id)!.code));
      if (n.prefix !== undefined && spelled.length === 0) continue;
      const labelled = n.labelled || spelled.length > 0;
      if (!labelled && !W.bareNumberPlaces.has(section.where)) continue;
      const exact = codes.filter((c) => matchesCode(n.value, c.code) === 'exact');
      const matched =
        spelled.length > 0
          ? spelled
          : exact.length > 0
            ? exact
            : codes.filter((c) => matchesCode(n.value, c.code) === 'base');
      const base = labelled ? W.jobNumberLabelled : W.jobNumberBare;
      for (const c of matched) {
        add(
          c.id,
          'job-number',
          (base * W.where[section.where]) / matched.length,
          `${whereText[section.where]} names job ${n.value}`,
          section.where,
          { identifier: { written: n.value, times: 1 } },
        );
      }
    }
  }
}

const isPartial = (strength: NameStrength) => strength !== 'name' && strength !== 'alias';

/** How strongly a name match names its project. An alias made only of words of the project's name ("Gelang Patah" of
 *  "Gelang Patah Cold Chain Hub") is a phrase of that name, often its place or client: a stranger may write it for the
 *  place itself (a recruiter's "hyperscale projects in Johor (Sedenak, Gelang Patah)"), so from a stranger it counts
 *  as the phrase it is. */
function strengthOf(e: Evidence, m: NameMatch): NameStrength {
  if (!e.stranger || m.strength !== 'alias') return m.strength;
  const words = new Set(wordsOf(projectNameOf(e, m.projectId)));
  return wordsOf(m.words).every((w) => words.has(w)) ? 'phrase' : m.strength;
}

/**
 * One word of a name that the organization's own filed mail uses mostly for other projects ("well" of CareWell, "floor"
 * of Guestroom Floors, "business" of Yas Business Park beside a tower in Business Bay) is an everyday word there: it
 * names the project no more than a kind of building does. Judged on the counts the suggestion reads anyway (the
 * e-mail's own features: no look-up); a word no filed mail has keeps its strength. Tried and dropped: the converse
 * (a short or everyday name word filed almost only with one project names it): Afrikaans "die" of "Die Wingerd".
 */
function weighedByFiledMail(e: Evidence, m: NameMatch): NameMatch {
  if (m.strength !== 'word') return m;
  const [feature] = textFeatures(m.words).keys();
  const rows = feature?.startsWith('w:') ? e.learned.filter((r) => r.feature === feature) : [];
  const total = rows[0]?.total ?? 0;
  const own = rows.find((r) => r.projectId === m.projectId)?.emails ?? 0;
  return total >= W.everydayNameWord.filed && own < W.everydayNameWord.share * total
    ? { ...m, strength: 'generic-phrase' }
    : m;
}

function scoreNames(e: Evidence, add: AddClue) {
  const sections = e.content.sections;
  const named = (where: Where, found: NameMatch) => {
    const m = weighedByFiledMail(e, found);
    const strength = strengthOf(e, m);
    add(
      m.projectId,
      'project-name',
      W.name[strength] * W.where[where] * (e.stranger && isPartial(strength) ? W.stranger : 1),
      `${whereText[where]} names “${m.words}”`,
      where,
      { words: m.words },
    );
  };
  for (const section of sections)
    for (const m of e.orgs.flatMap((o) => nameMatchesIn(section.text, o.names))) named(section.where, m);
  // Signatures and banners neither name a group of look-alikes nor tell them apart.
  const told = sections.filter((s) => s.where !== 'signature' && s.where !== 'banner');
  // A reply in a thread filed in a look-alike is about that group though its new text may not write the shared word:
  // "the tower's permanent power" in a thread of the hospital's plant tells the tower from the plant.
  const newText = new Set(told.flatMap((s, i) => (s.where === 'body' || s.where === 'attachment' ? [i] : [])));
  for (const org of e.orgs) {
    const threadGroups = [...org.names.lookalikes]
      .filter(([, group]) => group.some((g) => e.thread.some((t) => t.projectId === g.projectId)))
      .map(([word]) => word);
    const toldApart = lookalikeMatchesIn(
      told.map((s) => s.text),
      org.names,
      { words: new Set(threadGroups), texts: newText },
    );
    for (const { text, match } of toldApart) named(told[text]!.where, match);
    // A group's shared word with nothing that tells its members apart ("Nu Hoboken: voor de oude vleugel …") still
    // says the e-mail is about one of them: each gets a little, so the group is offered however its words fit.
    told.forEach((section, i) => {
      const namedHere = new Set([
        ...nameMatchesIn(section.text, org.names).map((m) => m.projectId),
        ...toldApart.filter((m) => m.text === i).map((m) => m.match.projectId),
      ]);
      for (const word of lookalikeWordsIn(section.text, org.names)) {
        const group = org.names.lookalikes.get(word)!;
        if (group.some((g) => namedHere.has(g.projectId))) continue;
        for (const { projectId } of group)
          add(
            projectId,
            'project-name',
            W.groupWord * W.where[section.where] * (e.stranger ? W.stranger : 1),
            `${whereText[section.where]} names “${word}”, which look-alikes share`,
            section.where,
            { words: word, shared: true },
          );
      }
    });
  }
}

/** Reference numbers (read as the model reads identifiers, and by their segments wherever they stand: a run of them
 *  counts by the share of the number it spells) and site addresses set on the projects. */
function scoreProjectFields(e: Evidence, add: AddClue) {
  for (const org of e.orgs) {
    for (const [feature, asked] of e.asked) {
      const holders = org.fields.references.get(feature) ?? [];
      for (const h of holders)
        add(
          h.projectId,
          'project-field',
          (W.referenceNumber * asked.weight * (h.whole ? 1 : W.referenceDigitsOnly)) / holders.length,
          `${partText[asked.part]} “${asked.text}”: ${h.text} of this project`,
          asked.part === 'body' || asked.part === 'subject' ? asked.part : 'quoted',
        );
    }
    for (const section of e.content.sections) {
      for (const m of referenceMatchesIn(section.text, org.fields))
        add(
          m.projectId,
          'project-field',
          W.referenceNumber * m.share * W.where[section.where],
          `${whereText[section.where]} has “${m.written}”: ${m.reference} of this project`,
          section.where,
          { identifier: { written: m.written, times: m.times } },
        );
      const matches = addressMatchesIn(section.text, org.fields);
      for (const m of matches)
        add(
          m.projectId,
          'project-field',
          (W.siteAddress * W.where[section.where]) / matches.length,
          `${whereText[section.where]} names the site, ${m.address}`,
          section.where,
          { siteAddress: m.address },
        );
    }
  }
}

/** Participants' filing history, capped per project; returns the projects that have any. */
function scoreHistory(e: Evidence, add: (projectId: string, kind: ClueKind, weight: number, text: string) => void) {
  const byTerm = new Map<string, Evidence['history']>();
  for (const h of e.history) byTerm.set(h.term, [...(byTerm.get(h.term) ?? []), h]);
  const parts = new Map<string, { weight: number; text: string }[]>();
  for (const [term, held] of byTerm) {
    const total = held.reduce((sum, h) => sum + h.weight, 0);
    const confidence = Math.min(1, held.reduce((sum, h) => sum + h.filings, 0) / 3);
    // Its share of each project's mail; between look-alikes, by the rate of their own mail (byRateWithinLookalikes).
    const shares = byRateWithinLookalikes(
      e,
      held.map((h) => ({ projectId: h.projectId, emails: h.weight })),
      held.map((h) => (total > 0 ? h.weight / total : 0)),
    );
    const addressRole = e.roleOf.get(term);
    const role = addressRole ?? e.domainRole.get(term) ?? 'body';
    const weight = addressRole
      ? { from: W.fromAddress, other: W.otherAddress, body: W.bodyAddress }[role]
      : { from: W.fromDomain, other: W.otherDomain, body: W.bodyDomain }[role];
    held.forEach((h, i) => {
      const text = addressRole
        ? `${term} appears in ${plural(h.filings, 'e-mail')} filed here`
        : `${plural(h.filings, 'e-mail')} from ${term} filed here`;
      parts.set(h.projectId, [...(parts.get(h.projectId) ?? []), { weight: weight * shares[i]! * confidence, text }]);
    });
  }
  for (const [projectId, list] of parts) {
    const sum = list.reduce((s, p) => s + p.weight, 0);
    const scale = sum > W.historyCap ? W.historyCap / sum : 1;
    for (const p of list) add(projectId, 'history', p.weight * scale, p.text);
  }
  return new Set(parts.keys());
}

/**
 * A number such as RFI-012 exists in many projects: the fewer hold it, the more it says. Among the holders,
 * those where the participants' mail is already filed are the ones meant: the weight is split among them.
 */
function scoreDocuments(e: Evidence, known: Set<string>, add: AddContent, byId: Entries) {
  const byNumber = new Map<string, Evidence['documents']>();
  for (const d of e.documents)
    byNumber.set(d.number.toUpperCase(), [...(byNumber.get(d.number.toUpperCase()) ?? []), d]);
  for (const matches of byNumber.values()) {
    const holders = matches.filter((d) => known.has(d.projectId));
    const among = holders.length > 0 ? holders : matches;
    for (const d of matches) {
      const weight = among.includes(d) ? W.document / among.length : W.document / matches.length / 2;
      add(d.projectId, 'document-number', weight, `Mentions ${d.number} of this project`);
      byId.get(d.projectId)?.documents.push({ id: d.id, number: d.number });
    }
  }
}

/**
 * Clues that identify one project exactly (its job number, a reference number or site set on it, a document of it)
 * keep their weight in automated mail: a document portal's "[C2411] Contract instruction awaiting acknowledgement"
 * is that project's mail, while a newsletter's words stay discounted (W.automatedMail).
 */
const exactIdentifiers = new Set<ClueKind>(['job-number', 'project-field', 'document-number']);

function rankedOf(
  entry: Entry,
  scale: number,
): Omit<RankedProject, 'topicInDoubt'> & { contentWeight: number; strongestContent: number; summed: number } {
  const contentClues = [...entry.content]
    .map(([kind, c]) => ({ kind, ...c }))
    .sort((a, b) => b.weight - a.weight || a.kind.localeCompare(b.kind));
  const contentWeight = contentClues.reduce((s, c) => s + c.weight, 0);
  const clues = [...contentClues, ...entry.other].sort((a, b) => b.weight - a.weight || a.text.localeCompare(b.text));
  const scaled = (c: { kind: ClueKind; weight: number }) =>
    exactIdentifiers.has(c.kind) ? c.weight : scale * c.weight;
  const evidence = clues.reduce((s, c) => s + scaled(c), 0);
  // What decided the rank: the strongest clue of all.
  const decisive = clues[0];
  const document = entry.documents.find((d) => d.number) ?? entry.documents[0];
  const p = entry.project;
  return {
    organizationId: p.organizationId,
    projectId: p.id,
    projectName: p.name,
    projectCode: p.code,
    ...(document ? { documentId: document.id, ...(document.number ? { documentNumber: document.number } : {}) } : {}),
    score: 0,
    decidedBy: decisive?.kind ?? 'history',
    evidence,
    // What the clues add up to, before the thread's and the dissent's caps on `evidence`.
    summed: evidence,
    contentWeight,
    strongestContent: Math.max(0, ...contentClues.map((c) => scaled({ kind: c.kind, weight: c.single }))),
    reasons: clues.map((c) => c.text).slice(0, 6),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
