import { z } from 'zod';
import { Id, Timestamp } from '../../shared/common.js';
import { EmailRecord } from '../../shared/emails.js';
import { createdAtPosition, cursorPosition, cutPage, type KeysetPosition, keysetCursor } from '../cursor.js';
import { inclusiveWindow } from '../date-window.js';
import { toEmailRecord } from '../dispatches/queries.js';
import { ApiError } from '../errors.js';
import { emailDeliveryStatuses } from '../explorer/entities.js';
import { explorerScope } from '../explorer/service.js';
import { type EmailSearchRow, emailsForTimeline, searchEmails } from './queries.js';
import { documentScope, messageScope, projectScope } from './scope.js';
import type { ToolSpec } from './tools.js';

const DateOrTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
const cursorField = z.string().min(1).max(2000).optional().describe('nextCursor from the previous call');

const EmailsSearchInput = z
  .object({
    organizationId: Id.optional().describe('Search one organization; default: all of yours'),
    projectId: Id.optional().describe('Only e-mails of this project'),
    documentId: Id.optional().describe('Only e-mails about this document (uid)'),
    text: z.string().min(1).max(500).optional().describe('Words in the subject (activity title), e.g. "RFI-012"'),
    sender: z.string().min(1).max(320).optional().describe('Part of the sender e-mail or name'),
    recipient: z.string().min(1).max(320).optional().describe('Part of the recipient e-mail or name'),
    from: DateOrTime.optional().describe('Sent on or after (YYYY-MM-DD or ISO date-time)'),
    to: DateOrTime.optional().describe('Sent on or before (YYYY-MM-DD means through the end of that day)'),
    status: z.array(z.enum(emailDeliveryStatuses)).min(1).max(5).optional().describe('Delivery status, any of'),
    limit: z.number().int().min(1).max(50).default(20),
    cursor: cursorField,
  })
  .strict();

const EmailHit = EmailRecord.extend({ deliveryStatus: z.enum(emailDeliveryStatuses) });
const EmailsSearchOutput = z.object({
  data: z.array(EmailHit),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});

/** A search record's place: its sentAt (null: unsent, after every sent one) and id. */
const sentAtPosition = (row: EmailSearchRow): KeysetPosition<string | null> => ({
  key: row.sentAt?.toISOString() ?? null,
  id: row.id,
});

const toHit = (row: EmailSearchRow) => ({
  ...toEmailRecord(row),
  deliveryStatus: row.deliveryStatus as (typeof emailDeliveryStatuses)[number],
});

export const emailsSearchTool: ToolSpec<typeof EmailsSearchInput, typeof EmailsSearchOutput> = {
  name: 'emails_search',
  title: 'Search sent e-mails',
  description: `Search the e-mails Sitefile sent for your projects (one record per recipient), newest first.
Filter by subject words, sender, recipient, project, document, date range and delivery status
(delivered, opened, bounced, pending, failed). Each record's mailerMessageId works with
GET /v1/email/{mailerMessageId} and with emails_timeline. Up to 50 per call; pass nextCursor back as cursor for more.`,
  permission: 'email:read',
  input: EmailsSearchInput,
  output: EmailsSearchOutput,
  async run(args, { app, caller }) {
    const scope = args.documentId
      ? await documentScope(app.db, caller, args.documentId)
      : args.projectId
        ? await projectScope(app.db, caller, args.projectId)
        : explorerScope(caller, args.organizationId);
    if (args.organizationId && scope[0]?.orgId !== args.organizationId) {
      throw ApiError.badRequest('The project or document is not in organizationId');
    }
    const { cursor, limit, ...filters } = args;
    const binding = { tool: 'emails_search', filters };
    const after = cursorPosition(app.cursorKey, cursor, binding, 'timestamp or null');
    const rows = await searchEmails(app.db, {
      scope,
      projectId: args.projectId,
      documentId: args.documentId,
      text: args.text,
      sender: args.sender,
      recipient: args.recipient,
      sent: inclusiveWindow(args.from, args.to),
      statuses: args.status,
      limit,
      after,
    });
    const { page, hasMore, nextCursor } = cutPage(rows, limit, keysetCursor(app.cursorKey, binding, sentAtPosition));
    return { data: page.map(toHit), hasMore, nextCursor };
  },
};

const EmailsTimelineInput = z
  .object({
    documentId: Id.optional().describe('Timeline of every e-mail about this document (uid)'),
    projectId: Id.optional().describe('Timeline of every e-mail of this project'),
    mailerMessageId: Id.optional().describe('Timeline of one sent message (all its recipients)'),
    limit: z.number().int().min(1).max(100).default(50).describe('E-mail records per page (each gives 1-4 events)'),
    cursor: cursorField,
  })
  .strict();

const timelineEvents = ['sent', 'delivered', 'opened', 'bounced', 'failed'] as const;
const TimelineEvent = z.object({
  at: Timestamp,
  event: z.enum(timelineEvents),
  mailerMessageId: z.string(),
  recipientEmail: z.string(),
  recipientName: z.string(),
  senderEmail: z.string(),
  activityTitle: z.string(),
  documentId: z.string().nullable(),
  projectId: z.string(),
  detail: z.string().nullable().describe('Bounce type/subtype or why it was not sent'),
});
const EmailsTimelineOutput = z.object({
  events: z.array(TimelineEvent),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});

type TimelineEvent = z.infer<typeof TimelineEvent>;

function eventsOf(row: EmailSearchRow): TimelineEvent[] {
  const common = {
    mailerMessageId: row.mailerMessageId,
    recipientEmail: row.recipientEmail,
    recipientName: row.recipientName,
    senderEmail: row.senderEmail,
    activityTitle: row.activityTitle,
    documentId: row.documentId,
    projectId: row.projectId,
  };
  const events: TimelineEvent[] = [];
  const add = (event: TimelineEvent['event'], at: Date | null, detail: string | null = null) => {
    if (at) events.push({ ...common, at: at.toISOString(), event, detail });
  };
  add('sent', row.sentAt ?? row.send ?? row.sentToMailer);
  add('delivered', row.delivery);
  add('opened', row.firstOpened);
  add('bounced', row.bounce, [row.bounceType, row.bounceSubtype].filter(Boolean).join(' / ') || null);
  if (row.notSentReason || row.notSent) add('failed', row.createdAt, row.notSentReason ?? 'not sent');
  return events;
}

export const emailsTimelineTool: ToolSpec<typeof EmailsTimelineInput, typeof EmailsTimelineOutput> = {
  name: 'emails_timeline',
  title: 'E-mail delivery timeline',
  description: `The chronological delivery story of e-mails: sent → delivered → opened, or bounced / failed, per recipient.
Give exactly one of documentId, projectId or mailerMessageId (from emails_search). Events are oldest first;
pages hold up to 100 e-mail records — pass nextCursor back as cursor for the next page.`,
  permission: 'email:read',
  input: EmailsTimelineInput,
  output: EmailsTimelineOutput,
  async run(args, { app, caller }) {
    const given = [args.documentId, args.projectId, args.mailerMessageId].filter(Boolean).length;
    if (given !== 1) throw ApiError.badRequest('Give exactly one of documentId, projectId or mailerMessageId');
    const scope = args.documentId
      ? await documentScope(app.db, caller, args.documentId)
      : args.projectId
        ? await projectScope(app.db, caller, args.projectId)
        : await messageScope(app.db, caller, args.mailerMessageId!);
    const { cursor, limit, ...subject } = args;
    const binding = { tool: 'emails_timeline', subject };
    const after = cursorPosition(app.cursorKey, cursor, binding, 'timestamp');
    const rows = await emailsForTimeline(app.db, { scope, ...subject, limit, after });
    const { page, hasMore, nextCursor } = cutPage(rows, limit, keysetCursor(app.cursorKey, binding, createdAtPosition));
    return { events: page.flatMap(eventsOf).sort((a, b) => a.at.localeCompare(b.at)), hasMore, nextCursor };
  },
};
