/**
 * What an organization's admins set on a project beyond its name and code: its site address and the numbers
 * others give it (the owner's project number, permits, purchase orders, contracts). They count like the name and
 * code, from the first e-mail on: an e-mail quoting "permit BP26-0113" or "1450 Mercer" names the project before
 * any of its mail is filed. Reference numbers are read as the model reads identifiers (model/features.ts), so
 * "P.O. #4471", "PO-4471" and "po 4471" meet, and by their segments wherever they stand (`referenceMatchesIn`); a
 * site address matches by its street number and street name.
 */
import { textFeatures } from '../model/features.js';
import { wordsOf } from './project-names.js';

export interface ReferenceHolder {
  projectId: string;
  /** "Permit BP26-0113", as set. */
  text: string;
  /** The feature is the whole number (letters and digits); otherwise its digits alone. */
  whole: boolean;
}

/** A project whose reference number a run of segments spells: all of it, or `share` of its letters and digits. */
export interface RunHolder {
  projectId: string;
  text: string;
  share: number;
}

export interface FieldIndex {
  /** Identifier feature (`n:bp260113`, `n:260113`) → the projects whose reference numbers have it. */
  references: Map<string, ReferenceHolder[]>;
  /** A reference number's segments joined (`klmtb`), whole or a run of two or more of them (`mtb`, `lccrft`) → the
   *  projects whose reference numbers spell it (a run two projects share tells neither from the other). */
  runs: Map<string, RunHolder[]>;
  /** Letters and digits of the longest of `runs`: how far a match is looked for. */
  longestRun: number;
  /** Street number → the projects whose site address has it, with the street's first word. */
  addresses: Map<string, { projectId: string; street: string; address: string }[]>;
}

export interface ProjectFields {
  id: string;
  siteAddress: string | null;
  referenceNumbers: readonly { label: string; value: string }[];
}

/** Words between a street number and the street's name that are not its name ("1450 N. Mercer St"). */
const directions = new Set(['n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw']);

export function buildFieldIndex(projects: readonly ProjectFields[]): FieldIndex {
  const references = new Map<string, ReferenceHolder[]>();
  const runs = new Map<string, RunHolder[]>();
  const addresses: FieldIndex['addresses'] = new Map();
  for (const p of projects) {
    for (const r of p.referenceNumbers) {
      for (const [run, share] of runsOf(r.value)) {
        const holders = runs.get(run) ?? [];
        const held = holders.find((h) => h.projectId === p.id);
        if (held) held.share = Math.max(held.share, share);
        else runs.set(run, [...holders, { projectId: p.id, text: `${r.label} ${r.value}`, share }]);
      }
      const features = [...textFeatures(r.value).keys()].filter((f) => f.startsWith('n:'));
      // The longest is the whole number; the others are its digits alone.
      const whole = features.reduce((a, b) => (b.length > a.length ? b : a), '');
      for (const feature of features) {
        const holders = references.get(feature) ?? [];
        if (!holders.some((h) => h.projectId === p.id))
          references.set(feature, [
            ...holders,
            { projectId: p.id, text: `${r.label} ${r.value}`, whole: feature === whole },
          ]);
      }
    }
    const site = p.siteAddress && streetOf(p.siteAddress);
    if (site && p.siteAddress)
      addresses.set(site.number, [
        ...(addresses.get(site.number) ?? []),
        { projectId: p.id, street: site.street, address: p.siteAddress },
      ]);
  }
  return { references, runs, longestRun: Math.max(0, ...[...runs.keys()].map((k) => k.length)), addresses };
}

/**
 * Letters and digits as an organization's codes are built of: runs of letters or of digits, split at separators and
 * where letters meet digits ("KL-MT-B_Piling_Setout_Rev1.pdf" → kl mt b piling setout rev 1 pdf), each with the
 * whitespace-separated token it stands in (a file name or a portal's subject line is one token).
 */
function segmentsOf(text: string): { segment: string; token: number; capitals: boolean }[] {
  const plain = text.normalize('NFKD').replace(/\p{M}/gu, '');
  return plain.split(/\s+/).flatMap((token, i) =>
    (token.match(/[a-z]+|\d+/gi) ?? []).map((written) => ({
      segment: written.toLowerCase(),
      token: i,
      capitals: written === written.toUpperCase(),
    })),
  );
}

/** Least letters and digits a reference number, or a run of its segments, has to say which project it is. */
const MIN_RUN = 3;
/** Most segments of a run short of the whole number: a long number's runs grow with the square of its segments, and
 *  the index holds them for every project of the organization. */
const MAX_RUN_SEGMENTS = 4;

/**
 * What of a reference number a text can spell: the whole of it, and each run of two or more of its segments with a
 * letter among them ("MT-B", "BW-E", "RFT 24-118" of "LCC RFT 24-118"), with the share of the number it spells. A
 * single segment is a word or a number of any text ("B", "MT", "24"); digits alone are the model's (`references`).
 */
function runsOf(value: string): Map<string, number> {
  const segments = segmentsOf(value).map((s) => s.segment);
  const whole = segments.join('');
  const found = new Map<string, number>();
  if (whole.length >= MIN_RUN) found.set(whole, 1);
  for (let from = 0; from < segments.length; from++)
    for (let to = from + 2; to <= Math.min(segments.length, from + MAX_RUN_SEGMENTS); to++) {
      const run = segments.slice(from, to).join('');
      if (run.length >= MIN_RUN && /[a-z]/.test(run) && !found.has(run)) found.set(run, run.length / whole.length);
    }
  return found;
}

/** A project's reference number spelled by a text: `share` of it (1: all of it), divided among the projects whose
 *  numbers spell the same. */
export interface ReferenceMatch {
  projectId: string;
  /** "Client ref KL-MT-B", as set. */
  reference: string;
  /** The letters and digits matched, capitalised: "KLMTB". */
  written: string;
  share: number;
  /** How many times the text spells it so ("VRB-25-105" on five lines of an hour sheet, "VRB-25-104" on one). */
  times: number;
}

/**
 * Reference numbers a text spells by their segments, wherever they stand: the whole number across spaces ("LCC RFT
 * 24-118"), a run of its segments inside one token ("KL-MT-B_Piling_Setout.pdf", "BHA-MTB-Elevations.pdf" for
 * KL-MT-B). Segments are matched whole ("PL-YAT-010" is not PL-YAT-01), and from each segment only the longest
 * match counts: "KL-MT-A" is KL-MT-A's, not also a run "KL-MT" its look-alike KL-MT-B shares. Per project, its best,
 * and how many times the text spells it so.
 */
export function referenceMatchesIn(text: string, index: FieldIndex): ReferenceMatch[] {
  if (index.runs.size === 0) return [];
  const segments = segmentsOf(text);
  const best = new Map<string, ReferenceMatch>();
  segments.forEach((start, i) => {
    let joined = '';
    let capitals = true;
    let match: { written: string; holders: RunHolder[] } | undefined;
    for (let j = i; j < segments.length && joined.length < index.longestRun; j++) {
      joined += segments[j]!.segment;
      // A run is a reference's only inside one token; the whole number may be written with spaces ("PO 4471").
      const oneToken = segments[j]!.token === start.token;
      // Letters without a digit are a code only in capitals, as codes are written: "carpark" is a word, not CAR-PARK.
      capitals &&= segments[j]!.capitals;
      const code = capitals || /\d/.test(joined);
      const holders = (index.runs.get(joined) ?? []).filter((h) => code && (h.share === 1 || oneToken));
      if (holders.length > 0) match = { written: joined.toUpperCase(), holders };
    }
    for (const h of match?.holders ?? []) {
      const found = {
        projectId: h.projectId,
        reference: h.text,
        written: match!.written,
        share: h.share / match!.holders.length,
        times: 1,
      };
      const current = best.get(h.projectId);
      if (current && found.share === current.share) current.times++;
      else if (found.share > (current?.share ?? 0)) best.set(h.projectId, found);
    }
  });
  return [...best.values()];
}

/** "1450 N. Mercer St, Denver" → 1450, mercer. */
function streetOf(address: string) {
  const words = wordsOf(address);
  const at = words.findIndex((w) => /^\d+[a-z]?$/.test(w));
  const street = words.slice(at + 1).find((w) => !directions.has(w));
  return at >= 0 && street ? { number: words[at]!, street } : undefined;
}

/** Projects whose site address `text` names: its street number, then (at most two words on) its street. */
export function addressMatchesIn(text: string, index: FieldIndex): { projectId: string; address: string }[] {
  if (index.addresses.size === 0) return [];
  const words = wordsOf(text);
  return words.flatMap((word, i) =>
    (index.addresses.get(word) ?? [])
      .filter((a) => words.slice(i + 1, i + 3).includes(a.street))
      .map(({ projectId, address }) => ({ projectId, address })),
  );
}
