/**
 * What an organization's admins set on a project beyond its name and code: its site address and the numbers
 * others give it (the owner's project number, permits, purchase orders, contracts). They count like the name and
 * code, from the first e-mail on: an e-mail quoting "permit BP26-0113" or "1450 Mercer" names the project before
 * any of its mail is filed. Reference numbers are read as the model reads identifiers (model/features.ts), so
 * "P.O. #4471", "PO-4471" and "po 4471" meet; a site address matches by its street number and street name.
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

export interface FieldIndex {
  /** Identifier feature (`n:bp260113`, `n:260113`) → the projects whose reference numbers have it. */
  references: Map<string, ReferenceHolder[]>;
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
  const addresses: FieldIndex['addresses'] = new Map();
  for (const p of projects) {
    for (const r of p.referenceNumbers) {
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
  return { references, addresses };
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
