import { createHash } from 'node:crypto';
import type { BlobStore } from '../blobs/store.js';
import * as s from '../db/schema.js';
import { drawingPdf, reportPdf } from './pdf.js';
import type { Rng } from './random.js';
import { RowSet } from './rows.js';
import * as v from './vocabulary.js';

export type SeedScale = 'demo' | 'large';

export interface ScaleShape {
  organizations: number;
  projectsPerOrg: number;
  usersPerOrg: number;
  documentsPerProject: number;
  drawingsPerProject: number;
  /** Minimum activity rows per project; natural events are topped up with file uploads and edits. */
  activityPerProject: number;
  /** Exact number of per-recipient e-mail records per project. */
  emailsPerProject: number;
  /** Share of documents that get an issue dispatch (the rest of the e-mail budget goes to forwards and invites). */
  dispatchRate: number;
  reportSeriesPerProject: number;
  filedEmailsPerProject: number;
}

export const scales: Record<SeedScale, ScaleShape> = {
  demo: {
    organizations: 2,
    projectsPerOrg: 2,
    usersPerOrg: 12,
    documentsPerProject: 250,
    drawingsPerProject: 15,
    activityPerProject: 1_250,
    emailsPerProject: 600,
    dispatchRate: 0.6,
    reportSeriesPerProject: 6,
    filedEmailsPerProject: 40,
  },
  large: {
    organizations: 5,
    projectsPerOrg: 8,
    usersPerOrg: 40,
    documentsPerProject: 5_000,
    drawingsPerProject: 50,
    activityPerProject: 25_000,
    emailsPerProject: 5_000,
    dispatchRate: 0.25,
    reportSeriesPerProject: 12,
    filedEmailsPerProject: 250,
  },
};

/** Sign-in accounts the seed creates with known passwords (an org admin and a member per org). */
export interface SeedAccount {
  userId: string;
  email: string;
  name: string;
  password: string;
  role: 'admin' | 'member';
  orgId: string;
}

export const demoPasswords = { admin: 'sitefile-admin-demo', member: 'sitefile-member-demo' } as const;

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

type Format = 'bulletin' | 'certificate' | 'change' | 'instruction' | 'quote' | 'rfi' | 'submittal';
type Status =
  | 'draft'
  | 'pending'
  | 'submitted'
  | 'with-consultants'
  | 'issued'
  | 'approved'
  | 'accepted'
  | 'returned'
  | 'resubmitted'
  | 'revision'
  | 'closed'
  | 'locked'
  | 'cancelled'
  | 'needs-work';

const formatWeights: Record<Format, number> = {
  submittal: 35,
  rfi: 30,
  change: 10,
  instruction: 8,
  quote: 7,
  bulletin: 5,
  certificate: 5,
};

const statusWeights: Record<Format, Partial<Record<Status, number>>> = {
  submittal: {
    draft: 4,
    pending: 6,
    submitted: 8,
    'with-consultants': 12,
    returned: 6,
    resubmitted: 5,
    revision: 3,
    'needs-work': 3,
    approved: 15,
    closed: 20,
    cancelled: 3,
    locked: 2,
  },
  rfi: {
    draft: 5,
    pending: 5,
    submitted: 10,
    'with-consultants': 12,
    issued: 10,
    'needs-work': 3,
    closed: 40,
    cancelled: 5,
  },
  change: {
    draft: 6,
    pending: 12,
    submitted: 10,
    approved: 20,
    accepted: 15,
    returned: 6,
    revision: 4,
    cancelled: 6,
    locked: 5,
    closed: 10,
  },
  instruction: { draft: 5, pending: 10, issued: 30, accepted: 20, closed: 30, cancelled: 5 },
  bulletin: { draft: 10, issued: 60, closed: 20, cancelled: 10 },
  certificate: { draft: 10, pending: 15, issued: 30, approved: 25, locked: 20 },
  quote: { draft: 10, submitted: 20, pending: 15, accepted: 25, returned: 10, cancelled: 10, closed: 10 },
};

/** The workflow path that leads from draft to each status (the status_changed history). */
const workflowPath: Record<Status, Status[]> = {
  draft: ['draft'],
  pending: ['draft', 'pending'],
  submitted: ['draft', 'submitted'],
  'with-consultants': ['draft', 'submitted', 'with-consultants'],
  issued: ['draft', 'issued'],
  approved: ['draft', 'submitted', 'with-consultants', 'approved'],
  accepted: ['draft', 'submitted', 'accepted'],
  returned: ['draft', 'submitted', 'with-consultants', 'returned'],
  resubmitted: ['draft', 'submitted', 'with-consultants', 'returned', 'resubmitted'],
  revision: ['draft', 'submitted', 'with-consultants', 'returned', 'revision'],
  'needs-work': ['draft', 'submitted', 'needs-work'],
  closed: ['draft', 'submitted', 'with-consultants', 'approved', 'closed'],
  locked: ['draft', 'submitted', 'approved', 'locked'],
  cancelled: ['draft', 'submitted', 'cancelled'],
};

const openStatuses = new Set<Status>(['pending', 'submitted', 'with-consultants', 'resubmitted', 'needs-work']);
const closedStatuses = new Set<Status>(['closed', 'approved', 'accepted']);
const terminalStatuses = new Set<Status>(['closed', 'cancelled', 'locked', 'accepted', 'approved']);

const typesByFormat: Record<Format, Record<string, number>> = {
  submittal: { Submittal: 1 },
  rfi: { RFI: 1 },
  change: { CO: 1 },
  instruction: { SI: 7, CD: 3 },
  quote: { Quote: 1 },
  bulletin: { Bulletin: 1 },
  certificate: { Certificate: 6, PC: 2, CA: 2 },
};

const numberPrefix: Record<string, string> = {
  Submittal: 'SUB',
  RFI: 'RFI',
  CO: 'CO',
  SI: 'SI',
  CD: 'CD',
  Quote: 'QT',
  Bulletin: 'BUL',
  Certificate: 'CERT',
  PC: 'PC',
  CA: 'CA',
};

const reviewStatusFor = (rng: Rng, status: Status): string | null => {
  if (status === 'draft') return null;
  if (status === 'cancelled') return 'not-reviewed';
  if (status === 'pending' || status === 'submitted' || status === 'with-consultants') return 'pending';
  if (status === 'approved' || status === 'closed' || status === 'locked' || status === 'accepted') {
    return rng.pick([
      'reviewed',
      'reviewed',
      'reviewed-as-noted',
      'reviewed-as-noted',
      'for-record-only',
      'not-required-for-review',
    ]);
  }
  return rng.pick([
    'revise-and-resubmit',
    'revise-and-resubmit',
    'rejected',
    'revise-and-resubmit-for-record',
    'reviewed-as-noted-partial-resubmit',
  ]);
};

interface Person {
  id: string | null;
  name: string;
  email: string;
  company: string;
}

interface OrgPlan {
  id: string;
  name: string;
  domain: string;
  people: Person[];
  accounts: SeedAccount[];
}

interface ProjectPlan {
  id: string;
  name: string;
  code: string;
  org: OrgPlan;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const dateOnly = (d: Date) => d.toISOString().slice(0, 10);
const hex = (rng: Rng, words: number) =>
  Array.from({ length: words }, () => rng.next().toString(16).padStart(8, '0')).join('');

/** Everything that belongs to no single project: organizations, people, settings, support issues. */
export function generatePlatform(
  rng: Rng,
  shape: ScaleShape,
  now: Date,
  passwordHashes: { admin: string; member: string },
) {
  const rows = new RowSet();
  const orgs: OrgPlan[] = [];
  const projects: ProjectPlan[] = [];
  const usedEmails = new Set<string>();
  const since = (days: number) => new Date(now.getTime() - days * DAY);

  for (let o = 0; o < shape.organizations; o++) {
    const name = v.organizationNames[o % v.organizationNames.length]!;
    const org: OrgPlan = { id: rng.id('org'), name, domain: `${slug(name)}.example`, people: [], accounts: [] };
    orgs.push(org);
    rows.add(s.organizations, { id: org.id, name, createdAt: since(720 - o) });
    rows.add(s.emailFilingSettings, {
      organizationId: org.id,
      aiSuggest: o % 2 === 0,
      updatedAt: since(30 + o),
      updatedById: null,
    });

    for (let u = 0; u < shape.usersPerOrg; u++) {
      const first = rng.pick(v.firstNames);
      const last = rng.pick(v.lastNames);
      let email = `${first}.${last}@${org.domain}`
        .toLowerCase()
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '');
      for (let n = 2; usedEmails.has(email); n++) email = email.replace(/(\d*)@/, `${n}@`);
      usedEmails.add(email);
      const id = rng.id('usr');
      // The first two people are the sign-in accounts (an admin, a member); the third is another admin.
      const role = u === 0 || u === 2 ? 'admin' : 'member';
      const account = u < 2;
      const created = since(rng.int(30, 700));
      rows.add(s.users, {
        id,
        email,
        name: `${first} ${last}`,
        passwordHash: account ? passwordHashes[role] : null,
        staff: false,
        company: org.name,
        title: u === 0 ? 'Construction Manager' : rng.pick(v.staffTitles),
        phone: `+1 555 0${rng.int(100, 199)} ${rng.int(1000, 9999)}`,
        createdAt: created,
        updatedAt: new Date(created.getTime() + rng.int(0, 20) * DAY),
      });
      rows.add(s.organizationMembers, {
        id: rng.id('mem'),
        organizationId: org.id,
        userId: id,
        role,
        createdAt: created,
        updatedAt: created,
      });
      rows.add(s.activity, {
        id: rng.id('act'),
        organizationId: org.id,
        actorId: id,
        actorName: `${first} ${last}`,
        actorEmail: email,
        action: 'member_added',
        title: `${first} ${last} joined ${org.name}`,
        details: { role },
        createdAt: created,
      });
      org.people.push({ id, name: `${first} ${last}`, email, company: org.name });
      if (account) {
        org.accounts.push({
          userId: id,
          email,
          name: `${first} ${last}`,
          password: demoPasswords[role],
          role,
          orgId: org.id,
        });
      }
    }
    const admin = org.people[0]!;
    rows.add(s.activity, {
      id: rng.id('act'),
      organizationId: org.id,
      actorId: admin.id,
      actorName: admin.name,
      actorEmail: admin.email,
      action: 'settings_changed',
      title: 'E-mail filing settings updated',
      details: { aiSuggest: o % 2 === 0 },
      createdAt: since(30 + o),
    });

    for (let p = 0; p < shape.projectsPerOrg; p++) {
      const index = o * shape.projectsPerOrg + p;
      const base = v.projectNames[index % v.projectNames.length]!;
      const round = Math.floor(index / v.projectNames.length);
      const project: ProjectPlan = {
        id: rng.id('prj'),
        name: round === 0 ? base : `${base} Phase ${round + 1}`,
        code: `P-${2041 + index * 7 + rng.int(0, 6)}`,
        org,
      };
      projects.push(project);
      rows.add(s.projects, {
        id: project.id,
        organizationId: org.id,
        name: project.name,
        code: project.code,
        createdAt: since(600 - index),
      });
    }
  }

  v.supportIssueSeeds.forEach((issue, i) => {
    rows.add(s.supportIssues, {
      id: rng.id('sup'),
      ...issue,
      createdAt: since(60 - i * 7),
      createdBy: 'support@sitefile.example',
    });
  });

  return { rows, orgs, projects };
}

export type Platform = ReturnType<typeof generatePlatform>;

interface DocPlan {
  id: string;
  number: string;
  title: string;
  format: Format;
  type: string;
  status: Status;
  createdAt: Date;
  distribution: Person[];
  consultants: Person[];
}

interface Consultant extends Person {
  type: string;
}

/** Blob keys of generated PDFs, shared across projects (same sheet and revision → same bytes). */
export class PdfCache {
  private readonly keys = new Map<string, Promise<{ key: string; size: number }>>();
  constructor(
    private readonly blobs: BlobStore,
    private readonly stamp: Date,
  ) {}

  drawing(sheet: (typeof v.drawingSheets)[number], revision: string) {
    return this.once(`drawing:${sheet.number}:${sheet.title}:${revision}`, () =>
      drawingPdf(this.stamp, sheet, revision),
    );
  }

  report(title: string, version: string, lines: string[]) {
    return this.once(`report:${title}:${version}:${lines.join('|')}`, () =>
      reportPdf(this.stamp, { title, version, lines }),
    );
  }

  raw(name: string, bytes: Buffer) {
    return this.once(`raw:${name}`, async () => bytes);
  }

  private once(name: string, make: () => Promise<Buffer>) {
    let entry = this.keys.get(name);
    if (!entry) {
      entry = make().then((bytes) => this.blobs.put(bytes));
      this.keys.set(name, entry);
    }
    return entry;
  }
}

/** All rows of one project: documents and everything hanging off them, reports, drawings, comms,
 *  and the e-mail filing history. */
export async function generateProject(
  rng: Rng,
  shape: ScaleShape,
  now: Date,
  project: ProjectPlan,
  pdfs: PdfCache,
): Promise<RowSet> {
  const rows = new RowSet();
  const org = project.org;
  const organizationId = org.id;
  const projectId = project.id;
  const nowMs = now.getTime();
  const at = (ms: number) => new Date(Math.min(ms, nowMs - MINUTE));

  // People: a share of the organization works on the project; each project has its own consultants.
  const team = [org.people[0]!, org.people[1]!, ...rng.sample(org.people.slice(2), Math.ceil(org.people.length * 0.6))];
  for (const person of team) {
    rows.add(s.projectMembers, {
      organizationId,
      projectId,
      userId: person.id!,
      role: person === team[0] ? 'manager' : rng.pick(['engineer', 'engineer', 'coordinator', 'viewer']),
    });
  }
  const consultants: Consultant[] = rng.sample(v.consultantTypes, rng.int(3, 5)).flatMap((kind) => {
    const company = `${rng.pick(v.companyStems)} ${rng.pick(kind.suffixes)}`;
    const domain = `${slug(company)}-${slug(project.code)}.example`;
    return Array.from({ length: 2 }, () => {
      const first = rng.pick(v.firstNames);
      const last = rng.pick(v.lastNames);
      return {
        id: null,
        type: kind.type,
        company,
        name: `${first} ${last}`,
        email: `${first[0]}${last}@${domain}`
          .toLowerCase()
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, ''),
      };
    });
  });

  const findingRows: (typeof s.reviewFindings.$inferInsert)[] = [];
  /** Finding id → when a later review run soft-deleted it. */
  const supersede = new Map<string, Date>();
  let activityCount = 0;
  const addActivity = (input: {
    documentId?: string | null;
    actor: Person;
    action: string;
    title: string;
    details?: Record<string, unknown>;
    dispatchId?: string;
    createdAt: Date;
  }) => {
    const id = rng.id('act');
    activityCount++;
    rows.add(s.activity, {
      id,
      organizationId,
      projectId,
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
  };

  let emailsLeft = shape.emailsPerProject;
  /** A dispatch with one e-mail record per recipient; several recipients may share a mailer message. */
  const addDispatch = (input: {
    actionType: string;
    sender: Person;
    recipients: Person[];
    title: string;
    at: Date;
    documentId?: string;
    reportId?: string;
    /** Share of the project's e-mail budget to keep for the later phases (reports, forwards, invites). */
    reserve?: number;
  }) => {
    const available = emailsLeft - Math.ceil((input.reserve ?? 0) * shape.emailsPerProject);
    const recipients = input.recipients.slice(0, Math.max(0, available));
    if (recipients.length === 0) return;
    emailsLeft -= recipients.length;
    const dispatchId = rng.id('dsp');
    const activityId = addActivity({
      documentId: input.documentId,
      actor: input.sender,
      action: 'email_sent',
      title: input.title,
      details: { actionType: input.actionType, recipientCount: recipients.length },
      dispatchId,
      createdAt: input.at,
    });
    rows.add(s.dispatches, {
      id: dispatchId,
      organizationId,
      projectId,
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
    const sentMs = input.at.getTime();
    const recent = nowMs - sentMs < 2 * HOUR;
    let mailerMessageId = '';
    recipients.forEach((recipient, i) => {
      if (i % 3 === 0) mailerMessageId = `0100${hex(rng, 3)}-${hex(rng, 2)}-000000`;
      const outcome = rng.weighted(
        recent
          ? { pending: 60, delivered: 30, opened: 10, bounced: 0, notSent: 0 }
          : { opened: 45, delivered: 32, bounced: 9, pending: 6, notSent: 8 },
      );
      const delivered = outcome === 'delivered' || outcome === 'opened';
      const firstOpened = outcome === 'opened' ? at(sentMs + rng.int(2, 60 * 48) * MINUTE) : null;
      const bounceType = outcome === 'bounced' ? rng.pick(['Permanent', 'Permanent', 'Transient']) : null;
      rows.add(s.emailMessages, {
        id: rng.id('eml'),
        organizationId,
        projectId,
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
        sentAt: outcome === 'notSent' ? null : input.at,
        createdAt: input.at,
        sentToMailer: outcome === 'notSent' ? null : at(sentMs + 1_000),
        send: outcome === 'notSent' ? null : at(sentMs + 2_000),
        delivery: delivered ? at(sentMs + rng.int(5, 90) * 1_000) : null,
        firstOpened,
        lastOpened: firstOpened ? at(firstOpened.getTime() + rng.int(0, 72) * HOUR) : null,
        bounce: outcome === 'bounced' ? at(sentMs + rng.int(5, 60) * 1_000) : null,
        bounceType,
        bounceSubtype:
          bounceType === 'Permanent'
            ? rng.pick(['General', 'NoEmail', 'Suppressed'])
            : bounceType
              ? rng.pick(['MailboxFull', 'MessageTooLarge', 'General'])
              : null,
        notSentReason:
          outcome === 'notSent' ? rng.pick(['Recipient unsubscribed', 'Address on suppression list']) : null,
        notSent:
          outcome === 'notSent'
            ? { reason: rng.pick(['unsubscribed', 'suppressed']), at: input.at.toISOString() }
            : null,
      });
    });
  };

  // Documents: draw format, status and creation time first, then number them in creation order.
  const plans = Array.from({ length: shape.documentsPerProject }, () => {
    const format = rng.weighted(formatWeights);
    const status = rng.weighted(statusWeights[format] as Record<Status, number>);
    // Open items are recent (so some are overdue, not all); finished ones span the project's life.
    const ageDays = openStatuses.has(status) || status === 'draft' ? rng.int(1, 75) : rng.int(5, 540);
    return { format, status, createdAt: new Date(nowMs - ageDays * DAY - rng.int(0, DAY - 1)) };
  }).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

  const counters = new Map<string, number>();
  const docs: DocPlan[] = [];
  for (const plan of plans) {
    const type = rng.weighted(typesByFormat[plan.format]);
    const n = (counters.get(type) ?? 0) + 1;
    counters.set(type, n);
    const doc = generateDocument(plan, type, `${numberPrefix[type]}-${String(n).padStart(3, '0')}`);
    docs.push(doc);
  }

  function generateDocument(plan: { format: Format; status: Status; createdAt: Date }, type: string, number: string) {
    const { format, status, createdAt } = plan;
    const id = rng.id('doc');
    const author = rng.pick(team);
    const createdMs = createdAt.getTime();
    const details: Record<string, unknown> = {};
    const searchParts: string[] = [];
    let title: string;
    let description: string;
    let divisionTitle: string | null = null;
    let referenceNumber: string | null = null;
    const path = workflowPath[status];
    // Transition times spread over the time since creation.
    const span = Math.max(HOUR, Math.min(nowMs - createdMs - HOUR, rng.int(3, 60) * DAY));
    const stepTimes = path
      .map((_, i) => (i === 0 ? createdMs : createdMs + Math.floor((span * (i + rng.float() * 0.5)) / path.length)))
      .map((ms) => Math.min(ms, nowMs - MINUTE));

    switch (format) {
      case 'submittal': {
        const division = rng.pick(v.csiDivisions);
        const item = rng.pick(division.items);
        title = item;
        divisionTitle = division.title;
        const section = `${division.number} ${rng.int(10, 90)} ${String(rng.int(0, 9) * 10).padStart(2, '0')}`;
        referenceNumber = `${section}-${String(rng.int(1, 12)).padStart(2, '0')}`;
        details.specSection = section;
        details.package = `${division.title.split(' - ')[1]} package`;
        description = `${item} for ${project.name}, submitted per specification section ${section}.`;
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
      default:
        title = rng.pick(v.certificateTitles);
        details.period = dateOnly(createdAt).slice(0, 7);
        details.amount = rng.int(20, 900) * 1000;
        description = `${title} for ${details.period}.`;
    }

    // Consultants review submittals and answer RFIs.
    const docConsultants: Consultant[] =
      format === 'submittal' || format === 'rfi' ? rng.sample(consultants, rng.int(1, 3)) : [];
    const reviewed = path.includes('with-consultants') && status !== 'with-consultants';
    let respondedAtMs: number | null = null;
    for (const consultant of docConsultants) {
      const responded = reviewed || (status === 'with-consultants' && rng.chance(0.3));
      const respondedAt = responded ? at(stepTimes[path.indexOf('with-consultants')]! + rng.int(1, 96) * HOUR) : null;
      if (respondedAt) respondedAtMs = Math.max(respondedAtMs ?? 0, respondedAt.getTime());
      const response = responded ? rng.pick(v.consultantResponses) : null;
      rows.add(s.documentConsultants, {
        id: rng.id('con'),
        organizationId,
        documentId: id,
        type: consultant.type,
        company: consultant.company,
        responderName: consultant.name,
        responderEmail: consultant.email,
        status: responded ? 'responded' : path.includes('with-consultants') ? 'pending' : 'not-sent',
        response,
        respondedAt,
      });
      searchParts.push(consultant.name, consultant.email, response ?? '');
    }

    const assignees = rng.sample(
      team,
      rng.weighted({ 0: 1, 1: 6, 2: 3 } as Record<string, number>) === '0' ? 0 : rng.int(1, 2),
    );
    for (const person of assignees) {
      rows.add(s.documentAssignees, { organizationId, documentId: id, userId: person.id!, name: person.name });
    }
    if (format === 'submittal' || format === 'change' || format === 'certificate') {
      for (const person of rng.sample(team, rng.int(1, 2))) {
        const decided = closedStatuses.has(status) || status === 'locked' || status === 'returned';
        rows.add(s.documentApprovers, {
          organizationId,
          documentId: id,
          userId: person.id!,
          name: person.name,
          email: person.email,
          status: decided
            ? status === 'returned'
              ? 'rejected'
              : 'approved'
            : status === 'draft'
              ? 'not-started'
              : 'pending',
          respondedAt: decided ? new Date(stepTimes[stepTimes.length - 1]!) : null,
        });
      }
    }
    const distribution = [...rng.sample(team, rng.int(1, 3)), ...rng.sample(consultants, rng.int(0, 2))];
    for (const person of distribution) {
      rows.add(s.documentDistribution, {
        organizationId,
        documentId: id,
        email: person.email,
        userId: person.id,
        name: person.name,
        company: person.company,
      });
    }

    // Review runs and their findings on received submittals.
    if (format === 'submittal' && status !== 'draft' && rng.chance(0.45)) {
      const runCount = rng.chance(0.4) ? 2 : 1;
      let previous: string[] = [];
      for (let r = 0; r < runCount; r++) {
        const runId = rng.id('run');
        const startedAt = at(stepTimes[1]! + (r * 3 + 1) * HOUR);
        rows.add(s.reviewRuns, {
          id: runId,
          organizationId,
          documentId: id,
          startedAt,
          completedAt: at(startedAt.getTime() + rng.int(1, 10) * MINUTE),
        });
        // A later run supersedes the earlier findings: they are soft-deleted as of its start.
        if (r > 0) for (const findingId of previous) supersede.set(findingId, startedAt);
        previous = [];
        const sources = rng.sample([...v.findingTemplates.spec, ...v.findingTemplates.quality], rng.int(1, 4));
        for (const finding of sources) {
          const source = (v.findingTemplates.spec as readonly { key: string }[]).includes(finding) ? 'spec' : 'quality';
          const findingId = rng.id('fnd');
          previous.push(findingId);
          findingRows.push({
            id: findingId,
            organizationId,
            documentId: id,
            reviewRunId: runId,
            source,
            severity: finding.severity,
            title: finding.title,
            description: `${finding.title} in ${title.toLowerCase()} (${number}).`,
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

    // Comments, some mentioning a teammate, a few soft-deleted.
    const commentTimes: number[] = [];
    const commentCount = rng.weighted({ 0: 50, 1: 30, 2: 15, 3: 5 } as Record<string, number>);
    for (let c = 0; c < Number(commentCount); c++) {
      const author2 = rng.pick(team);
      const createdAtC = at(createdMs + rng.int(1, Math.max(1, Math.floor((nowMs - createdMs) / HOUR))) * HOUR);
      const mention = rng.chance(0.35) ? rng.pick(team) : null;
      const body = `${mention ? `@${mention.name} ` : ''}${rng.pick(v.commentBodies)}`;
      const deleted = rng.chance(0.04);
      const commentId = rng.id('cmt');
      rows.add(s.comments, {
        id: commentId,
        organizationId,
        projectId,
        documentId: id,
        authorId: author2.id!,
        body,
        createdAt: createdAtC,
        deletedAt: deleted ? at(createdAtC.getTime() + HOUR) : null,
      });
      if (mention) {
        rows.add(s.commentMentions, {
          id: rng.id('mnt'),
          organizationId,
          commentId,
          userId: mention.id!,
          createdAt: createdAtC,
          notifiedAt: at(createdAtC.getTime() + MINUTE),
          deletedAt: deleted ? at(createdAtC.getTime() + HOUR) : null,
        });
      }
      if (!deleted) searchParts.push(body);
      addActivity({
        documentId: id,
        actor: author2,
        action: 'comment_added',
        title: `${author2.name} commented on ${number}`,
        details: { commentId },
        createdAt: createdAtC,
      });
      commentTimes.push(createdAtC.getTime());
    }

    // The status history, one status_changed per step.
    addActivity({ documentId: id, actor: author, action: 'created', title: `Created ${number}`, createdAt });
    for (let i = 1; i < path.length; i++) {
      addActivity({
        documentId: id,
        actor: rng.pick(team),
        action: 'status_changed',
        title: `${number} status changed from ${path[i - 1]} to ${path[i]}`,
        details: { from: path[i - 1], to: path[i] },
        createdAt: new Date(stepTimes[i]!),
      });
    }

    // Issue e-mail when it left draft, consultant responses back to the team.
    const issuedIndex = path.findIndex((step) => step === 'submitted' || step === 'issued');
    const issuedAt = issuedIndex > 0 ? new Date(stepTimes[issuedIndex]!) : null;
    if (issuedAt && rng.chance(shape.dispatchRate)) {
      addDispatch({
        actionType: 'IssueDocument',
        sender: author,
        recipients: [...distribution, ...docConsultants],
        title: `${number} ${title} issued`,
        at: issuedAt,
        documentId: id,
        reserve: 0.35,
      });
    }
    if (respondedAtMs && rng.chance(shape.dispatchRate)) {
      const responder = docConsultants[0]!;
      addDispatch({
        actionType: format === 'rfi' ? 'ResponderResponse' : 'ReviewerResponse',
        sender: responder,
        recipients: assignees.length ? assignees : [author],
        title: `${responder.company} responded to ${number}`,
        at: new Date(respondedAtMs),
        documentId: id,
        reserve: 0.35,
      });
    }

    const lastMs = Math.max(stepTimes[stepTimes.length - 1]!, ...commentTimes, respondedAtMs ?? 0);
    const dueDate =
      format === 'bulletin' || format === 'certificate' || status === 'draft'
        ? null
        : dateOnly(new Date(createdMs + rng.int(5, 35) * DAY));
    const open = !terminalStatuses.has(status);
    const closedAt = closedStatuses.has(status) ? new Date(stepTimes[stepTimes.length - 1]!) : null;
    let ballInCourt: { userId?: string; name: string; company?: string } | null = null;
    if (format === 'submittal' && open && status !== 'draft') {
      const holder = status === 'with-consultants' && docConsultants[0] ? docConsultants[0] : (assignees[0] ?? author);
      ballInCourt = holder.id
        ? { userId: holder.id, name: holder.name, company: holder.company }
        : { name: holder.name, company: holder.company };
    }
    searchParts.push(description);
    rows.add(s.documents, {
      id,
      organizationId,
      projectId,
      number,
      format,
      type,
      title,
      description,
      status,
      priority:
        rng.weighted({ low: 2, normal: 5, high: 2, urgent: 1, none: 1 }) === 'none'
          ? null
          : rng.pick(['low', 'normal', 'normal', 'high', 'urgent']),
      dueDate,
      issuedAt,
      createdAt,
      updatedAt: new Date(lastMs),
      createdById: author.id,
      details,
      referenceNumber,
      divisionTitle,
      reviewStatus: format === 'submittal' ? reviewStatusFor(rng, status) : null,
      receivedAt: format === 'submittal' && issuedAt ? issuedAt : null,
      closedAt,
      ballInCourt,
      searchText: searchParts.filter(Boolean).join(' '),
    });
    return { id, number, title, format, type, status, createdAt, distribution, consultants: docConsultants };
  }

  // Reports: site reports and meeting minutes, several versions each; only the newest is latest.
  const reportKinds = ['site_report', 'meeting_minutes'] as const;
  for (let r = 0; r < shape.reportSeriesPerProject; r++) {
    const kind = reportKinds[r % 2]!;
    const seriesId = rng.id('rps');
    const versions = rng.int(1, 3);
    const dateMs = nowMs - (r + 1) * 7 * DAY;
    const author = rng.pick(team);
    const title =
      kind === 'site_report'
        ? `Site report ${dateOnly(new Date(dateMs))}`
        : `OAC meeting #${shape.reportSeriesPerProject - r}`;
    for (let version = 1; version <= versions; version++) {
      const latest = version === versions;
      const reportId = rng.id('rpt');
      const createdAt = new Date(dateMs + (version - 1) * DAY);
      const issued = !latest || rng.chance(0.8);
      const observations = rng.pick(v.reportObservations);
      const pdf = issued
        ? await pdfs.report(`${project.code} ${title}`, String(version), [project.name, observations])
        : null;
      rows.add(s.reports, {
        id: reportId,
        organizationId,
        projectId,
        seriesId,
        type: 'report',
        format: 'report',
        reportKind: kind,
        status: issued ? 'issued' : 'draft',
        title,
        date: new Date(dateMs),
        location: `${project.name} site office`,
        version: String(version),
        isLatestVersion: latest,
        createdAt,
        createdByName: author.name,
        observations,
        weather: rng.pick(v.weatherConditions),
        issuedAt: issued ? new Date(createdAt.getTime() + 2 * HOUR) : null,
        issuedByName: issued ? author.name : null,
        pdfBlobKey: pdf?.key ?? null,
      });
      const sectionTitles =
        kind === 'meeting_minutes'
          ? rng.sample(v.meetingSections, 4)
          : ['Work in progress', 'Safety', 'Quality', 'Deliveries'];
      sectionTitles.forEach((sectionTitle, position) => {
        rows.add(s.reportSections, {
          id: rng.id('rsc'),
          organizationId,
          reportId,
          position,
          title: sectionTitle,
          items: Array.from({ length: rng.int(1, 4) }, () => ({
            text: rng.pick([...v.reportObservations, ...v.commentBodies]),
            status: rng.pick(['open', 'closed', 'info']),
          })),
        });
      });
      if (kind === 'meeting_minutes') {
        for (const person of [...rng.sample(team, 3), ...rng.sample(consultants, 3)]) {
          rows.add(s.reportAttendees, {
            id: rng.id('rat'),
            organizationId,
            reportId,
            name: person.name,
            company: person.company,
            role: person.id ? 'Contractor' : (person as Consultant).type,
            present: rng.chance(0.85),
          });
        }
      }
      const readers = rng.sample(team, rng.int(2, 5));
      for (const person of readers) {
        rows.add(s.reportDistribution, {
          id: rng.id('rds'),
          organizationId,
          reportId,
          userId: person.id,
          name: person.name,
          email: person.email,
        });
      }
      if (issued) {
        addDispatch({
          actionType: 'ReportShare',
          sender: author,
          recipients: readers,
          title: `${title} v${version} shared`,
          at: new Date(createdAt.getTime() + 3 * HOUR),
          reportId,
          reserve: 0.15,
        });
      }
    }
  }

  // Drawings: packages by discipline, 1–3 revisions each as real PDFs; a few broken files.
  // Every project has the sheets tests and examples name (A-101, A-1010, S-201), plus a random set.
  const named = v.drawingSheets.filter((sheet) => ['A-101', 'A-1010', 'S-201'].includes(sheet.number));
  const sheets = [
    ...named,
    ...rng.sample(
      v.drawingSheets.filter((sheet) => !named.includes(sheet)),
      shape.drawingsPerProject - named.length,
    ),
  ];
  const packages = new Map<string, string>();
  const brokenKinds = ['missing', 'empty', 'not-pdf'] as const;
  let drawingIndex = 0;
  for (const sheet of [...sheets].sort((a, b) => a.number.localeCompare(b.number))) {
    let packageId = packages.get(sheet.discipline);
    if (!packageId) {
      packageId = rng.id('pkg');
      packages.set(sheet.discipline, packageId);
      rows.add(s.drawingPackages, {
        id: packageId,
        organizationId,
        projectId,
        name: `${sheet.discipline} set`,
        createdAt: new Date(nowMs - 400 * DAY),
      });
    }
    const drawingId = rng.id('drw');
    const createdAt = new Date(nowMs - rng.int(200, 400) * DAY);
    rows.add(s.drawings, {
      id: drawingId,
      organizationId,
      projectId,
      packageId,
      number: sheet.number,
      title: sheet.title,
      discipline: sheet.discipline,
      createdAt,
    });
    const revisions = rng.int(1, 3);
    const broken = drawingIndex < brokenKinds.length ? brokenKinds[drawingIndex] : undefined;
    drawingIndex++;
    for (let seq = 1; seq <= revisions; seq++) {
      const revision = String.fromCharCode(64 + seq);
      const uploadedAt = new Date(createdAt.getTime() + (seq - 1) * rng.int(10, 60) * DAY);
      let file: { key: string; size: number } | null;
      if (seq === revisions && broken === 'missing') {
        // Points at bytes that were never stored.
        file = { key: createHash('sha256').update(`missing ${drawingId}`).digest('hex'), size: 48_213 };
      } else if (seq === revisions && broken === 'empty') {
        file = await pdfs.raw('empty', Buffer.alloc(0));
      } else if (seq === revisions && broken === 'not-pdf') {
        file = await pdfs.raw('not-pdf', Buffer.from('This is a scanned fax, not a PDF file.\n'));
      } else {
        file = await pdfs.drawing(sheet, revision);
      }
      rows.add(s.drawingRevisions, {
        id: rng.id('rev'),
        organizationId,
        drawingId,
        revision,
        sequence: seq,
        blobKey: file.key,
        fileName: `${sheet.number}_Rev${revision}.pdf`,
        fileSize: file.size,
        uploadedAt,
      });
      addActivity({
        actor: rng.pick(team),
        action: 'file_uploaded',
        title: `Uploaded drawing ${sheet.number} revision ${revision}`,
        details: { drawingId, revision },
        createdAt: uploadedAt,
      });
    }
  }

  // Fill the e-mail budget with forwards and project invites.
  while (emailsLeft > 0) {
    if (rng.chance(0.2)) {
      addDispatch({
        actionType: 'ProjectInvite',
        sender: team[0]!,
        recipients: [...rng.sample(consultants, rng.int(2, consultants.length)), ...rng.sample(team, rng.int(3, 12))],
        title: `Invitation to ${project.name}`,
        at: new Date(nowMs - rng.int(1, 500) * DAY),
      });
    } else {
      const doc = rng.pick(docs);
      const sender = rng.pick(team);
      addDispatch({
        actionType: 'ForwardDocument',
        sender,
        recipients: rng.sample([...team, ...consultants], rng.int(1, 4)),
        title: `${sender.name} forwarded ${doc.number}`,
        at: at(doc.createdAt.getTime() + rng.int(1, 30 * 24) * HOUR),
        documentId: doc.id,
      });
    }
  }

  // Top activity up to the scale's volume with ordinary edits.
  while (activityCount < shape.activityPerProject) {
    const doc = rng.pick(docs);
    const actor = rng.pick(team);
    const action = rng.weighted({ file_uploaded: 5, assignee_added: 2, due_date_changed: 2, priority_changed: 1 });
    const createdAt = at(doc.createdAt.getTime() + rng.int(1, 90 * 24) * HOUR);
    const titles: Record<typeof action, string> = {
      file_uploaded: `Uploaded ${doc.number}_markup_${rng.int(1, 9)}.pdf`,
      assignee_added: `${actor.name} assigned ${doc.number}`,
      due_date_changed: `Due date of ${doc.number} changed`,
      priority_changed: `Priority of ${doc.number} changed`,
    };
    addActivity({ documentId: doc.id, actor, action, title: titles[action], createdAt });
  }

  for (const finding of findingRows)
    rows.add(s.reviewFindings, { ...finding, deletedAt: supersede.get(finding.id) ?? null });

  const attachment = await pdfs.raw('attachment', Buffer.from('Marked-up comments from the site walk.\n'));
  addFiledEmails(rng, shape, now, rows, { project, team, consultants, docs, attachment });
  return rows;
}

/** The project's e-mail filing history: threads with its consultants, subjects naming the project
 *  code or name or a document number, so project suggestions have something to learn from. */
function addFiledEmails(
  rng: Rng,
  shape: ScaleShape,
  now: Date,
  rows: RowSet,
  input: {
    project: ProjectPlan;
    team: Person[];
    consultants: Consultant[];
    docs: DocPlan[];
    attachment: { key: string; size: number };
  },
) {
  const { project, team, consultants, docs, attachment } = input;
  const organizationId = project.org.id;
  const nowMs = now.getTime();
  let filed = 0;
  while (filed < shape.filedEmailsPerProject) {
    const doc = rng.chance(0.6) ? rng.pick(docs) : null;
    const consultant = rng.pick(consultants);
    const member = rng.pick(team);
    const topic = doc
      ? `${doc.number} ${doc.title}`
      : rng.pick([
          `${project.code} weekly progress`,
          `${project.name} - site meeting notes`,
          `[${project.code}] Coordination drawings`,
          `${project.name}: inspection schedule`,
        ]);
    const conversationId = rng.id('cnv');
    const startMs = nowMs - rng.int(1, 400) * DAY;
    const threadLength = Math.min(rng.int(1, 3), shape.filedEmailsPerProject - filed);
    const messageIds: string[] = [];
    for (let i = 0; i < threadLength; i++) {
      const fromConsultant = i % 2 === 0;
      const from = fromConsultant ? consultant : member;
      const to = fromConsultant ? member : consultant;
      const messageId = `${hex(rng, 3)}@${from.email.split('@')[1]}`;
      const sentAt = new Date(startMs + i * rng.int(1, 48) * HOUR);
      const subject = `${i > 0 ? 'RE: ' : ''}${topic}`;
      const bodyText = `${to.name.split(' ')[0]},\n\n${rng.pick([...v.consultantResponses, ...v.commentBodies])}\n\nRegards,\n${from.name}\n${from.company}`;
      const hasAttachments = rng.chance(0.25);
      const id = rng.id('fem');
      rows.add(s.filedEmails, {
        id,
        organizationId,
        projectId: project.id,
        documentId: doc?.id ?? null,
        messageId,
        conversationId,
        inReplyTo: messageIds[messageIds.length - 1] ?? null,
        references: [...messageIds],
        subject,
        fromAddress: from.email,
        fromName: from.name,
        to: [{ address: to.email, name: to.name }],
        cc: rng.chance(0.4) ? [{ address: rng.pick(team).email }] : [],
        sentAt,
        bodyText,
        hasAttachments,
        filedById: member.id!,
        filedAt: new Date(sentAt.getTime() + rng.int(1, 120) * MINUTE),
        searchText: `${bodyText} ${from.name} ${from.email} ${to.name} ${to.email}`,
      });
      if (hasAttachments) {
        rows.add(s.filedEmailAttachments, {
          id: rng.id('att'),
          organizationId,
          filedEmailId: id,
          name: doc ? `${doc.number}_comments.txt` : 'site-walk-notes.txt',
          contentType: 'text/plain',
          size: attachment.size,
          blobKey: attachment.key,
          textContent: 'Marked-up comments from the site walk.',
        });
      }
      messageIds.push(messageId);
      filed++;
    }
  }
}

/** API keys the organizations use for integrations, with their scopes, usage counters and a few
 *  reference commands (with their idempotency records). Their secrets are never shown. */
export function generateIntegrations(rng: Rng, now: Date, platform: Platform, secretHash: string): RowSet {
  const rows = new RowSet();
  const nowMs = now.getTime();
  const endpoints = [
    'GET /v1/organization/:orgId/project/:projectId/document/submittals',
    'GET /v1/organization/:orgId/activity',
    'GET /v1/organization/:orgId/project/:projectId/comms',
    'GET /v1/organization/:orgId/directory',
    'GET /v1/client/me',
  ];
  for (const org of platform.orgs) {
    const orgProjects = platform.projects.filter((p) => p.org === org);
    const admin = org.people[0]!;
    const keys = [
      { name: 'Scheduling sync', permissions: ['document:read', 'organization:read', 'project:read'], projects: [] },
      {
        name: 'BI export',
        permissions: ['document:read', 'email:read', 'project:read'],
        projects: orgProjects.slice(0, 2),
      },
    ];
    keys.forEach((key, k) => {
      const id = rng.uuid();
      const clientId = rng.uuid();
      const createdAt = new Date(nowMs - (200 - k * 30) * DAY);
      rows.add(s.oauthClients, {
        id,
        clientId,
        secretHash,
        name: key.name,
        description: `${key.name} for ${org.name}`,
        permissions: key.permissions,
        createdBy: admin.email,
        createdByUserId: admin.id,
        createdAt,
        updatedAt: createdAt,
      });
      if (key.projects.length === 0) {
        rows.add(s.oauthClientOrgScopes, { clientRowId: id, organizationId: org.id, grantedAt: createdAt });
      }
      for (const project of key.projects) {
        rows.add(s.oauthClientProjectScopes, {
          clientRowId: id,
          organizationId: org.id,
          projectId: project.id,
          grantedAt: createdAt,
        });
      }
      for (const endpoint of rng.sample(endpoints, 3)) {
        const count = rng.int(20, 5_000);
        rows.add(s.requestUsage, { clientRowId: id, endpoint, count, totalMs: count * rng.int(8, 120) });
      }
      for (let c = 0; c < 2; c++) {
        const at = new Date(nowMs - rng.int(1, 20) * HOUR);
        const eventId = rng.id('evt');
        const entityId = `sync-${hex(rng, 1)}`;
        const idempotencyKey = rng.uuid();
        rows.add(s.commandEvents, {
          id: eventId,
          organizationId: org.id,
          callerKey: `client:${clientId}`,
          command: 'ping',
          entityId,
          note: 'nightly health check',
          createdAt: at,
        });
        rows.add(s.idempotencyRecords, {
          callerKey: `client:${clientId}`,
          idempotencyKey,
          organizationId: org.id,
          requestHash: createHash('sha256').update(`${entityId}:${idempotencyKey}`).digest('hex'),
          state: 'done',
          responseStatus: 200,
          responseHeaders: { 'content-type': 'application/json; charset=utf-8' },
          responseBody: Buffer.from(JSON.stringify({ eventId, status: 'applied', note: 'nightly health check' })),
          createdAt: at,
          expiresAt: new Date(at.getTime() + 24 * HOUR),
        });
      }
    });
  }
  return rows;
}
