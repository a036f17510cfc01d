// The phases that fill the scale's volumes once documents, reports and drawings exist: the rest of
// the e-mail budget, the rest of the activity, and the filed e-mail history.
import * as s from '../db/schema.js';
import { DAY, type DocPlan, HOUR, hex, MINUTE, type Person } from './model.js';
import type { ProjectContext } from './project-context.js';
import * as v from './vocabulary.js';

/** The rest of the e-mail budget goes to forwarded documents and project invitations. */
export function fillEmailBudget(ctx: ProjectContext): void {
  const { rng, team, consultants } = ctx;
  while (ctx.emailsLeft > 0) {
    if (rng.chance(0.2)) {
      ctx.addDispatch({
        actionType: 'ProjectInvite',
        sender: team[0]!,
        recipients: [...rng.sample(consultants, rng.int(2, consultants.length)), ...rng.sample(team, rng.int(3, 12))],
        title: `Invitation to ${ctx.project.name}`,
        at: new Date(ctx.nowMs - rng.int(1, 500) * DAY),
      });
    } else {
      const doc = rng.pick(ctx.docs);
      const sender = rng.pick(team);
      ctx.addDispatch({
        actionType: 'ForwardDocument',
        sender,
        recipients: rng.sample([...team, ...consultants], rng.int(1, 4)),
        title: `${sender.name} forwarded ${doc.number}`,
        at: ctx.at(doc.createdAt.getTime() + rng.int(1, 30 * 24) * HOUR),
        documentId: doc.id,
      });
    }
  }
}

/** Tops activity up to the scale's volume with ordinary edits. */
export function fillActivity(ctx: ProjectContext): void {
  const { rng } = ctx;
  while (ctx.activityCount < ctx.shape.activityPerProject) {
    const doc = rng.pick(ctx.docs);
    const actor = rng.pick(ctx.team);
    const action = rng.weighted({ file_uploaded: 5, assignee_added: 2, due_date_changed: 2, priority_changed: 1 });
    const titles: Record<typeof action, string> = {
      file_uploaded: `Uploaded ${doc.number}_markup_${rng.int(1, 9)}.pdf`,
      assignee_added: `${actor.name} assigned ${doc.number}`,
      due_date_changed: `Due date of ${doc.number} changed`,
      priority_changed: `Priority of ${doc.number} changed`,
    };
    ctx.addActivity({
      documentId: doc.id,
      actor,
      action,
      title: titles[action],
      createdAt: ctx.at(doc.createdAt.getTime() + rng.int(1, 90 * 24) * HOUR),
    });
  }
}

/** Threads with the project's consultants whose subjects name the project code or name or a
 * document number, so project suggestions have history to learn from. */
export async function addFiledEmails(ctx: ProjectContext): Promise<void> {
  const { rng, project } = ctx;
  const attachment = await ctx.pdfs.raw('attachment', Buffer.from('Marked-up comments from the site walk.\n'));
  let filed = 0;
  while (filed < ctx.shape.filedEmailsPerProject) {
    const doc = rng.chance(0.6) ? rng.pick(ctx.docs) : null;
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
      consultant: rng.pick(ctx.consultants),
      member: rng.pick(ctx.team),
      startMs: ctx.nowMs - rng.int(1, 400) * DAY,
      topic,
      doc,
    };
    const length = Math.min(rng.int(1, 3), ctx.shape.filedEmailsPerProject - filed);
    const messageIds: string[] = [];
    for (let i = 0; i < length; i++) messageIds.push(addFiledEmail(ctx, thread, i, messageIds, attachment));
    filed += length;
  }
}

/** Message `i` of a thread (consultant and team member take turns); returns its Message-ID. */
function addFiledEmail(
  ctx: ProjectContext,
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
  const { rng } = ctx;
  const [from, to] = i % 2 === 0 ? [thread.consultant, thread.member] : [thread.member, thread.consultant];
  const messageId = `${hex(rng, 3)}@${from.email.split('@')[1]}`;
  const sentAt = new Date(thread.startMs + i * rng.int(1, 48) * HOUR);
  const bodyText = `${to.name.split(' ')[0]},\n\n${rng.pick([...v.consultantResponses, ...v.commentBodies])}\n\nRegards,\n${from.name}\n${from.company}`;
  const hasAttachments = rng.chance(0.25);
  const id = rng.id('fem');
  ctx.rows.add(s.filedEmails, {
    id,
    organizationId: ctx.organizationId,
    projectId: ctx.project.id,
    documentId: thread.doc?.id ?? null,
    messageId,
    conversationId: thread.conversationId,
    inReplyTo: earlier[earlier.length - 1] ?? null,
    references: [...earlier],
    subject: `${i > 0 ? 'RE: ' : ''}${thread.topic}`,
    fromAddress: from.email,
    fromName: from.name,
    to: [{ address: to.email, name: to.name }],
    cc: rng.chance(0.4) ? [{ address: rng.pick(ctx.team).email }] : [],
    sentAt,
    bodyText,
    hasAttachments,
    filedById: thread.member.id!,
    filedAt: new Date(sentAt.getTime() + rng.int(1, 120) * MINUTE),
    searchText: `${bodyText} ${from.name} ${from.email} ${to.name} ${to.email}`,
  });
  if (hasAttachments) {
    ctx.rows.add(s.filedEmailAttachments, {
      id: rng.id('att'),
      organizationId: ctx.organizationId,
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
