/**
 * What the suggestion model counts of an e-mail (its features), the same way when an e-mail is filed (learned)
 * and when one is asked about (looked up):
 * - `w:<stem>`: a word of the subject, the new text or an attachment name, English-stemmed (inflections and the
 *   plural `s` of Spanish words meet), accents and case removed, stop words (English and Spanish) left out;
 * - `n:<id>`: an identifier, a token with a digit (PO-4471, BP26-0113, 23-118) or a code in capitals of three parts
 *   (KL-MT-B): letters and digits joined, and its digits alone when it has letters ("PO 4471" and "P.O. #4471"
 *   meet) unless they are three or fewer in a code of several lettered parts ("HYL-BWE-SHD-STL-014");
 * - `a:<address>` / `d:<domain>`: participants outside the organization's own domain (free-mail domains only as
 *   addresses).
 * Quoted messages and signatures, banners and disclaimers are never learned; looked up, each part counts by
 * what it is (`partWeight`).
 */
import snowball from 'snowball-stemmers';
import { parseMailBody } from '../clues/mail-body.js';
import { splitPassing } from '../clues/passing.js';
import { domainOf } from '../message.js';

export type Part = 'subject' | 'attachment' | 'body' | 'passing' | 'quoted' | 'from' | 'recipient';

/** How much a feature found in each part of the e-mail asked about counts (one found in several: the most). */
export const partWeight: Record<Part, number> = {
  subject: 1.5,
  attachment: 1.2,
  body: 1,
  passing: 0.3,
  quoted: 0.4,
  from: 1,
  recipient: 0.6,
};

/** Addresses at these domains say nothing about a project; the address itself still may. */
export const freemailDomains = new Set(
  'gmail.com googlemail.com outlook.com hotmail.com live.com yahoo.com icloud.com me.com aol.com proton.me protonmail.com gmx.com'.split(
    ' ',
  ),
);

/** Second levels under a country's domain (kilimaconsult.co.ke, firm.com.au): the firm's name is the label before. */
const countrySecondLevels = new Set('co com org net ac gov edu ltd plc or ne go'.split(' '));

/** The firm's name in a domain: the label before its public suffix ("kilimaconsult" of mail.kilimaconsult.co.ug). */
function firmLabel(domain: string): string {
  const labels = domain.split('.');
  const countrySecondLevel =
    labels.length >= 3 && labels.at(-1)!.length === 2 && countrySecondLevels.has(labels.at(-2)!);
  return labels.at(countrySecondLevel ? -3 : -2) ?? domain;
}

/**
 * Whether a domain is the organization's own: its domain, a machine of it (calendar.firm.com), or a sister office's
 * under another country's domain or with a suffix (firm.co.ug beside firm.co.ke, vanrijswijk.be beside
 * vanrijswijk-it.nl). Their people are colleagues, on every project's mail: who they are says nothing of which.
 */
export function isOwnDomain(domain: string, ownDomain: string): boolean {
  if (domain === ownDomain) return true;
  if (freemailDomains.has(domain) || freemailDomains.has(ownDomain)) return false;
  const [firm, own] = [firmLabel(domain), firmLabel(ownDomain)];
  if (firm.length < 4 || own.length < 4) return false;
  return firm === own || firm.startsWith(`${own}-`) || own.startsWith(`${firm}-`);
}

/** An identifier's letters and digits, lower-cased: what a number feature is keyed by ("VRB-25-104" and "vrb25104"
 *  meet). */
export const identifierKey = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

const stemmer = snowball.newStemmer('english');

const normalise = (text: string) =>
  text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();

const stopwords = new Set(
  // English
  (
    'the and for are but not you your yours our ours with this that these those from have has had was were will ' +
    'would could should can may might must shall been being into onto over under about above below after before ' +
    'again then than there here when where which while who whom what why how all any both each few more most other ' +
    'some such only own same too very just also per via let lets get got please thanks thank regards best hi hello ' +
    'dear team all sent today tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday week ' +
    'morning afternoon know need see attached attach find below above see fyi asap re fw fwd email mail message ' +
    "one two three four five six seven eight nine ten out off them they their its it's we us me my him her his she " +
    "he yes let's did does done doing make made take took going come came back send sending sent look looking " +
    'call called any anyone everyone something anything nothing new old good great ok okay sure question questions ' +
    'update updated updates note notes info information time date dates day days jan feb mar apr may jun jul aug ' +
    'sep sept oct nov dec january february march april june july august september october november december ' +
    // Spanish
    'que los las del por para con una uno unos unas como pero sus esta este estos estas ese esa eso hay muy ' +
    'mas más ya sin sobre entre cuando donde nos les lo la el en de y o a al su se es son fue ser estar favor ' +
    'gracias saludos hola buenos buenas días dias usted ustedes tenemos tiene mañana hoy semana falta faltan ' +
    'terminamos queda quedan listo lista necesitamos hacer otra otro todo todos después despues ahora'
  )
    .split(/\s+/)
    .map((w) => normalise(w)),
);

/** Word and identifier features of a piece of text, each with the text it came from (for reasons); words for which
 *  `who` is true (the sender's own name and firm) are left out. */
export function textFeatures(text: string, who: (word: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const withoutAddresses = text.replace(/\S+@\S+|https?:\/\/\S+|www\.\S+/gi, ' ');
  const cleaned = joinDigitGroups(normalise(withoutAddresses));
  const lettered = letteredCodes(withoutAddresses);
  // Identifiers keep their inner separators (`bp26-0113`, `p.o.#4471`) until joined.
  for (const raw of cleaned.split(/[\s,;:()[\]{}<>"'!?*|=+]+/)) {
    const token = raw.replace(/^[-./#_]+|[-./#_]+$/g, '');
    if (!token) continue;
    if (/\d/.test(token) || lettered.has(token)) {
      const joined = identifierKey(token);
      const digits = joined.replace(/[a-z]/g, '');
      // Times, dates, years and small quantities are not identifiers; nor is a run of zeros (the thousands of an
      // amount, "412,000": filed with another project's prices, it contested a thread it had nothing to do with).
      if (
        (digits.length < 3 && !isMultiPartCode(token) && !lettered.has(token)) ||
        /^0+$/.test(joined) ||
        /^\d{1,2}[:.]\d{2}(am|pm)?$/.test(token) ||
        /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/.test(token) ||
        /^(19|20)\d{2}$/.test(token) ||
        isMeasure(token) ||
        isFinancialYear(token) ||
        isPhoneNumber(token)
      )
        continue;
      if (!out.has(`n:${joined}`)) out.set(`n:${joined}`, token.toUpperCase());
      // Its digits alone meet the same number written otherwise ("PO 4471"); in a code of several lettered parts a
      // short number only counts within them ("HYL-BWE-SHD-STL-014" is the 14th of its kind, as "RFI-014" of another).
      const letterParts = token.match(/[a-z]+/g)?.length ?? 0;
      if (
        (digits.length >= 4 || (digits.length === 3 && letterParts < 2)) &&
        joined !== digits &&
        !out.has(`n:${digits}`)
      )
        out.set(`n:${digits}`, token.toUpperCase());
      continue;
    }
    for (const word of token.split(/[^a-z]+/)) {
      if (word.length < 3 || stopwords.has(word) || who(word)) continue;
      const feature = `w:${stemmer.stem(word)}`;
      if (!out.has(feature)) out.set(feature, word);
    }
  }
  return out;
}

/**
 * Codes written in capitals without a digit, of three parts or more and five letters or more ("KL-MT-B",
 * "AUR-BW-E"; as a reference number an admin sets may be, shared/organizations.ts): an organization's reference for a
 * project or a stage, as the letters of "up-to-date" or "U-S-A" are not. As normalised tokens.
 */
function letteredCodes(text: string): Set<string> {
  const codes = text.match(/(?<![\p{L}\p{N}])\p{Lu}+(?:[-/._]\p{Lu}+){2,}(?![\p{L}\p{N}])/gu) ?? [];
  return new Set(codes.filter((c) => c.replace(/[^\p{L}]/gu, '').length >= 5).map((c) => normalise(c)));
}

/** A number with decimals ("400.00", "32.1": an amount, a size, a clause of a standard) is a quantity: written in
 *  one project's mail, it meets another's by chance. One filed e-mail's "400.00" put an M-Pesa receipt at 0.96 for
 *  the wrong road lot (corpus 15). A span ("lots 41-96") stays: a stage's lots name it (corpus 7 fell 96.7 → 90.2). */
const isMeasure = (token: string) => /^\d{1,5}[.,]\d{1,2}$/.test(token);

/** A telephone number ("720.555.0900", "+47-55-12-34-56"): who to call, on every e-mail of a sender or a department,
 *  not which project. A remittance's "contact AP at 720.555.0900", filed once with one project, outweighed the PO of
 *  another (corpus 11). Groups of digits only, nine digits or more, not led by a year ("2024-0113-07" stays). */
const isPhoneNumber = (token: string) =>
  /^(\+\d{1,3}([-.]\d{1,4}){2,5}|(\d{2,3}|0\d{3})[-.]\d{3,4}[-.]\d{3,4})$/.test(token) &&
  token.replace(/\D/g, '').length >= 9;

/** A financial or school year ("2025-26", "2024/2025"): a year, as every project's mail and the firm's own write
 *  it, not an identifier ("Appraisal cycle 2025-26" met a school's reference "VNIS/AB/2025-26" at 0.98). */
function isFinancialYear(token: string): boolean {
  const m = /^((?:19|20)\d{2})[-/](\d{2}|(?:19|20)\d{2})$/.exec(token);
  return m !== null && (Number(m[1]) + 1) % 100 === Number(m[2]) % 100;
}

/** A code of three parts or more ("BPD-RVG-01", "A/CPD/12"): an identifier however few digits it has, unlike "3rd",
 *  "x2" or "Ph2". */
const isMultiPartCode = (token: string) =>
  token.split(/[-/._]+/).length >= 3 && token.replace(/[^a-z0-9]/g, '').length >= 6;

/**
 * An amount written with its thousands grouped by spaces ("R 95 600 000.00", "3 412 880.00") as one number: split at
 * its spaces, a contract sum became three small numbers ("95", "600", "000.00") that other mail's quantities and
 * street numbers share, while the whole sum names the contract it is of. Only where the number is plainly an amount
 * (a currency before it, cents after it, or two groups or more): "phase 1 240 units" stays two numbers. Commas are
 * left as they were (joining "£14,200" lost a right suggestion on the sixth corpus; not yet understood).
 */
export function joinDigitGroups(text: string): string {
  return text.replace(
    /(?<=(?:\b(?:r|zar|usd|eur|gbp|aud|nzd|cad)|[$€£])\s?)\d{1,3}(?: \d{3})+(?:[.,]\d{2})?(?![\d])|(?<![\d.,] ?)\d{1,3}(?: \d{3})+(?:[.,]\d{2})(?![\d])|(?<![\d.,] ?)\d{1,3}(?: \d{3}){2,}(?:[.,]\d{2})?(?![\d])/g,
    (n) => n.replace(/ /g, ''),
  );
}

export interface MailParts {
  subject: string;
  body: string;
  attachmentNames: readonly string[];
  from: string;
  /** The sender's display name: a signature begins with it (clues/mail-body.ts). */
  fromName?: string;
  recipients: readonly string[];
  /** The organization's own domain (the filer's or asker's): colleagues are on every project's mail. */
  ownDomain: string;
}

function participantFeatures(address: string, ownDomain: string): Map<string, string> {
  const a = address.toLowerCase();
  const domain = domainOf(a);
  if (isOwnDomain(domain, ownDomain)) return new Map();
  return new Map(
    freemailDomains.has(domain)
      ? [[`a:${a}`, a]]
      : [
          [`a:${a}`, a],
          [`d:${domain}`, domain],
        ],
  );
}

/** Attachment names read as words: `_`, `.` and `-` between words are spaces, the extension goes. */
const attachmentText = (name: string) => name.replace(/\.[a-z0-9]{2,5}$/i, '').replace(/_/g, ' ');

/** The features of each part of an e-mail, with the part's weight; a feature in several parts counts once, at its most. */
export interface AskedFeature {
  weight: number;
  part: Part;
  /** The text it came from: a word, an identifier as written, an address or domain. */
  text: string;
}

/** Whether a word is of the sender's own name (who writes, not what about: "Rogelio" signing in the body). */
function senderWords(mail: MailParts): (word: string) => boolean {
  const names = new Set(
    normalise(mail.fromName ?? '')
      .split(/[^a-z]+/)
      .filter((w) => w.length >= 3),
  );
  return (word) => names.has(word);
}

export function weightedFeatures(mail: MailParts): Map<string, AskedFeature> {
  const who = senderWords(mail);
  const body = parseMailBody(mail.body.slice(0, MAX_BODY_READ), { name: mail.fromName, address: mail.from });
  const found = new Map<string, AskedFeature>();
  const add = (part: Part, features: Map<string, string>) => {
    for (const [f, text] of features)
      if ((found.get(f)?.weight ?? 0) < partWeight[part]) found.set(f, { weight: partWeight[part], part, text });
  };
  add('subject', textFeatures(mail.subject.replace(/^\s*((re|fw|fwd|rv|aw)\s*:\s*)+/i, ''), who));
  for (const name of mail.attachmentNames) add('attachment', textFeatures(attachmentText(name), who));
  const own = splitPassing(body.text);
  add('body', textFeatures(own.main, who));
  add('passing', textFeatures(own.passing, who));
  for (const q of body.quoted) add('quoted', textFeatures(`${q.subject ?? ''}\n${q.text}`));
  add('from', participantFeatures(mail.from, mail.ownDomain));
  for (const q of body.quoted)
    if (q.fromAddress)
      add(
        isOwnDomain(domainOf(mail.from), mail.ownDomain) ? 'from' : 'recipient',
        participantFeatures(q.fromAddress, mail.ownDomain),
      );
  for (const r of mail.recipients) add('recipient', participantFeatures(r, mail.ownDomain));
  return found;
}

/** What filing an e-mail teaches: the features of what its sender wrote (never quotes or signatures) and its participants. */
export function learnedFeatures(mail: MailParts): string[] {
  const features = [...weightedFeatures(mail)]
    .filter(([, f]) => f.part !== 'quoted' && f.part !== 'passing')
    .map(([feature]) => feature);
  // At most this many per e-mail (a long text's first ones): the filing transaction stays short.
  return features.slice(0, MAX_LEARNED).sort();
}

const MAX_LEARNED = 300;

/**
 * Characters of a body whose features are read. Past its first pages a text adds few features worth learning (at
 * most `MAX_LEARNED` are kept), and stemming every word of a 24 MB body took some 20 seconds of processor time.
 */
export const MAX_BODY_READ = 100_000;
