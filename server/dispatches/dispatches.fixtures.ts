// Deterministic fixture rows for the activity, comms and e-mail tests, written through drizzle.
import type { Db } from '../db/connection.js';
import { activity, dispatches, emailMessages } from '../db/schema.js';

export type RecipientState = 'pending' | 'delivered' | 'opened' | 'bounced' | 'failed';

export interface RecipientSpec {
  email: string;
  name?: string;
  uid?: string | null;
  state: RecipientState;
}

export interface DispatchSpec {
  id: string;
  organizationId: string;
  projectId: string;
  actionType?: string;
  sender?: { id: string | null; name: string; email: string };
  dispatchedAt: Date;
  documentId?: string | null;
  reportId?: string | null;
  title?: string;
  recipients: RecipientSpec[];
  /** Defaults to one message id per dispatch (a multi-recipient send). */
  mailerMessageId?: string;
}

const plus = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);

/** The timestamps an e-mail has once it reached `state`. */
function eventsOf(state: RecipientState, at: Date) {
  return {
    sentAt: state === 'failed' ? null : at,
    sentToMailer: state === 'failed' ? null : at,
    send: state === 'failed' ? null : plus(at, 1),
    delivery: state === 'delivered' || state === 'opened' ? plus(at, 2) : null,
    firstOpened: state === 'opened' ? plus(at, 30) : null,
    lastOpened: state === 'opened' ? plus(at, 90) : null,
    bounce: state === 'bounced' ? plus(at, 3) : null,
    bounceType: state === 'bounced' ? 'Permanent' : null,
    bounceSubtype: state === 'bounced' ? 'General' : null,
    notSentReason: state === 'failed' ? 'suppressed' : null,
    notSent: state === 'failed' ? { reason: 'suppressed' } : null,
  };
}

/** A dispatch with its `email_sent` activity row and one e-mail row per recipient. */
export async function insertDispatch(db: Db, spec: DispatchSpec) {
  const sender = spec.sender ?? { id: 'usr_sender', name: 'Sid Sender', email: 'sid@harbor.test' };
  const actionType = spec.actionType ?? 'IssueDocument';
  const title = spec.title ?? `Dispatch ${spec.id}`;
  const activityId = `act_${spec.id}`;
  const mailerMessageId = spec.mailerMessageId ?? `msg_${spec.id}`;
  await db.insert(activity).values({
    id: activityId,
    organizationId: spec.organizationId,
    projectId: spec.projectId,
    documentId: spec.documentId ?? null,
    actorId: sender.id,
    actorName: sender.name,
    actorEmail: sender.email,
    action: 'email_sent',
    title,
    dispatchId: spec.id,
    createdAt: spec.dispatchedAt,
  });
  await db.insert(dispatches).values({
    id: spec.id,
    organizationId: spec.organizationId,
    projectId: spec.projectId,
    documentId: spec.documentId ?? null,
    reportId: spec.reportId ?? null,
    activityId,
    actionType,
    senderId: sender.id,
    senderName: sender.name,
    senderEmail: sender.email,
    title,
    dispatchedAt: spec.dispatchedAt,
    recipientCount: spec.recipients.length,
  });
  if (spec.recipients.length > 0) {
    await db.insert(emailMessages).values(
      spec.recipients.map((recipient, index) => ({
        id: `eml_${spec.id}_${index}`,
        organizationId: spec.organizationId,
        projectId: spec.projectId,
        dispatchId: spec.id,
        mailerMessageId,
        recipientEmail: recipient.email,
        recipientName: recipient.name ?? recipient.email.split('@')[0]!,
        recipientUid: recipient.uid ?? null,
        senderEmail: sender.email,
        senderName: sender.name,
        senderUid: sender.id,
        actionType,
        documentId: spec.documentId ?? null,
        activityTitle: title,
        createdAt: spec.dispatchedAt,
        ...eventsOf(recipient.state, spec.dispatchedAt),
      })),
    );
  }
  return { dispatchId: spec.id, activityId, mailerMessageId };
}
