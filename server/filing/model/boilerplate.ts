/**
 * Boilerplate is learned, not guessed: a line of new text that one sender (or one sender's domain, which is also
 * the organization's own letterhead and staff signatures) has written in several filed e-mails, in more than one
 * project, names none of them — a signature, a disclaimer, an acknowledgement, a phone number, an office address.
 * Filing counts each line of what the sender wrote (by a hash of it) per sender address and domain; a suggestion
 * drops the lines so counted before it reads the e-mail. Counts commute: the order of filing changes nothing. A line
 * repeated by a sender who works on one project only (a site manager's "Site office: 31 Hyde St") still counts.
 */
import { createHash } from 'node:crypto';
import { bodyLines, ownLineCount, type Sender, signatureStart } from '../clues/mail-body.js';
import { domainOf } from '../message.js';
import { freemailDomains, MAX_BODY_READ } from './features.js';

/** Filed at least this many times by the sender (or domain), in at least two projects: boilerplate. */
export const BOILERPLATE_EMAILS = 2;
/** The lines read of a long text: its first and last ones (signatures stand at the end). */
const LINES_READ = 15;
/** Shorter lines ("Thanks", "Liam,") say nothing either way. */
const MIN_LINE = 6;

/** Where a sender's lines are counted: its address, and its domain unless a free-mail one. */
export function lineScopes(from: string): string[] {
  const address = from.toLowerCase();
  const domain = domainOf(address);
  return freemailDomains.has(domain) ? [`a:${address}`] : [`a:${address}`, `d:${domain}`];
}

const keyOf = (line: string) => {
  const folded = line.trim().toLowerCase().replace(/\s+/g, ' ');
  return folded.length < MIN_LINE ? undefined : createHash('sha1').update(folded).digest('base64url').slice(0, 16);
};

/** Each line the sender wrote (above any quote) that is counted, by its index in the body's lines. */
function countedLines(lines: string[]): Map<number, string> {
  const own = ownLineCount(lines);
  const indexes = own <= 2 * LINES_READ ? [...Array(own).keys()] : [...Array(LINES_READ).keys()];
  if (own > 2 * LINES_READ) for (let i = own - LINES_READ; i < own; i++) indexes.push(i);
  const counted = new Map<number, string>();
  for (const i of indexes) {
    const key = keyOf(lines[i]!);
    if (key) counted.set(i, key);
  }
  return counted;
}

/** The line keys filing a body counts, sorted (concurrent filings lock rows in one order). */
export const lineKeys = (body: string): string[] =>
  [...new Set(countedLines(bodyLines(body.slice(0, MAX_BODY_READ))).values())].sort();

/** The body without its lines in `boilerplate` (keys), quoted messages untouched. */
export function withoutLines(body: string, boilerplate: ReadonlySet<string>, sender: Sender = {}): string {
  if (boilerplate.size === 0) return body;
  const lines = bodyLines(body.slice(0, MAX_BODY_READ)); // as much as the features read
  const counted = countedLines(lines);
  // The line the signature starts at stays (the sender's name, a sign-off): without it the rest of the signature (an
  // office address, a title) would read as what the sender wrote, as it never does when the e-mail is filed.
  const signs = signatureStart(lines.slice(0, ownLineCount(lines)), sender);
  return lines.filter((_, i) => i === signs || !boilerplate.has(counted.get(i) ?? '')).join('\n');
}
