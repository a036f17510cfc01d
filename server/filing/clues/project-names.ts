/**
 * A project named in text, in full or in part: its name without the job number, an alias, two or more of
 * its words in order ("Lakeshore Library" for "4410 Lakeshore Public Library"), or one word no other
 * project of the organization has. Case, punctuation, accents, camel case ("MapleGrove"), plural `s`, one typing
 * slip in a name word of five letters or more ("Kesler", "Willowbrok") and the Spanish for kinds of building
 * ("escuela primaria", "edificio") do not matter. Words that say what kind of building it is ("Center",
 * "Building", "Phase", "School") or that several of the organization's projects share never name a project alone,
 * and together only weakly ("medical office buildings" in a trade newsletter) — except to tell look-alikes apart:
 * where a word several projects share ("Granite", "Willowbrook") is written, the words of one of them that the
 * others lack ("middle", "building B", "phase 1") name it. Short forms of the names ("FS9", "Ph2") are read as the
 * words they stand for.
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
  /** Name words of five letters or more, by each form with one letter left out: for typing slips. */
  slips: Map<string, string[]>;
  /** A word a few look-alike projects share → per project, its units the others of them lack. */
  lookalikes: Map<string, { projectId: string; units: string[] }[]>;
  /** Short forms learned from the names (`shortFormsOf`) → the name words they stand for, and whose they are. */
  short: Map<string, { words: string[]; projectIds: Set<string> }>;
}

const stopwords = new Set('the of at and for no a an in on to nr num el la los las de del y en'.split(' '));
/**
 * Abbreviations, and the Spanish for kinds of building and work (a subcontractor writing in Spanish). A Map, not an
 * object: a written word such as "constructors" must not find Object.prototype's members.
 */
const synonyms = new Map<string, string>(
  Object.entries({
    ctr: 'center',
    cntr: 'center',
    bldg: 'building',
    elem: 'elementary',
    edificio: 'building',
    fase: 'phase',
    escuela: 'school',
    primaria: 'elementary',
    secundaria: 'middle',
    preparatoria: 'high',
    biblioteca: 'library',
    estacionamiento: 'parking',
    bomberos: 'fire',
    estacion: 'station',
    apartamento: 'apartment',
    departamento: 'apartment',
    bodega: 'warehouse',
    almacen: 'warehouse',
    torre: 'tower',
    clinica: 'clinic',
    remodelacion: 'renovation',
    ampliacion: 'addition',
  }),
);
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
/** A word shared by more projects than this does not make them look-alikes (it is just common). */
const MAX_LOOKALIKES = 4;

/** Lower-case tokens without accents, punctuation, addresses or links; camel case split; plural `s` removed;
 *  abbreviations and Spanish building words in English. Stop words kept (`Building A`). */
function tokensOf(text: string): string[] {
  return text
    .replace(/\S+@\S+|https?:\/\/\S+|www\.\S+/gi, ' ')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w)
    .map((w) => (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
    .map((w) => synonyms.get(w) ?? w);
}

/** The words of `tokensOf` without stop words. */
export function wordsOf(text: string): string[] {
  return tokensOf(text).filter((w) => !stopwords.has(w));
}

/** Words, and a number or single letter with the word before it ("phase 1", "building a"): what tells look-alikes apart. */
function unitsOf(text: string): Set<string> {
  const tokens = tokensOf(text);
  const units = new Set<string>();
  tokens.forEach((t, i) => {
    const previous = tokens[i - 1];
    if (/^(\d+|\p{L})$/u.test(t)) {
      if (previous && !stopwords.has(previous)) units.add(`${previous} ${t}`);
    } else if (!stopwords.has(t)) units.add(t);
  });
  return units;
}

/** A name word of letters and then digits ("Ph2" of an alias "Ballygall Ph2"): a short form of one project's stage,
 *  as distinctive as a long word when only that project's names have it. */
const isShortForm = (word: string) => /^\p{L}+\d+$/u.test(word);

/** Each form of a word with one letter left out. */
const withoutOneLetter = (word: string) => Array.from(word, (_, i) => word.slice(0, i) + word.slice(i + 1));

export function buildNameIndex(
  projects: readonly { id: string; name: string; aliases: readonly string[] }[],
): NameIndex {
  const variants: Variant[] = [];
  for (const p of projects) {
    variants.push({ projectId: p.id, kind: 'name', tokens: wordsOf(nameWithoutCode(p.name)) });
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
  const slips = new Map<string, string[]>();
  for (const [word, projectIds] of owners) {
    const generic = genericWords.has(word) || /^\d+$/.test(word) || word.length < 3;
    if (generic || projectIds.size > 1) weak.add(word);
    else if (!everydayWords.has(word) && (word.length >= 4 || isShortForm(word)))
      distinctive.set(word, [...projectIds][0]!);
    if (word.length >= 5 && !/\d/.test(word))
      for (const form of withoutOneLetter(word)) slips.set(form, [...(slips.get(form) ?? []), word]);
  }
  return {
    variants,
    byWord,
    distinctive,
    weak,
    slips,
    lookalikes: lookalikesOf(projects, owners),
    short: shortFormsOf(variants, byWord),
  };
}

/**
 * Short forms of the organization's own project names, as people write them: initials of two or more name words in
 * a row, numbers kept ("FS9" for Fire Station 9, "GLRD", "WPA"), and a name word cut to 1–3 letters before its number
 * ("Ph2" for Phase 2). A form that two names give for different words, or that is a name word itself, is dropped.
 */
function shortFormsOf(variants: Variant[], byWord: Map<string, Variant[]>) {
  const short = new Map<string, { words: string[]; projectIds: Set<string> }>();
  const dropped = new Set<string>();
  const add = (form: string, words: string[], projectId: string) => {
    if (form.length < 3 || byWord.has(form) || stopwords.has(form) || dropped.has(form)) return;
    const known = short.get(form);
    if (known && known.words.join(' ') !== words.join(' ')) {
      short.delete(form);
      dropped.add(form);
    } else short.set(form, { words, projectIds: (known?.projectIds ?? new Set()).add(projectId) });
  };
  for (const v of variants) {
    const ws = v.tokens.filter((w) => w.length > 1 || /\d/.test(w));
    for (let i = 0; i < ws.length; i++) {
      for (let j = i + 1; j < ws.length; j++) {
        const span = ws.slice(i, j + 1);
        add(span.map((w) => (/^\d+$/.test(w) ? w : w[0])).join(''), span, v.projectId);
      }
      if (/^\p{L}{4,}$/u.test(ws[i]!) && /^\d+$/.test(ws[i + 1] ?? ''))
        for (let k = 1; k <= 3; k++) add(ws[i]!.slice(0, k) + ws[i + 1], [ws[i]!, ws[i + 1]!], v.projectId);
    }
  }
  return short;
}

/** Tokens written as short forms are (a digit, or two capitals: "FS9", "MCH", "Ph2"; not "pap" in prose). */
const shortFormWritten = /(?<![\p{L}\p{N}])(?=[\p{L}\p{N}]*(?:\d|\p{Lu}{2}))[\p{L}\p{N}]{3,8}(?![\p{L}\p{N}])/gu;

/** The text with the organization's short forms written out, and the projects a short form of one project names. */
function expandShortForms(text: string, index: NameIndex): { text: string; named: NameMatch[] } {
  if (index.short.size === 0) return { text, named: [] };
  const named: NameMatch[] = [];
  const expanded = text.replace(shortFormWritten, (token) => {
    const form = index.short.get(token.toLowerCase());
    if (!form) return token;
    if (form.projectIds.size === 1)
      named.push({
        projectId: [...form.projectIds][0]!,
        strength: 'phrase',
        words: `${token} (${form.words.join(' ')})`,
      });
    return form.words.join(' ');
  });
  return { text: expanded, named };
}

/** Per word that 2 to MAX_LOOKALIKES projects share (not a kind of building, nor an everyday word such as "north"
 *  that any sentence may have), each one's units the others lack. */
function lookalikesOf(
  projects: readonly { id: string; name: string; aliases: readonly string[] }[],
  owners: Map<string, Set<string>>,
) {
  const unitsOfProject = new Map(
    projects.map((p) => [p.id, new Set([p.name, ...p.aliases].flatMap((text) => [...unitsOf(nameWithoutCode(text))]))]),
  );
  const lookalikes: NameIndex['lookalikes'] = new Map();
  for (const [word, projectIds] of owners) {
    const kindOrEveryday = genericWords.has(word) || everydayWords.has(word);
    if (projectIds.size < 2 || projectIds.size > MAX_LOOKALIKES || kindOrEveryday || word.length < 4) continue;
    if (/\d/.test(word)) continue;
    const group = [...projectIds];
    lookalikes.set(
      word,
      group.map((id) => ({
        projectId: id,
        units: [...unitsOfProject.get(id)!].filter(
          (u) => !group.some((other) => other !== id && unitsOfProject.get(other)!.has(u)),
        ),
      })),
    );
  }
  return lookalikes;
}

const nameWithoutCode = (name: string) => (codeFromName(name) ? name.replace(/^\s*\S+/, '') : name);

/** The name word `word` stands for: itself, or the one it is a typing slip of (one letter added, left out,
 *  changed or two swapped), when exactly one name word is that close. */
function nameWordOf(word: string, index: NameIndex): string {
  if (index.byWord.has(word) || word.length < 5 || /\d/.test(word)) return word;
  const close = new Set(
    [word, ...withoutOneLetter(word)].flatMap((form) => [
      ...(index.slips.get(form) ?? []),
      ...(index.byWord.has(form) && form.length >= 5 ? [form] : []),
    ]),
  );
  close.delete(word);
  const candidates = [...close].filter((c) => isOneSlip(word, c));
  return candidates.length === 1 ? candidates[0]! : word;
}

/** One letter added, left out or changed, or two neighbours swapped. */
function isOneSlip(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const rest = (x: string, skip: number) => x.slice(i + skip);
  return (
    rest(a, 1) === rest(b, 1) ||
    rest(a, 1) === rest(b, 0) ||
    rest(a, 0) === rest(b, 1) ||
    (a[i] === b[i + 1] && a[i + 1] === b[i] && rest(a, 2) === rest(b, 2))
  );
}

/**
 * Look-alike projects told apart: where any of `texts` has a word a few projects share, each text that has units
 * of one of them that the others lack names it (per text, the projects and the words). `implied`: shared words the
 * conversation is about without writing them (a reply in a thread filed in a look-alike), read in the texts given
 * there only (the new text); a unit found through them alone is one word of a name, not a phrase: the reply may
 * still be about the thread's project.
 */
export function lookalikeMatchesIn(
  written: readonly string[],
  index: NameIndex,
  implied?: { words: ReadonlySet<string>; texts: ReadonlySet<number> },
): { text: number; match: NameMatch }[] {
  if (index.lookalikes.size === 0) return [];
  const texts = written.map((t) => expandShortForms(t, index).text);
  const shared = new Set(
    texts.flatMap((t) => wordsOf(t).map((w) => nameWordOf(w, index))).filter((w) => index.lookalikes.has(w)),
  );
  const unwritten = [...(implied?.words ?? [])].filter((w) => index.lookalikes.has(w) && !shared.has(w));
  const found = new Map<string, { text: number; match: NameMatch }>();
  texts.forEach((text, i) => {
    const units = new Set([...unitsOf(text)].map((u) => (u.includes(' ') ? u : nameWordOf(u, index))));
    const tokens = tokensOf(text).map((w) => nameWordOf(w, index));
    const readHere = implied?.texts.has(i) ? unwritten : [];
    for (const word of [...shared, ...readHere])
      for (const { projectId, units: own } of index.lookalikes.get(word)!) {
        const telling = own.filter(
          (u) => units.has(u) && (!genericWords.has(u) || !tokens.includes(word) || near(tokens, u, word)),
        );
        if (telling.length > 0 && !found.has(`${i} ${projectId}`))
          found.set(`${i} ${projectId}`, {
            text: i,
            match: {
              projectId,
              strength: shared.has(word) ? 'phrase' : 'word',
              words: `${shared.has(word) ? word : `(${word})`} … ${telling.join(', ')}`,
            },
          });
      }
  });
  return [...found.values()];
}

/** The look-alike groups' shared words a text writes (short forms and typing slips read as in names). */
export function lookalikeWordsIn(written: string, index: NameIndex): string[] {
  if (index.lookalikes.size === 0) return [];
  const words = wordsOf(expandShortForms(written, index).text).map((w) => nameWordOf(w, index));
  return [...new Set(words.filter((w) => index.lookalikes.has(w)))];
}

/** In a text that writes the look-alikes' shared word, a word of what kind a project is ("new", "renovation") tells
 *  them apart only next to it ("St Brigid's renovation"), not anywhere ("St Brigid's … we need new isolators"). */
const NEAR = 3;
function near(tokens: string[], unit: string, word: string): boolean {
  return tokens.some((t, i) => t === unit && tokens.slice(Math.max(0, i - NEAR), i + NEAR + 1).includes(word));
}

/** The strongest way each project is named in `text`. */
export function nameMatchesIn(written: string, index: NameIndex): NameMatch[] {
  const { text, named } = expandShortForms(written, index);
  const words = wordsOf(text).map((w) => nameWordOf(w, index));
  const best = new Map<string, NameMatch>();
  const keep = (m: NameMatch) => {
    const current = best.get(m.projectId);
    if (!current || rankOf(m.strength) < rankOf(current.strength)) best.set(m.projectId, m);
  };
  for (const m of named) keep(m);
  for (let i = 0; i < words.length; i++) {
    for (const variant of index.byWord.get(words[i]!) ?? []) {
      const run = longestRun(words, i, variant.tokens);
      const matched = words.slice(i, i + run);
      const phrase = matched.join(' ');
      if (run === variant.tokens.length && run > 0)
        keep({ projectId: variant.projectId, strength: variant.kind, words: phrase });
      else if (run >= 2) {
        if (matched.some((w) => !index.weak.has(w)) || ownsPhrase(index, matched, variant.projectId))
          keep({ projectId: variant.projectId, strength: 'phrase', words: phrase });
        // "Phase 2", "Building 3": a generic word with a number says nothing.
        else if (matched.filter((w) => !/^\d+$/.test(w)).length >= 2)
          keep({ projectId: variant.projectId, strength: 'generic-phrase', words: phrase });
      } else if (isSwappedPair(words, i, variant.tokens, index))
        keep({ projectId: variant.projectId, strength: 'phrase', words: `${words[i]} ${words[i + 1]}` });
      else if (index.distinctive.get(words[i]!) === variant.projectId)
        keep({ projectId: variant.projectId, strength: 'word', words: phrase });
    }
  }
  // A look-alike whose name holds only the start of what another's names more strongly ("Westgate Park Phase" of
  // "Westgate Park Phase 2") is not named by it; nor, by a whole name, one whose name is only the start of its
  // sibling's name written there ("Marlow Terraces Stage" of "Marlow Terraces Stage B": the "A" of Stage A is a stop
  // word): that is the sibling's name, not its own.
  const found = [...best.values()];
  return found.filter(
    (m) =>
      !found.some(
        (o) =>
          (m.strength === 'generic-phrase' ? rankOf(o.strength) < rankOf(m.strength) : o.strength === 'name') &&
          (m.strength === 'generic-phrase' ? o.words.startsWith(m.words) : o.words.startsWith(`${m.words} `)),
      ),
  );
}

/**
 * Whether words that are each shared or generic make, in this order, a phrase of one project's names only, with a word
 * that is not a kind of building: "Oak Valley Middle School" names the middle school when "Oak Valley" names two
 * schools and "middle school" any. "Phase 2" does not (a kind and a number).
 */
function ownsPhrase(index: NameIndex, matched: string[], projectId: string): boolean {
  if (!matched.some((w) => !genericWords.has(w) && !/^\d+$/.test(w))) return false;
  return (index.byWord.get(matched[0]!) ?? []).every(
    (v) => v.projectId === projectId || longestRun(matched, 0, v.tokens) < matched.length,
  );
}

/**
 * Two words of one name side by side in the other order, neither a kind of building nor shared with another project:
 * people reorder a long name ("the Stellenbosch residence" for "Die Wingerd Student Residence, Stellenbosch").
 */
function isSwappedPair(words: string[], i: number, tokens: string[], index: NameIndex): boolean {
  const next = words[i + 1];
  if (next === undefined || next === words[i] || index.weak.has(next) || index.weak.has(words[i]!)) return false;
  const at = tokens.indexOf(next);
  return at >= 0 && at < tokens.indexOf(words[i]!);
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
