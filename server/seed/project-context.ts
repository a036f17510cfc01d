// What every phase of one project's generation shares: its random stream, its people, the rows
// written so far, the activity count and the e-mail budget, and the activity and dispatch rows
// that all phases add.
import { activityRow } from '../activity/queries.js';
import * as s from '../db/schema.js';
import {
  asciiEmail,
  type Consultant,
  type DocPlan,
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

/** Shares of the e-mail budget each phase must leave for the ones after it. */
export const RESERVE_AFTER_DOCUMENTS = 0.35;
export const RESERVE_AFTER_REPORTS = 0.15;

export class ProjectContext {
  readonly rows = new RowSet();
  readonly organizationId: string;
  readonly nowMs: number;
  readonly team: Person[];
  readonly consultants: Consultant[];
  /** The documents written so far, for the phases that refer to them. */
  readonly docs: DocPlan[] = [];
  readonly findings: (typeof s.reviewFindings.$inferInsert)[] = [];
  /** Finding id → when a later review run soft-deleted it. */
  readonly superseded = new Map<string, Date>();
  activityCount = 0;
  emailsLeft: number;

  constructor(
    readonly rng: Rng,
    readonly shape: ScaleShape,
    now: Date,
    readonly project: ProjectPlan,
    readonly pdfs: PdfCache,
  ) {
    this.organizationId = project.org.id;
    this.nowMs = now.getTime();
    this.emailsLeft = shape.emailsPerProject;
    this.team = this.pickTeam();
    this.consultants = this.makeConsultants();
  }

  /** A time no later than a minute before `now`. */
  at(ms: number): Date {
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

  addActivity(input: ActivityInput): string {
    const id = this.rng.id('act');
    this.activityCount++;
    const entry = { ...input, organizationId: this.organizationId, projectId: this.project.id, at: input.createdAt };
    this.rows.add(s.activity, activityRow(id, entry));
    return id;
  }

  /** A dispatch with its `email_sent` activity and one e-mail record per recipient (within budget). */
  addDispatch(input: DispatchInput): void {
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
}
