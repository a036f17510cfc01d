import { MAX_BODY_PREVIEW_BYTES, MAX_MESSAGE_BYTES } from '../../shared/filing.js';
import type { ApiClient, FileTarget } from '../api/client.js';
import type { MailAttachment, OpenMessage } from '../office/mailbox.js';
import type { HeldItemHost, MailHost } from './mail-host.js';

/** Longest body text the JSON form carries (the server's limit is higher; e-mails rarely come close). */
const MAX_BODY_TEXT_CHARS = 2_000_000;

export type FilingStep = 'reading' | 'uploading';

/** At most `maxBytes` of UTF-8, cut on a character boundary (never inside a surrogate pair). */
export function cutToBytes(text: string, maxBytes: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(text).length <= maxBytes) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (encoder.encode(text.slice(0, mid)).length <= maxBytes) low = mid;
    else high = mid - 1;
  }
  const lastUnit = text.charCodeAt(low - 1);
  return text.slice(0, lastUnit >= 0xd800 && lastUnit <= 0xdbff ? low - 1 : low);
}

/**
 * What the suggestion ranking sees: header fields, an 8 KB body preview and attachment names. Whether any of
 * it may reach an AI service is the organization's aiSuggest setting, enforced by the server.
 */
export async function suggestionRequest(host: MailHost, message: OpenMessage) {
  const body = await host.readBodyText(MAX_BODY_PREVIEW_BYTES);
  return {
    internetMessageId: message.internetMessageId,
    conversationId: message.conversationId,
    subject: message.subject,
    from: message.from ?? { address: 'unknown@invalid' },
    to: message.to,
    cc: message.cc,
    bodyPreview: cutToBytes(body, MAX_BODY_PREVIEW_BYTES),
    attachmentNames: message.attachments.filter((a) => !a.isInline).map((a) => a.name),
  };
}

/**
 * Where the open e-mail is filed already, and the rest of its conversation. A received e-mail also sends its
 * sender, subject and time: a colleague's filing made as it was sent (before the transport gave it this
 * Message-ID) is recognised by them.
 */
export function lookupFilings(api: ApiClient, message: OpenMessage) {
  if (!message.internetMessageId) return Promise.resolve(undefined);
  const copy =
    message.mode === 'read' && message.from && message.sentAt
      ? { from: message.from.address, subject: message.subject, sentAt: message.sentAt }
      : undefined;
  return api.lookup(message.internetMessageId, { copy, conversationId: message.conversationId });
}

export const fileableAttachments = (message: OpenMessage) => message.attachments.filter((a) => !a.isInline);

/**
 * Room for the headers of the whole message (Received chains, DKIM signatures, the MIME part headers): more than an
 * e-mail's headers usually take, so an e-mail near the limit goes the way that surely fits.
 */
const HEADER_ALLOWANCE_BYTES = 64 * 1024;

/**
 * How the e-mail will travel and the bytes that count against the server's limit there. The whole message (MIME,
 * Mailbox 1.14, every attachment chosen) carries its headers, its bodies and its attachments (inline images too),
 * encoded in lines of 76: a third larger and more, so it is sent that way only when the whole of it fits; otherwise
 * the JSON form, whose limit counts the attachments' decoded bytes. `bodyBytes`: the text and HTML bodies in UTF-8.
 */
export function sendingPlan(
  message: OpenMessage,
  chosen: ReadonlySet<string>,
  rawPossible: boolean,
  bodyBytes: number,
): { path: 'raw' | 'form'; bytes: number; fits: boolean } {
  const attachments = fileableAttachments(message);
  const decoded = attachments.filter((a) => chosen.has(a.id)).reduce((sum, a) => sum + a.size, 0);
  const everyAttachment = attachments.every((a) => chosen.has(a.id));
  if (everyAttachment && message.mode === 'read' && rawPossible) {
    const encoded =
      HEADER_ALLOWANCE_BYTES +
      base64LineSize(bodyBytes) +
      message.attachments.reduce((sum, a) => sum + base64LineSize(a.size), 0);
    if (encoded <= MAX_MESSAGE_BYTES) return { path: 'raw', bytes: encoded, fits: true };
  }
  return { path: 'form', bytes: decoded, fits: decoded <= MAX_MESSAGE_BYTES };
}

/** The bytes of the open e-mail's text and HTML bodies in UTF-8 (what the whole message carries besides its files). */
export async function bodyBytesOf(host: Pick<MailHost, 'readBodyText' | 'readBodyHtml'>): Promise<number> {
  const [text, html] = await Promise.all([host.readBodyText(MAX_BODY_TEXT_CHARS), host.readBodyHtml()]);
  const encoder = new TextEncoder();
  return encoder.encode(text).length + encoder.encode(html).length;
}

/** Bytes of `size` bytes in MIME's base64: 4 characters per 3 bytes, CRLF after every 76. */
const base64LineSize = (size: number) => {
  const chars = Math.ceil(size / 3) * 4;
  return chars + Math.ceil(chars / 76) * 2;
};

/** The attachments to untick, largest first, so that the rest fits what Sitefile accepts. */
export function largestToLeaveOut(message: OpenMessage, chosen: ReadonlySet<string>): string[] {
  const kept = fileableAttachments(message)
    .filter((a) => chosen.has(a.id))
    .sort((a, b) => b.size - a.size);
  let total = kept.reduce((sum, a) => sum + a.size, 0);
  const out: string[] = [];
  for (const a of kept) {
    if (total <= MAX_MESSAGE_BYTES) break;
    out.push(a.id);
    total -= a.size;
  }
  return out;
}

/**
 * Files the open e-mail: as the original MIME message or as the JSON form built from the item's fields and the
 * chosen attachments, as `sendingPlan` decides.
 */
export async function fileOpenMessage(
  api: ApiClient,
  host: Pick<
    HeldItemHost,
    'canReadRawMessage' | 'readRawMessageBase64' | 'readBodyText' | 'readBodyHtml' | 'readAttachmentBase64'
  >,
  message: OpenMessage,
  target: FileTarget,
  chosenAttachmentIds: ReadonlySet<string>,
  onStep: (step: FilingStep) => void,
) {
  if (!message.from) throw new Error('This e-mail has no sender, so it cannot be filed.');
  onStep('reading');
  const attachments = fileableAttachments(message);
  // A draft (filed as it is sent) has no MIME form yet: it always goes as the JSON form. The whole message, once
  // read, is sent only if it fits after all (its size was estimated); otherwise the form, which counts less.
  const rawPossible = message.mode === 'read' && host.canReadRawMessage();
  if (rawPossible && sendingPlan(message, chosenAttachmentIds, true, await bodyBytesOf(host)).path === 'raw') {
    const mime = base64ToBytes(await host.readRawMessageBase64());
    if (mime.length <= MAX_MESSAGE_BYTES) {
      onStep('uploading');
      return api.fileRaw(target, mime, message.conversationId);
    }
  }
  const chosen = attachments.filter((a) => chosenAttachmentIds.has(a.id));
  const [bodyText, bodyHtml, contents] = await Promise.all([
    host.readBodyText(MAX_BODY_TEXT_CHARS),
    host.readBodyHtml(),
    Promise.all(chosen.map((a) => readAttachment(host, a))),
  ]);
  onStep('uploading');
  return api.fileForm(target, {
    subject: message.subject,
    from: message.from,
    to: message.to,
    cc: message.cc,
    sentAt: message.sentAt,
    internetMessageId: message.internetMessageId,
    conversationId: message.conversationId,
    bodyText,
    bodyHtml,
    attachments: chosen.map((a, i) => ({ name: a.name, contentType: a.contentType, contentBase64: contents[i]! })),
  });
}

/** Outlook's own failure ("Internal error") becomes which attachment failed and what to do about it. */
async function readAttachment(
  host: Pick<HeldItemHost, 'readAttachmentBase64'>,
  attachment: MailAttachment,
): Promise<string> {
  try {
    return await host.readAttachmentBase64(attachment.id);
  } catch {
    throw new AttachmentUnreadableError(attachment.name);
  }
}

/** Retrying does not help (Outlook fails the same way again); leaving the attachment out does. */
export class AttachmentUnreadableError extends Error {
  readonly retryable = false;
  constructor(readonly attachmentName: string) {
    super(
      `Outlook could not hand over the attachment “${attachmentName}”. Untick it under “Attachments to include” to file the e-mail without it (you can save the attachment and upload it to Sitefile separately).`,
    );
    this.name = 'AttachmentUnreadableError';
  }
}

function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
