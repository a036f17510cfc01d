// All rows of one project: documents and everything hanging off them, reports, drawings, comms and
// the e-mail filing history.
import { createHash } from 'node:crypto';
import * as s from '../db/schema.js';
import {
  asciiEmail,
  type Consultant,
  DAY,
  type DocPlan,
  dateOnly,
  HOUR,
  hex,
  MINUTE,
  type Person,
  type ProjectPlan,
  slug,
} from './model.js';
import type { PdfCache } from './pdf.js';
import type { Rng } from './random.js';
import { RowSet } from './rows.js';
import type { ScaleShape } from './shapes.js';
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

export function generateProject(
  rng: Rng,
  shape: ScaleShape,
  now: Date,
  project: ProjectPlan,
  pdfs: PdfCache,
): Promise<RowSet> {
  return new ProjectGenerator(rng, shape, now, project, pdfs).generate();
}

interface ActivityInput {
  documentId?: string | null;
  actor: Person;
  action: string;
  title: string;
  details?: Record<string, unknown>;
  dispatchId?: string;
  createdAt: Date;
}

interface DispatchInput {
  actionType: string;
  sender: Person;
  recipients: Person[];
  title: string;
  at: Date;
  documentId?: string;
  reportId?: string;
  /** Share of the project's e-mail budget to keep for the later phases (reports, forwards, invites). */
  reserve?: number;
}

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

/** Shares of the e-mail budget each phase must leave for the ones after it. */
const RESERVE_AFTER_DOCUMENTS = 0.35;
const RESERVE_AFTER_REPORTS = 0.15;

class ProjectGenerator {
  private readonly rows = new RowSet();
  private readonly organizationId: string;
  private readonly nowMs: number;
  private readonly team: Person[];
  private readonly consultants: Consultant[];
  private readonly docs: DocPlan[] = [];
  private readonly findings: (typeof s.reviewFindings.$inferInsert)[] = [];
  /** Finding id → when a later review run soft-deleted it. */
  private readonly superseded = new Map<string, Date>();
  private activityCount = 0;
  private emailsLeft: number;

  constructor(
    private readonly rng: Rng,
    private readonly shape: ScaleShape,
    now: Date,
    private readonly project: ProjectPlan,
    private readonly pdfs: PdfCache,
  ) {
    this.organizationId = project.org.id;
    this.nowMs = now.getTime();
    this.emailsLeft = shape.emailsPerProject;
    this.team = this.pickTeam();
    this.consultants = this.makeConsultants();
  }

  async generate(): Promise<RowSet> {
    this.addDocuments();
    await this.addReports();
    await this.addDrawings();
    this.fillEmailBudget();
    this.fillActivity();
    for (const finding of this.findings) {
      this.rows.add(s.reviewFindings, { ...finding, deletedAt: this.superseded.get(finding.id) ?? null });
    }
    await this.addFiledEmails();
    return this.rows;
  }

  /** A time no later than a minute before `now`. */
  private at(ms: number): Date {
    return new Date(Math.min(ms, this.nowMs - MINUTE));
  }

  /** The two sign-in accounts and a share of the organization work on the project. */
  private pickTeam(): Person[] {
    const { rng, project } = this;
    const people = project.org.people;
    const team = [people[0]!, people[1]!, ...rng.sample(people.slice(2), Math.ceil(people.length * 0.6))];
    for (const person of team) {
      this.rows.add(s.projectMembers, {
        organizationId: this.organizationId,
        projectId: project.id,
        userId: person.id!,
        role: person === team[0] ? 'manager' : rng.pick(['engineer', 'engineer', 'coordinator', 'viewer']),
      });
    }
    return team;
  }

  /** Each project has its own consultant firms (and e-mail domains), two people each. */
  private makeConsultants(): Consultant[] {
    const { rng } = this;
    // Two people of one firm can share initial and surname: number the second address, as for staff.
    const usedEmails = new Set<string>();
    return rng.sample(v.consultantTypes, rng.int(3, 5)).flatMap((kind) => {
      const company = `${rng.pick(v.companyStems)} ${rng.pick(kind.suffixes)}`;
      const domain = `${slug(company)}-${slug(this.project.code)}.example`;
      return Array.from({ length: 2 }, () => {
        const first = rng.pick(v.firstNames);
        const last = rng.pick(v.lastNames);
        let email = asciiEmail(`${first[0]}${last}@${domain}`);
        for (let n = 2; usedEmails.has(email); n++) email = email.replace(/(\d*)@/, `${n}@`);
        usedEmails.add(email);
        return { id: null, type: kind.type, company, name: `${first} ${last}`, email };
      });
    });
  }

  private addActivity(input: ActivityInput): string {
    const id = this.rng.id('act');
    this.activityCount++;
    this.rows.add(s.activity, {
      id,
      organizationId: this.organizationId,
      projectId: this.project.id,
      documentId: input.documentId ?? null,
      actorId: input.actor.id,
      actorName: input.actor.name,
      actorEmail: input.actor.email,
      action: input.action,
      title: input.title,
      details: input.details ?? null,
      dispatchId: input.dispatchId ?? null,
      createdAt: input.createdAt,
    });
    return id;
  }

  /** A dispatch with its `email_sent` activity and one e-mail record per recipient (within budget). */
  private addDispatch(input: DispatchInput): void {
    const available = this.emailsLeft - Math.ceil((input.reserve ?? 0) * this.shape.emailsPerProject);
    const recipients = input.recipients.slice(0, Math.max(0, available));
    if (recipients.length === 0) return;
    this.emailsLeft -= recipients.length;
    const dispatchId = this.rng.id('dsp');
    const activityId = this.addActivity({
      documentId: input.documentId,
      actor: input.sender,
      action: 'email_sent',
      title: input.title,
      details: { actionType: input.actionType, recipientCount: recipients.length },
      dispatchId,
      createdAt: input.at,
    });
    this.rows.add(s.dispatches, {
      id: dispatchId,
      organizationId: this.organizationId,
      projectId: this.project.id,
      documentId: input.documentId ?? null,
      reportId: input.reportId ?? null,
      activityId,
      actionType: input.actionType,
      senderId: input.sender.id,
      senderName: input.sender.name,
      senderEmail: input.sender.email,
      title: input.title,
      dispatchedAt: input.at,
      recipientCount: recipients.length,
    });
    let mailerMessageId = '';
    recipients.forEach((recipient, i) => {
      // The mailer sends to up to three recipients per message.
      if (i % 3 === 0) mailerMessageId = `0100${hex(this.rng, 3)}-${hex(this.rng, 2)}-000000`;
      this.addEmailRecord(input, dispatchId, mailerMessageId, recipient);
    });
  }

  /** One recipient's e-mail record: opened, delivered, bounced, pending or not sent. */
  private addEmailRecord(input: DispatchInput, dispatchId: string, mailerMessageId: string, recipient: Person) {
    const { rng } = this;
    const sentMs = input.at.getTime();
    const recent = this.nowMs - sentMs < 2 * HOUR;
    const outcome = rng.weighted(
      recent
        ? { pending: 60, delivered: 30, opened: 10, bounced: 0, notSent: 0 }
        : { opened: 45, delivered: 32, bounced: 9, pending: 6, notSent: 8 },
    );
    const sent = outcome !== 'notSent';
    const firstOpened = outcome === 'opened' ? this.at(sentMs + rng.int(2, 60 * 48) * MINUTE) : null;
    const bounceType = outcome === 'bounced' ? rng.pick(['Permanent', 'Permanent', 'Transient']) : null;
    const bounceSubtypes: Record<string, string[]> = {
      Permanent: ['General', 'NoEmail', 'Suppressed'],
      Transient: ['MailboxFull', 'MessageTooLarge', 'General'],
    };
    this.rows.add(s.emailMessages, {
      id: rng.id('eml'),
      organizationId: this.organizationId,
      projectId: this.project.id,
      dispatchId,
      mailerMessageId,
      recipientEmail: recipient.email,
      recipientName: recipient.name,
      recipientUid: recipient.id,
      senderEmail: input.sender.email,
      senderName: input.sender.name,
      senderUid: input.sender.id,
      actionType: input.actionType,
      documentId: input.documentId ?? null,
      activityTitle: input.title,
      sentAt: sent ? input.at : null,
      createdAt: input.at,
      sentToMailer: sent ? this.at(sentMs + 1_000) : null,
      send: sent ? this.at(sentMs + 2_000) : null,
      delivery: outcome === 'delivered' || outcome === 'opened' ? this.at(sentMs + rng.int(5, 90) * 1_000) : null,
      firstOpened,
      lastOpened: firstOpened ? this.at(firstOpened.getTime() + rng.int(0, 72) * HOUR) : null,
      bounce: bounceType ? this.at(sentMs + rng.int(5, 60) * 1_000) : null,
      bounceType,
      bounceSubtype: bounceType ? rng.pick(bounceSubtypes[bounceType]!) : null,
      notSentReason: sent ? null : rng.pick(['Recipient unsubscribed', 'Address on suppression list']),
      notSent: sent ? null : { reason: rng.pick(['unsubscribed', 'suppressed']), at: input.at.toISOString() },
    });
  }

  /** Format, status and creation time are drawn first, then documents are numbered in creation order. */
  private addDocuments(): void {
    const { rng, nowMs } = this;
    const plans = Array.from({ length: this.shape.documentsPerProject }, () => {
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
      this.docs.push(
        this.addDocument({ ...plan, type, number: `${numberPrefix[type]}-${String(n).padStart(3, '0')}` }),
      );
    }
  }

  private addDocument(plan: { format: Format; status: Status; createdAt: Date; type: string; number: string }) {
    const { rng, nowMs } = this;
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
    const content = documentContent(rng, plan.format, plan.status, plan.createdAt, this.project.name);
    const doc: DocumentDraft = {
      ...plan,
      id: rng.id('doc'),
      author: rng.pick(this.team),
      path,
      stepTimes,
      title: content.title,
      searchParts: [...content.searchParts],
    };

    const { consultants, respondedAtMs } = this.addDocumentConsultants(doc);
    const assignees = this.addDocumentPeople(doc);
    const distribution = this.addDistribution(doc);
    if (doc.format === 'submittal' && doc.status !== 'draft' && rng.chance(0.45)) this.addReviewRuns(doc);
    const commentTimes = this.addComments(doc);
    this.addHistory(doc);

    const issuedIndex = path.findIndex((step) => step === 'submitted' || step === 'issued');
    const issuedAt = issuedIndex > 0 ? new Date(stepTimes[issuedIndex]!) : null;
    if (issuedAt && rng.chance(this.shape.dispatchRate)) {
      this.addDispatch({
        actionType: 'IssueDocument',
        sender: doc.author,
        recipients: [...distribution, ...consultants],
        title: `${doc.number} ${doc.title} issued`,
        at: issuedAt,
        documentId: doc.id,
        reserve: RESERVE_AFTER_DOCUMENTS,
      });
    }
    if (respondedAtMs && rng.chance(this.shape.dispatchRate)) {
      const responder = consultants[0]!;
      this.addDispatch({
        actionType: doc.format === 'rfi' ? 'ResponderResponse' : 'ReviewerResponse',
        sender: responder,
        recipients: assignees.length ? assignees : [doc.author],
        title: `${responder.company} responded to ${doc.number}`,
        at: new Date(respondedAtMs),
        documentId: doc.id,
        reserve: RESERVE_AFTER_DOCUMENTS,
      });
    }

    const lastStepMs = stepTimes[stepTimes.length - 1]!;
    const open = !terminalStatuses.has(doc.status);
    const priority = rng.weighted({ low: 2, normal: 5, high: 2, urgent: 1, none: 1 });
    doc.searchParts.push(content.description);
    this.rows.add(s.documents, {
      id: doc.id,
      organizationId: this.organizationId,
      projectId: this.project.id,
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

  /** Consultants review submittals and answer RFIs; they respond once the document was with them. */
  private addDocumentConsultants(doc: DocumentDraft) {
    const { rng } = this;
    const consultants =
      doc.format === 'submittal' || doc.format === 'rfi' ? rng.sample(this.consultants, rng.int(1, 3)) : [];
    const sentToConsultants = doc.path.indexOf('with-consultants');
    const reviewed = sentToConsultants >= 0 && doc.status !== 'with-consultants';
    let respondedAtMs: number | null = null;
    for (const consultant of consultants) {
      const responded = reviewed || (doc.status === 'with-consultants' && rng.chance(0.3));
      const respondedAt = responded ? this.at(doc.stepTimes[sentToConsultants]! + rng.int(1, 96) * HOUR) : null;
      if (respondedAt) respondedAtMs = Math.max(respondedAtMs ?? 0, respondedAt.getTime());
      const response = responded ? rng.pick(v.consultantResponses) : null;
      this.rows.add(s.documentConsultants, {
        id: rng.id('con'),
        organizationId: this.organizationId,
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
  private addDocumentPeople(doc: DocumentDraft): Person[] {
    const { rng } = this;
    const assignees = rng.sample(this.team, rng.pick([0, 1, 1, 1, 1, 1, 1, 2, 2, 2]));
    for (const person of assignees) {
      this.rows.add(s.documentAssignees, {
        organizationId: this.organizationId,
        documentId: doc.id,
        userId: person.id!,
        name: person.name,
      });
    }
    if (doc.format !== 'submittal' && doc.format !== 'change' && doc.format !== 'certificate') return assignees;
    const decided = closedStatuses.has(doc.status) || doc.status === 'locked' || doc.status === 'returned';
    const undecided = doc.status === 'draft' ? 'not-started' : 'pending';
    for (const person of rng.sample(this.team, rng.int(1, 2))) {
      this.rows.add(s.documentApprovers, {
        organizationId: this.organizationId,
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

  private addDistribution(doc: DocumentDraft): Person[] {
    const { rng } = this;
    const distribution = [...rng.sample(this.team, rng.int(1, 3)), ...rng.sample(this.consultants, rng.int(0, 2))];
    for (const person of distribution) {
      this.rows.add(s.documentDistribution, {
        organizationId: this.organizationId,
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
  private addReviewRuns(doc: DocumentDraft): void {
    const { rng } = this;
    const runCount = rng.chance(0.4) ? 2 : 1;
    let previous: string[] = [];
    for (let r = 0; r < runCount; r++) {
      const runId = rng.id('run');
      const startedAt = this.at(doc.stepTimes[1]! + (r * 3 + 1) * HOUR);
      this.rows.add(s.reviewRuns, {
        id: runId,
        organizationId: this.organizationId,
        documentId: doc.id,
        startedAt,
        completedAt: this.at(startedAt.getTime() + rng.int(1, 10) * MINUTE),
      });
      for (const findingId of previous) this.superseded.set(findingId, startedAt);
      previous = [];
      const templates = [
        ...v.findingTemplates.spec.map((t) => ({ ...t, source: 'spec' as const })),
        ...v.findingTemplates.quality.map((t) => ({ ...t, source: 'quality' as const })),
      ];
      for (const finding of rng.sample(templates, rng.int(1, 4))) {
        const findingId = rng.id('fnd');
        previous.push(findingId);
        this.findings.push({
          id: findingId,
          organizationId: this.organizationId,
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
  private addComments(doc: DocumentDraft): number[] {
    const { rng } = this;
    const times: number[] = [];
    const hoursSinceCreated = Math.max(1, Math.floor((this.nowMs - doc.createdAt.getTime()) / HOUR));
    const count = rng.pick([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3]);
    for (let c = 0; c < count; c++) {
      const author = rng.pick(this.team);
      const createdAt = this.at(doc.createdAt.getTime() + rng.int(1, hoursSinceCreated) * HOUR);
      const mention = rng.chance(0.35) ? rng.pick(this.team) : null;
      const body = `${mention ? `@${mention.name} ` : ''}${rng.pick(v.commentBodies)}`;
      const deletedAt = rng.chance(0.04) ? this.at(createdAt.getTime() + HOUR) : null;
      const commentId = rng.id('cmt');
      this.rows.add(s.comments, {
        id: commentId,
        organizationId: this.organizationId,
        projectId: this.project.id,
        documentId: doc.id,
        authorId: author.id!,
        body,
        createdAt,
        deletedAt,
      });
      if (mention) {
        this.rows.add(s.commentMentions, {
          id: rng.id('mnt'),
          organizationId: this.organizationId,
          commentId,
          userId: mention.id!,
          createdAt,
          notifiedAt: this.at(createdAt.getTime() + MINUTE),
          deletedAt,
        });
      }
      if (!deletedAt) doc.searchParts.push(body);
      this.addActivity({
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
  private addHistory(doc: DocumentDraft): void {
    this.addActivity({
      documentId: doc.id,
      actor: doc.author,
      action: 'created',
      title: `Created ${doc.number}`,
      createdAt: doc.createdAt,
    });
    for (let i = 1; i < doc.path.length; i++) {
      this.addActivity({
        documentId: doc.id,
        actor: this.rng.pick(this.team),
        action: 'status_changed',
        title: `${doc.number} status changed from ${doc.path[i - 1]} to ${doc.path[i]}`,
        details: { from: doc.path[i - 1], to: doc.path[i] },
        createdAt: new Date(doc.stepTimes[i]!),
      });
    }
  }

  /** Site reports and meeting minutes, one to three versions each; only the newest is the latest. */
  private async addReports(): Promise<void> {
    const kinds = ['site_report', 'meeting_minutes'] as const;
    for (let r = 0; r < this.shape.reportSeriesPerProject; r++) {
      const kind = kinds[r % 2]!;
      const dateMs = this.nowMs - (r + 1) * 7 * DAY;
      const series = {
        id: this.rng.id('rps'),
        kind,
        date: new Date(dateMs),
        author: this.rng.pick(this.team),
        title:
          kind === 'site_report'
            ? `Site report ${dateOnly(new Date(dateMs))}`
            : `OAC meeting #${this.shape.reportSeriesPerProject - r}`,
      };
      const versions = this.rng.int(1, 3);
      for (let version = 1; version <= versions; version++) await this.addReportVersion(series, version, versions);
    }
  }

  private async addReportVersion(
    series: { id: string; kind: 'site_report' | 'meeting_minutes'; date: Date; author: Person; title: string },
    version: number,
    versions: number,
  ): Promise<void> {
    const { rng, organizationId, project } = this;
    const latest = version === versions;
    const reportId = rng.id('rpt');
    const createdAt = new Date(series.date.getTime() + (version - 1) * DAY);
    const issued = !latest || rng.chance(0.8);
    const observations = rng.pick(v.reportObservations);
    const pdf = issued
      ? await this.pdfs.report(`${project.code} ${series.title}`, String(version), [project.name, observations])
      : null;
    this.rows.add(s.reports, {
      id: reportId,
      organizationId,
      projectId: project.id,
      seriesId: series.id,
      type: 'report',
      format: 'report',
      reportKind: series.kind,
      status: issued ? 'issued' : 'draft',
      title: series.title,
      date: series.date,
      location: `${project.name} site office`,
      version: String(version),
      isLatestVersion: latest,
      createdAt,
      createdByName: series.author.name,
      observations,
      weather: rng.pick(v.weatherConditions),
      issuedAt: issued ? new Date(createdAt.getTime() + 2 * HOUR) : null,
      issuedByName: issued ? series.author.name : null,
      pdfBlobKey: pdf?.key ?? null,
    });
    const sectionTitles =
      series.kind === 'meeting_minutes'
        ? rng.sample(v.meetingSections, 4)
        : ['Work in progress', 'Safety', 'Quality', 'Deliveries'];
    sectionTitles.forEach((title, position) => {
      this.rows.add(s.reportSections, {
        id: rng.id('rsc'),
        organizationId,
        reportId,
        position,
        title,
        items: Array.from({ length: rng.int(1, 4) }, () => ({
          text: rng.pick([...v.reportObservations, ...v.commentBodies]),
          status: rng.pick(['open', 'closed', 'info']),
        })),
      });
    });
    if (series.kind === 'meeting_minutes') {
      const attendees = [
        ...rng.sample(this.team, 3).map((person) => ({ ...person, role: 'Contractor' })),
        ...rng.sample(this.consultants, 3).map((person) => ({ ...person, role: person.type })),
      ];
      for (const person of attendees) {
        this.rows.add(s.reportAttendees, {
          id: rng.id('rat'),
          organizationId,
          reportId,
          name: person.name,
          company: person.company,
          role: person.role,
          present: rng.chance(0.85),
        });
      }
    }
    const readers = rng.sample(this.team, rng.int(2, 5));
    for (const person of readers) {
      this.rows.add(s.reportDistribution, {
        id: rng.id('rds'),
        organizationId,
        reportId,
        userId: person.id,
        name: person.name,
        email: person.email,
      });
    }
    if (issued) {
      this.addDispatch({
        actionType: 'ReportShare',
        sender: series.author,
        recipients: readers,
        title: `${series.title} v${version} shared`,
        at: new Date(createdAt.getTime() + 3 * HOUR),
        reportId,
        reserve: RESERVE_AFTER_REPORTS,
      });
    }
  }

  /** Packages by discipline; every project has the sheets tests and examples name (A-101, A-1010,
   *  S-201) plus a random set. The first three drawings' latest files are broken on purpose. */
  private async addDrawings(): Promise<void> {
    const named = v.drawingSheets.filter((sheet) => ['A-101', 'A-1010', 'S-201'].includes(sheet.number));
    const others = v.drawingSheets.filter((sheet) => !named.includes(sheet));
    const sheets = [...named, ...this.rng.sample(others, this.shape.drawingsPerProject - named.length)].sort((a, b) =>
      a.number.localeCompare(b.number),
    );
    const packages = new Map<string, string>();
    const brokenKinds = ['missing', 'empty', 'not-pdf'] as const;
    for (const [index, sheet] of sheets.entries()) {
      let packageId = packages.get(sheet.discipline);
      if (!packageId) {
        packageId = this.rng.id('pkg');
        packages.set(sheet.discipline, packageId);
        this.rows.add(s.drawingPackages, {
          id: packageId,
          organizationId: this.organizationId,
          projectId: this.project.id,
          name: `${sheet.discipline} set`,
          createdAt: new Date(this.nowMs - 400 * DAY),
        });
      }
      await this.addDrawing(sheet, packageId, brokenKinds[index]);
    }
  }

  private async addDrawing(
    sheet: (typeof v.drawingSheets)[number],
    packageId: string,
    broken: 'missing' | 'empty' | 'not-pdf' | undefined,
  ): Promise<void> {
    const { rng } = this;
    const drawingId = rng.id('drw');
    const createdAt = new Date(this.nowMs - rng.int(200, 400) * DAY);
    this.rows.add(s.drawings, {
      id: drawingId,
      organizationId: this.organizationId,
      projectId: this.project.id,
      packageId,
      number: sheet.number,
      title: sheet.title,
      discipline: sheet.discipline,
      createdAt,
    });
    const revisions = rng.int(1, 3);
    for (let sequence = 1; sequence <= revisions; sequence++) {
      const revision = String.fromCharCode(64 + sequence);
      const uploadedAt = new Date(createdAt.getTime() + (sequence - 1) * rng.int(10, 60) * DAY);
      const file =
        sequence === revisions && broken
          ? await this.brokenFile(broken, drawingId)
          : await this.pdfs.drawing(sheet, revision);
      this.rows.add(s.drawingRevisions, {
        id: rng.id('rev'),
        organizationId: this.organizationId,
        drawingId,
        revision,
        sequence,
        blobKey: file.key,
        fileName: `${sheet.number}_Rev${revision}.pdf`,
        fileSize: file.size,
        uploadedAt,
      });
      this.addActivity({
        actor: rng.pick(this.team),
        action: 'file_uploaded',
        title: `Uploaded drawing ${sheet.number} revision ${revision}`,
        details: { drawingId, revision },
        createdAt: uploadedAt,
      });
    }
  }

  private async brokenFile(kind: 'missing' | 'empty' | 'not-pdf', drawingId: string) {
    if (kind === 'missing') {
      // A key for bytes that were never stored.
      return { key: createHash('sha256').update(`missing ${drawingId}`).digest('hex'), size: 48_213 };
    }
    if (kind === 'empty') return this.pdfs.raw('empty', Buffer.alloc(0));
    return this.pdfs.raw('not-pdf', Buffer.from('This is a scanned fax, not a PDF file.\n'));
  }

  /** The rest of the e-mail budget goes to forwarded documents and project invitations. */
  private fillEmailBudget(): void {
    const { rng, team, consultants } = this;
    while (this.emailsLeft > 0) {
      if (rng.chance(0.2)) {
        this.addDispatch({
          actionType: 'ProjectInvite',
          sender: team[0]!,
          recipients: [...rng.sample(consultants, rng.int(2, consultants.length)), ...rng.sample(team, rng.int(3, 12))],
          title: `Invitation to ${this.project.name}`,
          at: new Date(this.nowMs - rng.int(1, 500) * DAY),
        });
      } else {
        const doc = rng.pick(this.docs);
        const sender = rng.pick(team);
        this.addDispatch({
          actionType: 'ForwardDocument',
          sender,
          recipients: rng.sample([...team, ...consultants], rng.int(1, 4)),
          title: `${sender.name} forwarded ${doc.number}`,
          at: this.at(doc.createdAt.getTime() + rng.int(1, 30 * 24) * HOUR),
          documentId: doc.id,
        });
      }
    }
  }

  /** Tops activity up to the scale's volume with ordinary edits. */
  private fillActivity(): void {
    const { rng } = this;
    while (this.activityCount < this.shape.activityPerProject) {
      const doc = rng.pick(this.docs);
      const actor = rng.pick(this.team);
      const action = rng.weighted({ file_uploaded: 5, assignee_added: 2, due_date_changed: 2, priority_changed: 1 });
      const titles: Record<typeof action, string> = {
        file_uploaded: `Uploaded ${doc.number}_markup_${rng.int(1, 9)}.pdf`,
        assignee_added: `${actor.name} assigned ${doc.number}`,
        due_date_changed: `Due date of ${doc.number} changed`,
        priority_changed: `Priority of ${doc.number} changed`,
      };
      this.addActivity({
        documentId: doc.id,
        actor,
        action,
        title: titles[action],
        createdAt: this.at(doc.createdAt.getTime() + rng.int(1, 90 * 24) * HOUR),
      });
    }
  }

  /** Threads with the project's consultants whose subjects name the project code or name or a
   *  document number, so project suggestions have history to learn from. */
  private async addFiledEmails(): Promise<void> {
    const { rng, project } = this;
    const attachment = await this.pdfs.raw('attachment', Buffer.from('Marked-up comments from the site walk.\n'));
    let filed = 0;
    while (filed < this.shape.filedEmailsPerProject) {
      const doc = rng.chance(0.6) ? rng.pick(this.docs) : null;
      const topic = doc
        ? `${doc.number} ${doc.title}`
        : rng.pick([
            `${project.code} weekly progress`,
            `${project.name} - site meeting notes`,
            `[${project.code}] Coordination drawings`,
            `${project.name}: inspection schedule`,
          ]);
      const thread = {
        conversationId: rng.id('cnv'),
        consultant: rng.pick(this.consultants),
        member: rng.pick(this.team),
        startMs: this.nowMs - rng.int(1, 400) * DAY,
        topic,
        doc,
      };
      const length = Math.min(rng.int(1, 3), this.shape.filedEmailsPerProject - filed);
      const messageIds: string[] = [];
      for (let i = 0; i < length; i++) messageIds.push(this.addFiledEmail(thread, i, messageIds, attachment));
      filed += length;
    }
  }

  /** Message `i` of a thread (consultant and team member take turns); returns its Message-ID. */
  private addFiledEmail(
    thread: {
      conversationId: string;
      consultant: Person;
      member: Person;
      startMs: number;
      topic: string;
      doc: DocPlan | null;
    },
    i: number,
    earlier: string[],
    attachment: { key: string; size: number },
  ): string {
    const { rng } = this;
    const [from, to] = i % 2 === 0 ? [thread.consultant, thread.member] : [thread.member, thread.consultant];
    const messageId = `${hex(rng, 3)}@${from.email.split('@')[1]}`;
    const sentAt = new Date(thread.startMs + i * rng.int(1, 48) * HOUR);
    const bodyText = `${to.name.split(' ')[0]},\n\n${rng.pick([...v.consultantResponses, ...v.commentBodies])}\n\nRegards,\n${from.name}\n${from.company}`;
    const hasAttachments = rng.chance(0.25);
    const id = rng.id('fem');
    this.rows.add(s.filedEmails, {
      id,
      organizationId: this.organizationId,
      projectId: this.project.id,
      documentId: thread.doc?.id ?? null,
      messageId,
      conversationId: thread.conversationId,
      inReplyTo: earlier[earlier.length - 1] ?? null,
      references: [...earlier],
      subject: `${i > 0 ? 'RE: ' : ''}${thread.topic}`,
      fromAddress: from.email,
      fromName: from.name,
      to: [{ address: to.email, name: to.name }],
      cc: rng.chance(0.4) ? [{ address: rng.pick(this.team).email }] : [],
      sentAt,
      bodyText,
      hasAttachments,
      filedById: thread.member.id!,
      filedAt: new Date(sentAt.getTime() + rng.int(1, 120) * MINUTE),
      searchText: `${bodyText} ${from.name} ${from.email} ${to.name} ${to.email}`,
    });
    if (hasAttachments) {
      this.rows.add(s.filedEmailAttachments, {
        id: rng.id('att'),
        organizationId: this.organizationId,
        filedEmailId: id,
        name: thread.doc ? `${thread.doc.number}_comments.txt` : 'site-walk-notes.txt',
        contentType: 'text/plain',
        size: attachment.size,
        blobKey: attachment.key,
        textContent: 'Marked-up comments from the site walk.',
      });
    }
    return messageId;
  }
}

/** Who holds an open submittal: the consultant while it is with them, else an assignee or the author. */
function ballInCourt(doc: DocumentDraft, consultants: Consultant[], assignees: Person[]) {
  const holder = doc.status === 'with-consultants' && consultants[0] ? consultants[0] : (assignees[0] ?? doc.author);
  return holder.id
    ? { userId: holder.id, name: holder.name, company: holder.company }
    : { name: holder.name, company: holder.company };
}

/** Title, description and the format-specific fields of a document. */
function documentContent(rng: Rng, format: Format, status: Status, createdAt: Date, projectName: string) {
  const details: Record<string, unknown> = {};
  const searchParts: string[] = [];
  let divisionTitle: string | null = null;
  let referenceNumber: string | null = null;
  let title: string;
  let description: string;
  switch (format) {
    case 'submittal': {
      const division = rng.pick(v.csiDivisions);
      title = rng.pick(division.items);
      divisionTitle = division.title;
      const section = `${division.number} ${rng.int(10, 90)} ${String(rng.int(0, 9) * 10).padStart(2, '0')}`;
      referenceNumber = `${section}-${String(rng.int(1, 12)).padStart(2, '0')}`;
      details.specSection = section;
      details.package = `${division.title.split(' - ')[1]} package`;
      description = `${title} for ${projectName}, submitted per specification section ${section}.`;
      searchParts.push(division.title);
      break;
    }
    case 'rfi': {
      title = rng.pick(v.rfiTopics);
      const question = rng.pick(v.rfiQuestions);
      details.question = question;
      details.costImpact = rng.pick(['none', 'possible', 'yes']);
      details.scheduleImpact = rng.pick(['none', 'possible', 'yes']);
      if (status === 'issued' || closedStatuses.has(status)) details.answer = rng.pick(v.rfiAnswers);
      description = `${title}. ${question}`;
      searchParts.push(question, (details.answer as string | undefined) ?? '');
      break;
    }
    case 'change': {
      title = rng.pick(v.changeTitles);
      const reason = rng.pick(v.changeReasons);
      details.reason = reason;
      details.amount = rng.int(-20, 250) * 500;
      details.currency = 'USD';
      details.scheduleImpactDays = rng.int(0, 20);
      description = `${title}. Reason: ${reason}.`;
      searchParts.push(reason);
      break;
    }
    case 'instruction':
      title = rng.pick(v.instructionTitles);
      description = `Site instruction: ${title.toLowerCase()}.`;
      break;
    case 'quote':
      title = rng.pick(v.quoteTitles);
      details.amount = rng.int(4, 400) * 250;
      details.currency = 'USD';
      description = `${title}; valid for 30 days.`;
      break;
    case 'bulletin':
      title = rng.pick(v.bulletinTitles);
      description = `${title} issued for construction.`;
      break;
    case 'certificate':
      title = rng.pick(v.certificateTitles);
      details.period = dateOnly(createdAt).slice(0, 7);
      details.amount = rng.int(20, 900) * 1000;
      description = `${title} for ${details.period}.`;
      break;
  }
  return { title, description, details, searchParts, divisionTitle, referenceNumber };
}
