import { z } from 'zod';
import {
  ChangedSince,
  Cursor,
  Id,
  listEnvelope,
  pageLimit,
  queryFlag,
  SyncTokenField,
  strictQuery,
  Timestamp,
} from './common.js';

/** E-mail filing: request and response schemas of the filing, lookup, search, detail and suggestion routes. */

/** Largest raw message (and largest sum of decoded attachments in the JSON form). */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
export const MAX_ATTACHMENTS = 100;
export const MAX_BODY_PREVIEW_BYTES = 8 * 1024;
/**
 * How much of an e-mail the server sends the AI provider, when an organization allows it: the first `bodyChars` of
 * the body, up to `attachmentNames` names, and the `candidates` projects the add-in suggests. The admin console's AI
 * switch tells these figures.
 */
export const AI_SENDS = { bodyChars: 1000, attachmentNames: 20, candidates: 5 } as const;

const utf8 = new TextEncoder();
const addressPattern = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+$/;

export const EmailAddress = z.object({
  address: z.string().max(320),
  name: z.string().max(300).optional(),
});

/** An address as the JSON form takes it: `a@b.com` or `{address, name}`; stored lower-cased. */
const AddressInput = z
  .union([z.string(), z.object({ address: z.string(), name: z.string().max(300).optional() })])
  .transform((value) => (typeof value === 'string' ? { address: value } : value))
  .pipe(
    z.object({
      address: z
        .string()
        .trim()
        .max(320)
        .regex(addressPattern, { error: 'must be an e-mail address' })
        .transform((a) => a.toLowerCase()),
      name: z.string().trim().max(300).optional(),
    }),
  );

const base64Pattern = /^[A-Za-z0-9+/\r\n]*={0,2}\s*$/;
const mediaTypePattern = /^[\w.+-]+\/[\w.+-]+$/;

export const JsonAttachment = z.object({
  name: z.string().trim().min(1).max(255),
  contentType: z
    .string()
    .trim()
    .toLowerCase()
    .regex(mediaTypePattern, { error: 'must be a media type such as application/pdf' }),
  contentBase64: z
    .string()
    .max(Math.ceil((MAX_MESSAGE_BYTES * 4) / 3) + 4)
    .regex(base64Pattern, {
      error: 'must be base64',
    }),
});

/** A Message-ID with or without angle brackets; no whitespace (it would smuggle header lines). */
const MessageIdInput = z
  .string()
  .trim()
  .min(1)
  .max(998)
  .regex(/^<?[^\s<>]+>?$/, { error: 'must be a Message-ID such as <abc@example.com>' });
const ConversationId = z.string().trim().min(1).max(500);
const Note = z.string().trim().max(2000);

/** The JSON form, for hosts that cannot hand over the raw message. */
export const FileEmailJson = z.strictObject({
  subject: z.string().max(2000),
  from: AddressInput,
  to: z.array(AddressInput).max(500).default([]),
  cc: z.array(AddressInput).max(500).default([]),
  sentAt: Timestamp.optional(),
  internetMessageId: MessageIdInput.optional(),
  conversationId: ConversationId.optional(),
  inReplyTo: MessageIdInput.optional(),
  references: z.array(MessageIdInput).max(200).optional(),
  bodyText: z.string().max(5_000_000).optional(),
  bodyHtml: z.string().max(10_000_000).optional(),
  attachments: z.array(JsonAttachment).max(MAX_ATTACHMENTS).default([]),
  documentId: Id.optional(),
  note: Note.optional(),
});
export type FileEmailJson = z.output<typeof FileEmailJson>;

/** Options of the raw (`message/rfc822`) form, which has no JSON body to carry them. */
export const FileEmailQuery = strictQuery({
  documentId: Id.optional(),
  note: Note.optional(),
  conversationId: ConversationId.optional().meta({ description: 'The Outlook conversation id of the message' }),
});

/** The raw message's bytes, as the route's parser reads them; documented as a binary string. */
export const RawMessage = z
  .custom<Uint8Array>((bytes) => bytes instanceof Uint8Array && bytes.length > 0, { error: 'The message is empty' })
  .meta({ description: 'The message as RFC 822 / MIME bytes', type: 'string', format: 'binary' });

/** Who filed an e-mail: a person, or an API key holding `email:file`. */
export const Filer = z
  .object({
    kind: z.enum(['person', 'apiKey']),
    id: z.string().meta({ description: 'The user id, or the API key id' }),
    name: z.string().meta({ description: "The person's name, or the key's" }),
    email: z.string().meta({ description: "The person's e-mail address, or that of the key's creator" }),
  })
  .meta({ id: 'Filer' });
export type Filer = z.output<typeof Filer>;

export const FiledEmailSummary = z.object({
  id: z.string(),
  organizationId: z.string(),
  projectId: z.string(),
  documentId: z.string().nullable(),
  internetMessageId: z.string().meta({ description: 'Normalised Message-ID (lower case, no angle brackets)' }),
  messageIdGenerated: z
    .boolean()
    .meta({ description: 'The message had no Message-ID: a stable one was generated from its headers' }),
  sentMessageId: z
    .string()
    .nullable()
    .meta({
      description:
        'Filed as it was sent (messageIdGenerated): the Message-ID the sent mail carries, once a copy of it told it; ' +
        'found by lookup and filing like internetMessageId',
    }),
  conversationId: z.string().nullable(),
  subject: z.string(),
  from: EmailAddress,
  to: z.array(EmailAddress),
  cc: z.array(EmailAddress),
  sentAt: Timestamp.nullable(),
  hasAttachments: z.boolean(),
  note: z.string().nullable(),
  filedBy: Filer,
  filedAt: Timestamp,
});
export type FiledEmailSummary = z.output<typeof FiledEmailSummary>;

export const AttachmentSummary = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});

const OtherFiling = z.object({
  filedEmailId: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  documentId: z.string().nullable(),
  filedBy: Filer,
  filedAt: Timestamp,
});

export const FileEmailResult = FiledEmailSummary.extend({
  duplicate: z.boolean().meta({
    description: 'true: this e-mail was already filed in this project; nothing changed but `linkedToDocument`',
  }),
  linkedToDocument: z.boolean().meta({
    description:
      'true: it was already filed here on no document, and this request put it on `documentId` (409 when it is on another)',
  }),
  attachments: z.array(AttachmentSummary),
  alsoFiledIn: z.array(OtherFiling).meta({ description: 'Other projects (in your scope) holding the same e-mail' }),
});

const SignedDownload = z.object({ url: z.string(), expiresAt: Timestamp });

const ThreadMessage = z.object({
  id: z.string(),
  projectId: z.string(),
  internetMessageId: z.string(),
  subject: z.string(),
  from: EmailAddress,
  sentAt: Timestamp.nullable(),
  filedAt: Timestamp,
});

export const FiledEmailDetail = FiledEmailSummary.extend({
  inReplyTo: z.string().nullable(),
  references: z.array(z.string()),
  bodyText: z.string(),
  bodyTextTruncated: z.boolean().meta({
    description:
      'True when the text body is longer than the 1,000,000 characters kept: the original (.eml) holds it all',
  }),
  original: SignedDownload.nullable().meta({ description: 'The message as received (.eml), a signed download' }),
  html: SignedDownload.nullable().meta({
    description: 'The HTML body as a download (never served as a page)',
  }),
  attachments: z.array(AttachmentSummary.extend({ download: SignedDownload })),
  thread: z.array(ThreadMessage).meta({ description: 'Other filed messages of the same thread, oldest first' }),
  alsoFiledIn: z.array(OtherFiling),
});

export const FiledEmailPath = z.object({ orgId: Id, projectId: Id, emailId: Id });

/** `from,to` as YYYY-MM-DD (either side may be empty). */
const DateRange = z
  .string()
  .max(25)
  .regex(/^(\d{4}-\d{2}-\d{2})?,(\d{4}-\d{2}-\d{2})?$/, { error: 'must be from,to as YYYY-MM-DD' })
  .transform((value) => {
    const [from, to] = value.split(',');
    return { from: from || undefined, to: to || undefined };
  })
  .refine((r) => [r.from, r.to].every((d) => d === undefined || !Number.isNaN(Date.parse(`${d}T00:00:00Z`))), {
    error: 'not a calendar date',
  });

export const FiledEmailListQuery = strictQuery({
  cursor: Cursor,
  limit: pageLimit(25),
  search: z.string().trim().min(1).max(500).optional().meta({
    description: 'Full text over subject, body, participants and attachment names and text',
  }),
  from: z.string().trim().toLowerCase().min(1).max(320).optional().meta({ description: 'Sender address (exact)' }),
  to: z.string().trim().toLowerCase().min(1).max(320).optional().meta({ description: 'A To or Cc address (exact)' }),
  documentId: Id.optional(),
  hasAttachments: queryFlag(),
  sentAt: DateRange.optional().meta({ description: 'Sent-date range `from,to` (YYYY-MM-DD, inclusive)' }),
  'filter.changedSince': ChangedSince,
});

export const FiledEmailList = listEnvelope(FiledEmailSummary).extend({ syncToken: SyncTokenField });

/** A filed e-mail found by the search over every project in scope: it names its project. */
export const FiledEmailFound = FiledEmailSummary.extend({ projectName: z.string() });
export const FiledEmailFoundList = listEnvelope(FiledEmailFound).extend({ syncToken: SyncTokenField });

export const LookupQuery = strictQuery({
  internetMessageId: MessageIdInput,
  from: AddressInput.optional().meta({
    description:
      'With subject and sentAt: also find the filing made as this e-mail was sent, before it had this Message-ID',
  }),
  subject: z.string().max(2000).optional().meta({ description: 'The subject of this copy (with from and sentAt)' }),
  sentAt: Timestamp.optional().meta({ description: 'When this copy was sent or arrived (with from and subject)' }),
  conversationId: ConversationId.optional().meta({
    description: 'The Outlook conversation: the answer also tells where the rest of it is filed (`conversation`)',
  }),
});

/** The Message-ID the transport gave an e-mail that was filed as it was sent, told by the sender's sent copy. */
export const SentMessageIdBody = z.strictObject({ internetMessageId: MessageIdInput });

export const MoveFiledEmailBody = z
  .strictObject({
    projectId: Id.meta({ description: 'The project (of the same organization) to move the filed e-mail into' }),
    documentId: Id.optional().meta({ description: "One of that project's documents to put it on" }),
  })
  .meta({ id: 'MoveFiledEmail' });

const LookupFiling = OtherFiling.extend({
  organizationId: z.string(),
  documentNumber: z.string().nullable(),
  documentTitle: z.string().nullable().meta({
    description: 'The document’s title: RFI numbers repeat across projects, titles tell them apart',
  }),
});

export const LookupResult = z.object({
  internetMessageId: z.string(),
  filings: z.array(LookupFiling),
  conversation: z.array(LookupFiling).meta({
    description:
      'With conversationId: the latest filing of other messages of this conversation per project (and document) ' +
      'in your scope, newest first, at most 10 — where a reply belongs',
  }),
});

export const SuggestionRequest = z.strictObject({
  internetMessageId: MessageIdInput.optional(),
  conversationId: ConversationId.optional(),
  subject: z.string().max(2000),
  from: AddressInput,
  to: z.array(AddressInput).max(500).default([]),
  cc: z.array(AddressInput).max(500).default([]),
  bodyPreview: z
    .string()
    .default('')
    .refine((s) => utf8.encode(s).length <= MAX_BODY_PREVIEW_BYTES, {
      error: `must be at most ${MAX_BODY_PREVIEW_BYTES} bytes`,
    }),
  attachmentNames: z.array(z.string().max(255)).max(MAX_ATTACHMENTS).default([]),
  allowAi: z.boolean().optional().meta({
    description:
      "The user's own opt-out: false keeps this request local. It can never turn AI on: only the organization's aiSuggest setting does.",
  }),
});
export type SuggestionRequest = z.output<typeof SuggestionRequest>;

/**
 * The score from which the add-in preselects the top suggestion. On the held-out corpora, first suggestions scored at
 * least this are right 95–100 % of the time; below it the person picks from the top choices (nothing is preselected).
 */
export const LIKELY_SCORE = 0.8;

export const Suggestion = z.object({
  organizationId: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  documentId: z.string().optional(),
  documentNumber: z.string().optional(),
  documentTitle: z.string().optional().meta({ description: 'The suggested document’s title (numbers repeat)' }),
  score: z.number().min(0).max(1),
  decidedBy: z
    .enum([
      'thread',
      'job-number',
      'project-name',
      'document-number',
      'project-field',
      'filed-content',
      'history',
      'directory',
      'ai',
    ])
    .meta({ description: 'The clue that decided this suggestion; `reasons[0]` says it in words.' }),
  reasons: z.array(z.string()),
});
export type Suggestion = z.output<typeof Suggestion>;

export const SuggestionResult = z.object({
  suggestions: z.array(Suggestion),
  source: z.enum(['local', 'local+ai']),
  aiUsed: z.boolean(),
});
