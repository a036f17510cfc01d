// A project's documents and everything hanging off each one: consultants, assignees, approvers,
// distribution, review runs, comments, workflow history and the dispatches they caused.
import * as s from '../db/schema.js';
import { documentContent } from './document-content.js';
import { type Consultant, DAY, dateOnly, HOUR, MINUTE, type Person } from './model.js';
import { type ProjectContext, RESERVE_AFTER_DOCUMENTS } from './project-context.js';
import * as v from './vocabulary.js';
import {
  closedStatuses,
  type Format,
  formatWeights,
  numberPrefix,
  openStatuses,
  reviewStatusFor,
  type Status,
  statusWeights,
  terminalStatuses,
  typesByFormat,
  workflowPath,
} from './workflow.js';

/** What one document looks like before its rows are written. */
interface DocumentDraft {
  id: string;
  number: string;
  format: Format;
  type: string;
  status: Status;
  createdAt: Date;
  author: Person;
  path: Status[];
  /** When each step of `path` happened (epoch ms). */
  stepTimes: number[];
  title: string;
  /** Everything searchable beyond number and title. */
  searchParts: string[];
}

/** What is drawn for a document before its content. */
type DocumentPlan = { format: Format; status: Status; createdAt: Date; type: string; number: string };

/** Format, status and creation time are drawn first, then documents are numbered in creation order. */
export function addDocuments(ctx: ProjectContext): void {
  const { rng, nowMs } = ctx;
  const plans = Array.from({ length: ctx.shape.documentsPerProject }, () => {
    const format = rng.weighted(formatWeights);
    const status = rng.weighted(statusWeights[format] as Record<Status, number>);
    // Open items are recent (so some are overdue, not all); finished ones span the project's life.
    const ageDays = openStatuses.has(status) || status === 'draft' ? rng.int(1, 75) : rng.int(5, 540);
    return { format, status, createdAt: new Date(nowMs - ageDays * DAY - rng.int(0, DAY - 1)) };
  }).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const counters = new Map<string, number>();
  for (const plan of plans) {
    const type = rng.weighted(typesByFormat[plan.format]);
    const n = (counters.get(type) ?? 0) + 1;
    counters.set(type, n);
    ctx.docs.push(addDocument(ctx, { ...plan, type, number: `${numberPrefix[type]}-${String(n).padStart(3, '0')}` }));
  }
}

/** The document's author, workflow step times and content, before any of its rows. */
function draftDocument(
  ctx: ProjectContext,
  plan: DocumentPlan,
): { doc: DocumentDraft; content: ReturnType<typeof documentContent> } {
  const { rng, nowMs } = ctx;
  const createdMs = plan.createdAt.getTime();
  const path = workflowPath[plan.status];
  // Transition times spread over (part of) the time since creation.
  const span = Math.max(HOUR, Math.min(nowMs - createdMs - HOUR, rng.int(3, 60) * DAY));
  const stepTimes = path.map((_, i) =>
    Math.min(
      i === 0 ? createdMs : createdMs + Math.floor((span * (i + rng.float() * 0.5)) / path.length),
      nowMs - MINUTE,
    ),
  );
  const content = documentContent(rng, plan.format, plan.status, plan.createdAt, ctx.project.name);
  const doc: DocumentDraft = {
    ...plan,
    id: rng.id('doc'),
    author: rng.pick(ctx.team),
    path,
    stepTimes,
    title: content.title,
    searchParts: [...content.searchParts],
  };
  return { doc, content };
}

function addDocument(ctx: ProjectContext, plan: DocumentPlan) {
  const { rng } = ctx;
  const { doc, content } = draftDocument(ctx, plan);
  const { path, stepTimes } = doc;
  const createdMs = plan.createdAt.getTime();

  const { consultants, respondedAtMs } = addDocumentConsultants(ctx, doc);
  const assignees = addDocumentPeople(ctx, doc);
  const distribution = addDistribution(ctx, doc);
  if (doc.format === 'submittal' && doc.status !== 'draft' && rng.chance(0.45)) addReviewRuns(ctx, doc);
  const commentTimes = addComments(ctx, doc);
  addHistory(ctx, doc);

  const issuedIndex = path.findIndex((step) => step === 'submitted' || step === 'issued');
  const issuedAt = issuedIndex > 0 ? new Date(stepTimes[issuedIndex]!) : null;
  addDocumentDispatches(ctx, doc, { issuedAt, respondedAtMs, consultants, assignees, distribution });

  const lastStepMs = stepTimes[stepTimes.length - 1]!;
  const open = !terminalStatuses.has(doc.status);
  const priority = rng.weighted({ low: 2, normal: 5, high: 2, urgent: 1, none: 1 });
  doc.searchParts.push(content.description);
  ctx.rows.add(s.documents, {
    id: doc.id,
    organizationId: ctx.organizationId,
    projectId: ctx.project.id,
    number: doc.number,
    format: doc.format,
    type: doc.type,
    title: doc.title,
    description: content.description,
    status: doc.status,
    priority: priority === 'none' ? null : priority,
    dueDate:
      doc.format === 'bulletin' || doc.format === 'certificate' || doc.status === 'draft'
        ? null
        : dateOnly(new Date(createdMs + rng.int(5, 35) * DAY)),
    issuedAt,
    createdAt: doc.createdAt,
    updatedAt: new Date(Math.max(lastStepMs, ...commentTimes, respondedAtMs ?? 0)),
    createdById: doc.author.id,
    details: content.details,
    referenceNumber: content.referenceNumber,
    divisionTitle: content.divisionTitle,
    reviewStatus: doc.format === 'submittal' ? reviewStatusFor(rng, doc.status) : null,
    receivedAt: doc.format === 'submittal' ? issuedAt : null,
    closedAt: closedStatuses.has(doc.status) ? new Date(lastStepMs) : null,
    ballInCourt:
      doc.format === 'submittal' && open && doc.status !== 'draft' ? ballInCourt(doc, consultants, assignees) : null,
    searchText: doc.searchParts.filter(Boolean).join(' '),
  });
  return { ...doc, distribution, consultants };
}

/** The dispatches a document caused: its issue to the distribution, and the consultants' response. */
function addDocumentDispatches(
  ctx: ProjectContext,
  doc: DocumentDraft,
  people: {
    issuedAt: Date | null;
    respondedAtMs: number | null;
    consultants: Person[];
    assignees: Person[];
    distribution: Person[];
  },
) {
  const { rng } = ctx;
  const { issuedAt, respondedAtMs, consultants, assignees, distribution } = people;
  if (issuedAt && rng.chance(ctx.shape.dispatchRate)) {
    ctx.addDispatch({
      actionType: 'IssueDocument',
      sender: doc.author,
      recipients: [...distribution, ...consultants],
      title: `${doc.number} ${doc.title} issued`,
      at: issuedAt,
      documentId: doc.id,
      reserve: RESERVE_AFTER_DOCUMENTS,
    });
  }
  if (respondedAtMs && rng.chance(ctx.shape.dispatchRate)) {
    const responder = consultants[0]!;
    ctx.addDispatch({
      actionType: doc.format === 'rfi' ? 'ResponderResponse' : 'ReviewerResponse',
      sender: responder,
      recipients: assignees.length ? assignees : [doc.author],
      title: `${responder.company} responded to ${doc.number}`,
      at: new Date(respondedAtMs),
      documentId: doc.id,
      reserve: RESERVE_AFTER_DOCUMENTS,
    });
  }
}

/** Consultants review submittals and answer RFIs; they respond once the document was with them. */
function addDocumentConsultants(ctx: ProjectContext, doc: DocumentDraft) {
  const { rng } = ctx;
  const consultants =
    doc.format === 'submittal' || doc.format === 'rfi' ? rng.sample(ctx.consultants, rng.int(1, 3)) : [];
  const sentToConsultants = doc.path.indexOf('with-consultants');
  const reviewed = sentToConsultants >= 0 && doc.status !== 'with-consultants';
  let respondedAtMs: number | null = null;
  for (const consultant of consultants) {
    const responded = reviewed || (doc.status === 'with-consultants' && rng.chance(0.3));
    const respondedAt = responded ? ctx.at(doc.stepTimes[sentToConsultants]! + rng.int(1, 96) * HOUR) : null;
    if (respondedAt) respondedAtMs = Math.max(respondedAtMs ?? 0, respondedAt.getTime());
    const response = responded ? rng.pick(v.consultantResponses) : null;
    ctx.rows.add(s.documentConsultants, {
      id: rng.id('con'),
      organizationId: ctx.organizationId,
      documentId: doc.id,
      type: consultant.type,
      company: consultant.company,
      responderName: consultant.name,
      responderEmail: consultant.email,
      status: responded ? 'responded' : sentToConsultants >= 0 ? 'pending' : 'not-sent',
      response,
      respondedAt,
    });
    doc.searchParts.push(consultant.name, consultant.email, response ?? '');
  }
  return { consultants, respondedAtMs };
}

/** Assignees (0–2) and, for formats that need sign-off, approvers. Returns the assignees. */
function addDocumentPeople(ctx: ProjectContext, doc: DocumentDraft): Person[] {
  const { rng } = ctx;
  const assignees = rng.sample(ctx.team, rng.pick([0, 1, 1, 1, 1, 1, 1, 2, 2, 2]));
  for (const person of assignees) {
    ctx.rows.add(s.documentAssignees, {
      organizationId: ctx.organizationId,
      documentId: doc.id,
      userId: person.id!,
      name: person.name,
    });
  }
  if (doc.format !== 'submittal' && doc.format !== 'change' && doc.format !== 'certificate') return assignees;
  const decided = closedStatuses.has(doc.status) || doc.status === 'locked' || doc.status === 'returned';
  const undecided = doc.status === 'draft' ? 'not-started' : 'pending';
  for (const person of rng.sample(ctx.team, rng.int(1, 2))) {
    ctx.rows.add(s.documentApprovers, {
      organizationId: ctx.organizationId,
      documentId: doc.id,
      userId: person.id!,
      name: person.name,
      email: person.email,
      status: decided ? (doc.status === 'returned' ? 'rejected' : 'approved') : undecided,
      respondedAt: decided ? new Date(doc.stepTimes[doc.stepTimes.length - 1]!) : null,
    });
  }
  return assignees;
}

function addDistribution(ctx: ProjectContext, doc: DocumentDraft): Person[] {
  const { rng } = ctx;
  const distribution = [...rng.sample(ctx.team, rng.int(1, 3)), ...rng.sample(ctx.consultants, rng.int(0, 2))];
  for (const person of distribution) {
    ctx.rows.add(s.documentDistribution, {
      organizationId: ctx.organizationId,
      documentId: doc.id,
      email: person.email,
      userId: person.id,
      name: person.name,
      company: person.company,
    });
  }
  return distribution;
}

/** One or two review runs; a second run soft-deletes the first run's findings as of its start. */
function addReviewRuns(ctx: ProjectContext, doc: DocumentDraft): void {
  const { rng } = ctx;
  const runCount = rng.chance(0.4) ? 2 : 1;
  let previous: string[] = [];
  for (let r = 0; r < runCount; r++) {
    const runId = rng.id('run');
    const startedAt = ctx.at(doc.stepTimes[1]! + (r * 3 + 1) * HOUR);
    ctx.rows.add(s.reviewRuns, {
      id: runId,
      organizationId: ctx.organizationId,
      documentId: doc.id,
      startedAt,
      completedAt: ctx.at(startedAt.getTime() + rng.int(1, 10) * MINUTE),
    });
    for (const findingId of previous) ctx.superseded.set(findingId, startedAt);
    previous = [];
    const templates = [
      ...v.findingTemplates.spec.map((t) => ({ ...t, source: 'spec' as const })),
      ...v.findingTemplates.quality.map((t) => ({ ...t, source: 'quality' as const })),
    ];
    for (const finding of rng.sample(templates, rng.int(1, 4))) {
      const findingId = rng.id('fnd');
      previous.push(findingId);
      ctx.findings.push({
        id: findingId,
        organizationId: ctx.organizationId,
        documentId: doc.id,
        reviewRunId: runId,
        source: finding.source,
        severity: finding.severity,
        title: finding.title,
        description: `${finding.title} in ${doc.title.toLowerCase()} (${doc.number}).`,
        suggestedComment: `Please address: ${finding.title.toLowerCase()}.`,
        specSectionId: finding.section,
        key: finding.key,
        confidence: Math.round((0.55 + rng.float() * 0.44) * 100) / 100,
        dismissed: rng.chance(0.15),
        createdAt: startedAt,
      });
    }
  }
}

/** Comments (0–3), some mentioning a teammate, a few soft-deleted. Returns their times. */
function addComments(ctx: ProjectContext, doc: DocumentDraft): number[] {
  const { rng } = ctx;
  const times: number[] = [];
  const hoursSinceCreated = Math.max(1, Math.floor((ctx.nowMs - doc.createdAt.getTime()) / HOUR));
  const count = rng.pick([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3]);
  for (let c = 0; c < count; c++) {
    const author = rng.pick(ctx.team);
    const createdAt = ctx.at(doc.createdAt.getTime() + rng.int(1, hoursSinceCreated) * HOUR);
    const mention = rng.chance(0.35) ? rng.pick(ctx.team) : null;
    const body = `${mention ? `@${mention.name} ` : ''}${rng.pick(v.commentBodies)}`;
    const deletedAt = rng.chance(0.04) ? ctx.at(createdAt.getTime() + HOUR) : null;
    const commentId = rng.id('cmt');
    ctx.rows.add(s.comments, {
      id: commentId,
      organizationId: ctx.organizationId,
      projectId: ctx.project.id,
      documentId: doc.id,
      authorId: author.id!,
      body,
      createdAt,
      deletedAt,
    });
    if (mention) {
      ctx.rows.add(s.commentMentions, {
        id: rng.id('mnt'),
        organizationId: ctx.organizationId,
        commentId,
        userId: mention.id!,
        createdAt,
        notifiedAt: ctx.at(createdAt.getTime() + MINUTE),
        deletedAt,
      });
    }
    if (!deletedAt) doc.searchParts.push(body);
    ctx.addActivity({
      documentId: doc.id,
      actor: author,
      action: 'comment_added',
      title: `${author.name} commented on ${doc.number}`,
      details: { commentId },
      createdAt,
    });
    times.push(createdAt.getTime());
  }
  return times;
}

/** `created`, then one `status_changed` per workflow step. */
function addHistory(ctx: ProjectContext, doc: DocumentDraft): void {
  ctx.addActivity({
    documentId: doc.id,
    actor: doc.author,
    action: 'created',
    title: `Created ${doc.number}`,
    createdAt: doc.createdAt,
  });
  for (let i = 1; i < doc.path.length; i++) {
    ctx.addActivity({
      documentId: doc.id,
      actor: ctx.rng.pick(ctx.team),
      action: 'status_changed',
      title: `${doc.number} status changed from ${doc.path[i - 1]} to ${doc.path[i]}`,
      details: { from: doc.path[i - 1], to: doc.path[i] },
      createdAt: new Date(doc.stepTimes[i]!),
    });
  }
}

/** Who holds an open submittal: the consultant while it is with them, else an assignee or the author. */
function ballInCourt(doc: DocumentDraft, consultants: Consultant[], assignees: Person[]) {
  const holder = doc.status === 'with-consultants' && consultants[0] ? consultants[0] : (assignees[0] ?? doc.author);
  return holder.id
    ? { userId: holder.id, name: holder.name, company: holder.company }
    : { name: holder.name, company: holder.company };
}
