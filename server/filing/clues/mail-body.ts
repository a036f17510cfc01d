/**
 * An e-mail body split into what the sender wrote, the messages it quotes or forwards, and signatures.
 * Recognises the quoted headers that Outlook ("-----Original Message-----", "From: … Sent: … Subject: …",
 * a line of underscores), Gmail ("---------- Forwarded message ---------", "On … wrote:") and Apple Mail
 * ("Begin forwarded message:", "On …, at …, … wrote:") write, and `>`-quoted lines.
 */
export interface QuotedMessage {
  /** The original sender named by the quoted header, lower-cased. */
  fromAddress?: string;
  subject?: string;
  text: string;
}

export interface MailBody {
  /** What the sender wrote above the first quote, without the signature. */
  text: string;
  quoted: QuotedMessage[];
  /** Signatures and disclaimers of the new text and of the quoted messages: they carry little. */
  signatures: string[];
}

const separatorLine = /^\s*(-{2,}\s*(original message|forwarded message)\s*-{2,}|begin forwarded message:|_{10,})\s*$/i;
const headerLine = /^\s*\*?(from|sent|date|to|cc|subject)\*?:\s*(.*)$/i;
const wroteLine = /^\s*On\s.{4,250}\swrote:\s*$/i;
const addressIn = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/i;

/** Where a quoted message starts (the line index), or -1. */
function quoteStart(lines: string[], from: number): number {
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    if (separatorLine.test(line) || wroteLine.test(line)) return i;
    // Gmail wraps long "On … wrote:" lines in two.
    if (/^\s*On\s/.test(line) && wroteLine.test(`${line} ${lines[i + 1] ?? ''}`)) return i;
    // An Outlook header block without separator: From:, then Sent: or Date: within the next lines.
    if (/^\s*\*?from\*?:/i.test(line) && lines.slice(i + 1, i + 4).some((l) => /^\s*\*?(sent|date)\*?:/i.test(l)))
      return i;
    if (/^\s*>/.test(line)) return i;
  }
  return -1;
}

/** The quoted message from `start`: its header (if any) and text up to the next quote. */
function readQuoted(lines: string[], start: number): { message: QuotedMessage; next: number } {
  const message: QuotedMessage = { text: '' };
  let i = start;
  const first = lines[i]!;
  if (separatorLine.test(first)) i++;
  else if (wroteLine.test(first) || /^\s*On\s/.test(first)) {
    const line = wroteLine.test(first) ? first : `${first} ${lines[i + 1] ?? ''}`;
    message.fromAddress = line.match(addressIn)?.[0]?.toLowerCase();
    i += wroteLine.test(first) ? 1 : 2;
  }
  while (i < lines.length && lines[i]!.trim() === '') i++;
  for (; i < lines.length; i++) {
    const header = lines[i]!.match(headerLine);
    if (!header) break;
    const [, name, value] = header;
    if (name!.toLowerCase() === 'from') message.fromAddress = value!.match(addressIn)?.[0]?.toLowerCase();
    if (name!.toLowerCase() === 'subject') message.subject = value!.trim();
  }
  // A `>`-quoted block runs over its `>` lines; any other quoted message up to the next quote.
  let end = i;
  while (end < lines.length && /^\s*(>|$)/.test(lines[end]!)) end++;
  const blockIsAngleQuoted = end > i && lines.slice(i, end).some((l) => /^\s*>/.test(l));
  const next = quoteStart(lines, blockIsAngleQuoted ? end : i + 1);
  if (!blockIsAngleQuoted) end = next < 0 ? lines.length : next;
  message.text = lines
    .slice(i, end)
    .map((l) => l.replace(/^\s*(>\s?)+/, ''))
    .join('\n');
  return { message, next };
}

const signOff =
  /^\s*(thanks|thank you|many thanks|best|best regards|kind regards|regards|cheers|sincerely)\b[\s,.!]*\w*[,.!]?\s*$/i;
/** Lines that are about the sender's firm, not this message: disclaimers, banners, taglines, phone footers. */
const disclaimer = new RegExp(
  [
    'confidential|intended (solely )?for|intended recipient|unsubscribe|manage preferences',
    String.raw`proud (\w+ )?(supplier|partner|member|sponsor|subcontractor|installer|fabricator)|now (hiring|furnishing)`,
    "we're hiring|follow us|visit us at",
    'sent from my (iphone|ipad|android|phone|mobile)|enviado desde mi|get outlook for',
    'please consider the environment|think before you print|aviso de confidencialidad|este (correo|mensaje)',
    String.raw`^\s*(caution|external( email)?|\[external\])\s*[:!-]`,
    'recently completed|featured project|our projects include|award[- ]winning',
  ].join('|'),
  'i',
);

/** Text and signature: from a "-- " line, or from a short sign-off ("Thanks,", "Best regards") near the end. */
export function splitSignature(text: string): { text: string; signature: string } {
  const lines = text.split('\n');
  let cut = lines.findIndex((l) => /^\s*--\s*$/.test(l));
  if (cut < 0) {
    const lastLines = Math.max(0, lines.length - 6);
    cut = lines.findIndex((l, i) => i >= lastLines && signOff.test(l) && l.trim().split(/\s+/).length <= 3);
  }
  const body = cut < 0 ? lines : lines.slice(0, cut);
  const signature = cut < 0 ? [] : lines.slice(cut);
  const keep = body.filter((l) => !disclaimer.test(l));
  const dropped = body.filter((l) => disclaimer.test(l));
  return { text: keep.join('\n').trim(), signature: [...signature, ...dropped].join('\n').trim() };
}

/** A body's lines (any line ending). */
export const bodyLines = (body: string) => body.replace(/\r\n?/g, '\n').split('\n');

/** How many of the body's first lines the sender wrote: up to the first quoted or forwarded message. */
export function ownLineCount(lines: string[]): number {
  const first = quoteStart(lines, 0);
  return first < 0 ? lines.length : first;
}

export function parseMailBody(body: string): MailBody {
  const lines = bodyLines(body);
  const first = quoteStart(lines, 0);
  const own = splitSignature(lines.slice(0, first < 0 ? lines.length : first).join('\n'));
  const quoted: QuotedMessage[] = [];
  const signatures = own.signature ? [own.signature] : [];
  for (let start = first; start >= 0 && quoted.length < 20; ) {
    const { message, next } = readQuoted(lines, start);
    const parts = splitSignature(message.text);
    quoted.push({ ...message, text: parts.text });
    if (parts.signature) signatures.push(parts.signature);
    start = next;
  }
  return { text: own.text, quoted, signatures };
}
