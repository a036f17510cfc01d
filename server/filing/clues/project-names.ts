/**
 * A project named in text, in full or in part: its name without the job number, an alias, two or more of
 * its words in order ("Lakeshore Library" for "4410 Lakeshore Public Library"), or one word no other
 * project of the organization has. Case, punctuation, accents, camel case ("MapleGrove") and plural `s` do
 * not matter. Words that say what kind of building it is ("Center", "Building", "Phase", "School") or that
 * several of the organization's projects share never name a project alone, and together only weakly
 * ("medical office buildings" in a trade newsletter).
 */
import { codeFromName } from './job-numbers.js';

export type NameStrength = 'name' | 'alias' | 'phrase' | 'word' | 'generic-phrase';

export interface NameMatch {
  projectId: string;
  strength: NameStrength;
  /** The words that matched, as normalised. */
  words: string;
}

interface Variant {
  projectId: string;
  kind: 'name' | 'alias';
  tokens: string[];
}

export interface NameIndex {
  variants: Variant[];
  /** word → the variants containing it. */
  byWord: Map<string, Variant[]>;
  /** Words that name one project alone: only that project has them and they are not generic. */
  distinctive: Map<string, string>;
  /** Words that do not make a phrase distinctive: generic, or shared by several projects. */
  weak: Set<string>;
}

const stopwords = new Set(['the', 'of', 'at', 'and', 'for', 'no', 'a', 'an', 'in', 'on', 'to', 'nr', 'num']);
const abbreviations: Record<string, string> = { ctr: 'center', cntr: 'center', bldg: 'building', elem: 'elementary' };
/** What kind of building or work a project is: common to project names in any organization. */
const genericWords = new Set(
  (
    'building center centre phase project school elementary middle high addition station fire medical office ' +
    'transit senior living parking structure garage community public library hospital clinic hall tower park ' +
    'plaza renovation remodel expansion new apartment housing campus complex facility terminal site main ' +
    'street avenue road improvement upgrade replacement warehouse retail store church center health care'
  ).split(' '),
);
/** Everyday words that appear in place names but also in any sentence: part of a phrase, never alone. */
const everydayWords = new Set(
  (
    'point hill grove view lake river north south east west gate field bay creek ridge valley place court ' +
    'garden heights village square harbor cedar maple oak pine spring summit crossing landing union city ' +
    'county state national first second third'
  ).split(' '),
);

/** Lower-case words without accents, punctuation, addresses or links; camel case split; plural `s` removed. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/\S+@\S+|https?:\/\/\S+|www\.\S+/gi, ' ')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !stopwords.has(w))
    .map((w) => abbreviations[w] ?? (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

export function buildNameIndex(
  projects: readonly { id: string; name: string; aliases: readonly string[] }[],
): NameIndex {
  const variants: Variant[] = [];
  for (const p of projects) {
    const code = codeFromName(p.name);
    const name = code ? p.name.replace(/^\s*\S+/, '') : p.name;
    variants.push({ projectId: p.id, kind: 'name', tokens: wordsOf(name) });
    for (const alias of p.aliases) variants.push({ projectId: p.id, kind: 'alias', tokens: wordsOf(alias) });
  }
  const byWord = new Map<string, Variant[]>();
  const owners = new Map<string, Set<string>>();
  for (const v of variants) {
    for (const w of new Set(v.tokens)) {
      byWord.set(w, [...(byWord.get(w) ?? []), v]);
      owners.set(w, (owners.get(w) ?? new Set()).add(v.projectId));
    }
  }
  const weak = new Set<string>();
  const distinctive = new Map<string, string>();
  for (const [word, projectIds] of owners) {
    const generic = genericWords.has(word) || /^\d+$/.test(word) || word.length < 3;
    if (generic || projectIds.size > 1) weak.add(word);
    else if (!everydayWords.has(word) && word.length >= 4) distinctive.set(word, [...projectIds][0]!);
  }
  return { variants, byWord, distinctive, weak };
}

/** The strongest way each project is named in `text`. */
export function nameMatchesIn(text: string, index: NameIndex): NameMatch[] {
  const words = wordsOf(text);
  const best = new Map<string, NameMatch>();
  const keep = (m: NameMatch) => {
    const current = best.get(m.projectId);
    if (!current || rankOf(m.strength) < rankOf(current.strength)) best.set(m.projectId, m);
  };
  for (let i = 0; i < words.length; i++) {
    for (const variant of index.byWord.get(words[i]!) ?? []) {
      const run = longestRun(words, i, variant.tokens);
      const matched = words.slice(i, i + run);
      const phrase = matched.join(' ');
      if (run === variant.tokens.length && run > 0)
        keep({ projectId: variant.projectId, strength: variant.kind, words: phrase });
      else if (run >= 2) {
        if (matched.some((w) => !index.weak.has(w)))
          keep({ projectId: variant.projectId, strength: 'phrase', words: phrase });
        // "Phase 2", "Building 3": a generic word with a number says nothing.
        else if (matched.filter((w) => !/^\d+$/.test(w)).length >= 2)
          keep({ projectId: variant.projectId, strength: 'generic-phrase', words: phrase });
      } else if (index.distinctive.get(words[i]!) === variant.projectId)
        keep({ projectId: variant.projectId, strength: 'word', words: phrase });
    }
  }
  return [...best.values()];
}

/** How many words from `start` appear in `tokens` in the same order (gaps in `tokens` allowed). */
function longestRun(words: string[], start: number, tokens: string[]): number {
  let at = tokens.indexOf(words[start]!);
  let run = 0;
  while (at >= 0 && start + run < words.length) {
    run++;
    const next = tokens.indexOf(words[start + run]!, at + 1);
    if (next < 0) break;
    at = next;
  }
  return run;
}

const rankOf = (s: NameStrength) => ['name', 'alias', 'phrase', 'word', 'generic-phrase'].indexOf(s);
