import { createHash } from 'node:crypto';
import type { AddressObject, EmailAddress, ParsedMail } from 'mailparser';
import { type FileEmailJson, MAX_ATTACHMENTS } from '../../shared/filing.js';
import { ApiError } from '../errors.js';

/** One e-mail as the filing service stores it, whichever form (raw MIME or JSON) it came in. */
export interface IncomingEmail {
  messageId: string;
  messageIdGenerated: boolean;
  inReplyTo: string | null;
  /** References with In-Reply-To folded in: what thread linking matches on. */
  references: string[];
  subject: string;
  from: Address;
  to: Address[];
  cc: Address[];
  sentAt: Date | null;
  bodyText: string;
  bodyHtml: string | null;
  attachments: IncomingAttachment[];
  /** The message bytes kept as the original (.eml). */
  raw: Buffer;
}

export interface Address {
  address: string;
  name?: string;
}

export interface IncomingAttachment {
  name: string;
  contentType: string;
  content: Buffer;
}

const MAX_SUBJECT = 2000;
const MAX_RECIPIENTS = 500;

/** The part after the last `@`. */
export const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

/** `<ABC@Example.com>` → `abc@example.com`: the form Message-IDs are stored and compared in. */
export const normaliseMessageId = (value: string): string => value.trim().replace(/^<|>$/g, '').toLowerCase();

/** The first id of a header that may hold several (a folded `<a@b>\r\n <c@d>`), normalised. */
const firstMessageId = (value: string): string => normaliseMessageId(value.trim().split(/\s+/)[0] ?? '');

/**
 * PostgreSQL cannot store NUL in text or jsonb; a decoded body or header may hold one (binary data sent as
 * text, an unusual transfer encoding). The original keeps every byte; the stored text goes without them.
 */
const withoutNul = (text: string): string => (text.includes('\0') ? text.replaceAll('\0', '') : text);

/** Parses a raw RFC 822 message; anything that is not one is a 400, never a 500. */
export async function parseRawMessage(raw: Buffer): Promise<IncomingEmail> {
  // mailparser is loaded on the first .eml filed, not at start-up (a third of a second of every start).
  const { simpleParser } = await import('mailparser');
  let mail: ParsedMail;
  try {
    mail = await simpleParser(raw, { skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
  } catch (err) {
    throw ApiError.badRequest(`Malformed MIME message: ${(err as Error).message}`);
  }
  if (mail.headers.size === 0) throw ApiError.badRequest('Not an RFC 822 message: no header section found');
  const from = addressesOf(mail.from)[0];
  if (!from) throw ApiError.badRequest('The message has no From address');
  if (mail.attachments.length > MAX_ATTACHMENTS) {
    throw ApiError.badRequest(`The message has ${mail.attachments.length} attachments; at most ${MAX_ATTACHMENTS}`);
  }
  const to = addressesOf(mail.to).slice(0, MAX_RECIPIENTS);
  const cc = addressesOf(mail.cc).slice(0, MAX_RECIPIENTS);
  const subject = withoutNul(mail.subject ?? '').slice(0, MAX_SUBJECT);
  const sentAt = mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null;
  const bodyText = withoutNul(mail.text ?? '');
  const inReplyTo = mail.inReplyTo ? firstMessageId(withoutNul(mail.inReplyTo)) || null : null;
  const references = [
    ...new Set(
      [...[mail.references ?? []].flat().flatMap((r) => withoutNul(r).split(/\s+/)), ...(inReplyTo ? [inReplyTo] : [])]
        .map(normaliseMessageId)
        .filter(Boolean),
    ),
  ].slice(0, 200);
  const given = mail.messageId ? firstMessageId(withoutNul(mail.messageId)) : '';
  return {
    messageId: given || generatedMessageId({ from, to, cc, sentAt, subject, bodyText }),
    messageIdGenerated: !given,
    inReplyTo,
    references,
    subject,
    from,
    to,
    cc,
    sentAt,
    bodyText,
    bodyHtml: typeof mail.html === 'string' ? withoutNul(mail.html) : null,
    attachments: mail.attachments.map((a, i) => ({
      name:
        withoutNul(a.filename ?? '')
          .trim()
          .slice(0, 255) || `attachment-${i + 1}`,
      contentType: withoutNul(a.contentType).toLowerCase(),
      content: a.content,
    })),
    raw,
  };
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): Address[] {
  const flatten = (list: EmailAddress[]): EmailAddress[] => list.flatMap((a) => (a.group ? flatten(a.group) : [a]));
  return flatten([field ?? []].flat().flatMap((o) => o.value))
    .map((a) => ({ address: withoutNul(a.address ?? ''), name: withoutNul(a.name ?? '') }))
    .filter((a) => /^[^\s@]+@[^\s@]+$/.test(a.address))
    .map((a) => ({
      address: a.address.toLowerCase().slice(0, 320),
      ...(a.name ? { name: a.name.slice(0, 300) } : {}),
    }));
}

/**
 * A message without Message-ID gets one derived from what identifies it (sender, recipients, date,
 * subject, body), so filing the same message twice still finds the first copy.
 */
function generatedMessageId(m: Pick<IncomingEmail, 'from' | 'to' | 'cc' | 'sentAt' | 'subject' | 'bodyText'>) {
  const hash = createHash('sha256')
    .update(
      JSON.stringify([
        m.from.address,
        m.to.map((a) => a.address),
        m.cc.map((a) => a.address),
        m.sentAt?.toISOString() ?? null,
        m.subject,
        m.bodyText.trim(),
      ]),
    )
    .digest('hex')
    .slice(0, 40);
  return `${hash}@generated.sitefile.invalid`;
}

/**
 * The JSON form as a MIME message, so both forms go through the same parser and the original can be
 * downloaded as .eml. Every header value is encoded (RFC 2047 / 2231), so nothing in the JSON can add
 * header lines.
 */
export function composeMime(form: FileEmailJson, now: Date): Buffer {
  const boundary = `----sitefile-${createHash('sha256').update(now.toISOString()).digest('hex').slice(0, 24)}`;
  const headers: string[] = [
    `From: ${formatAddress(form.from)}`,
    ...(form.to.length ? [`To: ${form.to.map(formatAddress).join(',\r\n ')}`] : []),
    ...(form.cc.length ? [`Cc: ${form.cc.map(formatAddress).join(',\r\n ')}`] : []),
    `Subject: ${encodeWords(form.subject)}`,
    ...(form.sentAt ? [`Date: ${new Date(form.sentAt).toUTCString().replace('GMT', '+0000')}`] : []),
    ...(form.internetMessageId ? [`Message-ID: ${angle(form.internetMessageId)}`] : []),
    ...(form.inReplyTo ? [`In-Reply-To: ${angle(form.inReplyTo)}`] : []),
    ...(form.references?.length ? [`References: ${form.references.map(angle).join('\r\n ')}`] : []),
    'MIME-Version: 1.0',
  ];
  const bodyParts: string[] = [];
  if (form.bodyText !== undefined) bodyParts.push(textPart('text/plain', form.bodyText));
  if (form.bodyHtml !== undefined) bodyParts.push(textPart('text/html', form.bodyHtml));
  const body =
    bodyParts.length > 1
      ? multipart('alternative', `${boundary}-alt`, bodyParts)
      : (bodyParts[0] ?? textPart('text/plain', ''));
  const message =
    form.attachments.length === 0
      ? body
      : multipart('mixed', boundary, [
          body,
          ...form.attachments.map(
            (a) =>
              `Content-Type: ${a.contentType}\r\nContent-Disposition: attachment; filename*=UTF-8''${encodeURIComponent(a.name)}\r\nContent-Transfer-Encoding: base64\r\n\r\n${wrap(a.contentBase64.replace(/\s+/g, ''))}`,
          ),
        ]);
  return Buffer.from(`${headers.join('\r\n')}\r\n${message}`, 'utf8');
}

const angle = (id: string) => `<${id.replace(/^<|>$/g, '')}>`;

const formatAddress = (a: Address) => (a.name ? `${encodeWords(a.name)} <${a.address}>` : `<${a.address}>`);

/** RFC 2047 encoded words of at most 45 UTF-8 bytes each (never split inside a character). */
function encodeWords(text: string): string {
  if (text === '') return '';
  const words: string[] = [];
  let chunk = '';
  for (const char of text) {
    if (Buffer.byteLength(chunk + char) > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w).toString('base64')}?=`).join('\r\n ');
}

const wrap = (base64: string) => base64.replace(/.{1,76}/g, '$&\r\n');

const textPart = (type: string, text: string) =>
  `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${wrap(Buffer.from(text).toString('base64'))}`;

const multipart = (subtype: string, boundary: string, parts: string[]) =>
  `Content-Type: multipart/${subtype}; boundary="${boundary}"\r\n\r\n${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`;

/** Text worth indexing from an attachment: plain text and HTML (tags stripped), the first 100 000 characters. */
export function attachmentText(a: IncomingAttachment): string | null {
  const limit = 100_000;
  if (a.contentType === 'text/plain' || a.contentType === 'text/csv')
    return withoutNul(a.content.toString('utf8', 0, limit * 4)).slice(0, limit);
  if (a.contentType === 'text/html')
    return withoutNul(htmlToText(a.content.toString('utf8', 0, limit * 8))).slice(0, limit);
  return null;
}

export const htmlToText = (html: string): string =>
  html
    .replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Characters of a text body stored with the filing (and given back by its detail); the .eml keeps them all. A
 *  24 MB text body stored whole cost a 24 MB row and a bind buffer of that size per filing (issue 36). */
export const MAX_STORED_BODY_CHARS = 1_000_000;

/** The text body as stored: its first MAX_STORED_BODY_CHARS characters, never half a surrogate pair. */
export function clippedBody(text: string): { bodyText: string; bodyTextTruncated: boolean } {
  if (text.length <= MAX_STORED_BODY_CHARS) return { bodyText: text, bodyTextTruncated: false };
  const end = /[\uD800-\uDBFF]/.test(text[MAX_STORED_BODY_CHARS - 1] ?? '')
    ? MAX_STORED_BODY_CHARS - 1
    : MAX_STORED_BODY_CHARS;
  return { bodyText: text.slice(0, end), bodyTextTruncated: true };
}

// tsvector values are capped at 1 MB; the index keeps the first ~600 KB of text, the blob keeps it all.
const MAX_SEARCH_TEXT_BYTES = 600_000;

/** What the index searches: subject, participants (addresses, names and domains), body, attachments. */
export function searchTextOf(email: IncomingEmail, attachments: { name: string; text: string | null }[]): string {
  const people = [email.from, ...email.to, ...email.cc];
  const parts = [
    email.subject,
    ...people.flatMap((p) => [p.address, p.name ?? '', domainOf(p.address)]),
    // File names both whole (`schedule.txt` is one token) and split into words.
    ...attachments.flatMap((a) => [a.name, a.name.replace(/[._-]+/g, ' ')]),
    // A character is at least a byte: what lies past the cap in characters lies past it in bytes too.
    email.bodyText.slice(0, MAX_SEARCH_TEXT_BYTES),
    ...attachments.map((a) => a.text ?? ''),
  ];
  return truncateUtf8(parts.filter(Boolean).join('\n'), MAX_SEARCH_TEXT_BYTES);
}

function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  // Cutting inside a character leaves U+FFFD at the end, which the index ignores.
  return bytes.subarray(0, maxBytes).toString('utf8');
}
