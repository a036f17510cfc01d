/**
 * Job numbers as people write them: `#4410`, `Job 4410`, `job no. 4410`, `J4410`, `J-4410`, `Project 4410`,
 * `Proj. 4410`, `4410-02`, `4410 - …` and `_4410_` in file names. A number with one of those labels is
 * `labelled`; a bare number counts only where it can match a project's code (the caller compares).
 */
export interface JobNumber {
  /** Digits with an optional suffix: `4410`, `4521-02`. */
  value: string;
  labelled: boolean;
  /** Letters written right before the number ("C2411", "PBS-2411"): it names a project only whose code they spell. */
  prefix?: string;
}

const label = String.raw`(?:job\s*(?:no\.?|number|num|#|ref\.?)?|proj(?:ect)?\.?\s*(?:no\.?|number|#)?|ref(?:erence)?|j-?|#)`;
const number = String.raw`(\d{3,6}(?:-\d{1,3}(?![\d.,]))?)`;
const labelledNumber = new RegExp(String.raw`(?<![\p{L}\p{N}])${label}\s*[:#]?\s*${number}(?![\p{N}]|[.,]\d)`, 'giu');
// Letters may follow a bare number in file names (`4410_Set`, `Job4530_v3`) but not digits, `$` before, or a
// decimal or thousands part after (`$4,410`, `4410.5`).
// A number with letters before it, as an organization's codes are written (`C2411`, `PBS-2411`).
const prefixedNumber = new RegExp(String.raw`(?<![\p{L}\p{N}])(\p{L}{1,4})-?${number}(?![\p{N}]|[.,]\d)`, 'gu');
// Nor a number after another and a hyphen ("015" of "VR-25-015"): such a code is read whole, as a reference.
const bareNumber = new RegExp(String.raw`(?<![\p{L}\p{N}$.,/])(?<!\p{N}-)${number}(?![\p{N}]|[.,]\d)`, 'gu');

export function jobNumbersIn(text: string): JobNumber[] {
  const found = new Map<string, JobNumber>();
  // File names join words with `_`, `-` and `.`: read them as spaces, but keep `4521-02` together.
  const spaced = text.replace(/_/g, ' ');
  for (const m of spaced.matchAll(labelledNumber)) found.set(m[1]!, { value: m[1]!, labelled: true });
  for (const m of spaced.matchAll(prefixedNumber))
    found.set(`${m[1]!.toLowerCase()}${m[2]!}`, { value: m[2]!, labelled: false, prefix: m[1]!.toLowerCase() });
  for (const m of spaced.matchAll(bareNumber))
    if (!found.has(m[1]!)) found.set(m[1]!, { value: m[1]!, labelled: false });
  return [...found.values()];
}

/** A job number at the start of a project name: "4410 Lakeshore …", "J-4410 …", "4410-02 …", "#4410 …". */
export function codeFromName(name: string): string | undefined {
  return name.match(/^\s*(?:j-?|#)?(\d{3,6}(?:-\d{1,3})?)(?=[\s:_–-])/i)?.[1];
}

/** The project's code as compared with job numbers: its code, else the job number its name starts with. */
export function effectiveCode(project: { name: string; code: string | null }): string | undefined {
  if (project.code) return project.code.match(/(\d{3,6}(?:-\d{1,3})?)/)?.[1] ?? project.code.toLowerCase();
  return codeFromName(project.name);
}

/** Whether job-number reading takes the code whole: a number with a suffix, or letters right before it ("C2411",
 *  "PBS-2411", "4521-02"), not a code of more parts ("VR-25-015", "QF-AD-25-031"). */
export const readableAsJobNumber = (code: string) => /^\s*(?:\p{L}{1,4}-?)?\d{3,6}(?:-\d{1,3})?\s*$/u.test(code);

/** Whether a number written with letters before it spells the project's code: "C2411" and "c-2411" for code C2411. */
export const spellsCode = (n: JobNumber, code: string | null) =>
  n.prefix !== undefined &&
  code !== null &&
  code.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '') === n.prefix + n.value.replace(/-/g, '');

/** A job number or code without its suffix: `4521` of `4521-02`. */
export const codeBase = (value: string) => value.split('-')[0]!;

/** `4521-02` matches code `4521-02` exactly, `4521` matches it by its base, and `4410-02` matches code `4410`. */
export function matchesCode(value: string, code: string): 'exact' | 'base' | undefined {
  if (value === code) return 'exact';
  return codeBase(value) === codeBase(code) ? 'base' : undefined;
}
