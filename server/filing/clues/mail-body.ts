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
function readQuoted(lines: string[], start: number): { message: QuotedMessage; sender: Sender; next: number } {
  const message: QuotedMessage = { text: '' };
  const sender: Sender = {};
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
    if (name!.toLowerCase() === 'from') {
      message.fromAddress = value!.match(addressIn)?.[0]?.toLowerCase();
      sender.name = value!.replace(/<[^>]*>|\S+@\S+|["']/g, '').trim();
    }
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
  return { message, sender: { ...sender, address: message.fromAddress }, next };
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

/** Who wrote a text: its display name and address, when known. */
export interface Sender {
  name?: string;
  address?: string;
}

/** Signatures run longer than a sign-off: a name, a title, a firm, an address, phones, a disclaimer. */
const SIGNATURE_LINES = 12;

/**
 * Whether a line is the sender signing: before any comma ("Owen Achterberg, P.Eng."), one to four capitalised words
 * of which one is the sender's (a word of the display name, or a word of three letters or more that the address's
 * local part holds: "blouin" of gblouin@). Most signatures have no "-- " line and no sign-off, but begin so; a
 * sentence ("Peter will send it") has lower-case words.
 */
function signsAs(line: string, sender: Sender): boolean {
  const words = line
    .split(',')[0]!
    .trim()
    .replace(/^[-–—~]\s*/, '')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0 || words.length > 4 || !words.every((w) => /^\p{Lu}/u.test(w))) return false;
  const own = new Set(
    (sender.name ?? '')
      .toLowerCase()
      .split(/[^\p{L}]+/u)
      .filter((w) => w.length >= 2),
  );
  const local = (sender.address ?? '')
    .toLowerCase()
    .split('@')[0]!
    .replace(/[^a-z]/g, '');
  return words.some((w) => {
    const word = w.toLowerCase().replace(/[^\p{L}]/gu, '');
    return own.has(word) || (word.length >= 3 && local.length > 0 && local.includes(word));
  });
}

/** Whether a line is a disclaimer, banner or tagline (about the sender's firm, never this message). */
export const isBanner = (line: string) => disclaimer.test(line);

/** The index of the line a signature starts at (splitSignature), or −1. */
export function signatureStart(lines: readonly string[], sender: Sender = {}): number {
  let cut = lines.findIndex((l) => /^\s*--\s*$/.test(l));
  if (cut < 0) {
    const lastLines = Math.max(0, lines.length - 6);
    cut = lines.findIndex((l, i) => i >= lastLines && signOff.test(l) && l.trim().split(/\s+/).length <= 3);
  }
  if (cut < 0 && (sender.name || sender.address)) {
    const from = Math.max(1, lines.length - SIGNATURE_LINES);
    cut = lines.findIndex((l, i) => i >= from && signsAs(l, sender));
  }
  return cut;
}

/**
 * Text and signature: from a "-- " line, a short sign-off ("Thanks,", "Best regards") near the end, or the line where
 * the sender signs with their name near the end (never the first line: that greets someone).
 */
export function splitSignature(text: string, sender: Sender = {}): { text: string; signature: string } {
  const lines = text.split('\n');
  const cut = signatureStart(lines, sender);
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

export function parseMailBody(body: string, sender: Sender = {}): MailBody {
  const lines = bodyLines(body);
  const first = quoteStart(lines, 0);
  const own = splitSignature(lines.slice(0, first < 0 ? lines.length : first).join('\n'), sender);
  const quoted: QuotedMessage[] = [];
  const signatures = own.signature ? [own.signature] : [];
  for (let start = first; start >= 0 && quoted.length < 20; ) {
    const { message, sender: quotedSender, next } = readQuoted(lines, start);
    const parts = splitSignature(message.text, quotedSender);
    quoted.push({ ...message, text: parts.text });
    if (parts.signature) signatures.push(parts.signature);
    start = next;
  }
  return { text: own.text, quoted, signatures };
}
