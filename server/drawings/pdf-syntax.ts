/**
 * The PDF object syntax (ISO 32000-1 §7.2–7.3), read into values that keep their source bytes: numbers,
 * names and strings are written back exactly as they were read, so copying an object changes nothing but its
 * references. Anything this reader does not understand throws {@link UnsupportedPdf}: the caller then falls
 * back to the general (slower) reader rather than guessing.
 */
export type PdfValue = PdfToken | PdfRef | PdfArray | PdfDict;
/** A number, name, string, boolean or null, as its bytes in the source. */
export interface PdfToken {
  kind: 'token';
  bytes: Buffer;
}
export interface PdfRef {
  kind: 'ref';
  num: number;
  gen: number;
}
export interface PdfArray {
  kind: 'array';
  items: PdfValue[];
}
/** Keys are the names as written, with their slash (`/Type`). */
export interface PdfDict {
  kind: 'dict';
  entries: Map<string, PdfValue>;
}

export class UnsupportedPdf extends Error {}

const WHITESPACE = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WHITESPACE[c] = 1;
const DELIMITER = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIMITER[c.charCodeAt(0)] = 1;
const isRegular = (c: number) => !WHITESPACE[c] && !DELIMITER[c];

/** A reader over one buffer; `pos` moves as values are read. */
export class PdfLexer {
  constructor(
    readonly bytes: Buffer,
    public pos = 0,
  ) {}

  /** Skips white space and comments. */
  skipSpace(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (WHITESPACE[c]) this.pos++;
      else if (c === 37 /* % */) {
        while (this.pos < b.length && b[this.pos] !== 10 && b[this.pos] !== 13) this.pos++;
      } else break;
    }
  }

  /** The next run of regular characters (a number or keyword), without moving past it when `peek`. */
  word(peek = false): string {
    this.skipSpace();
    let end = this.pos;
    while (end < this.bytes.length && isRegular(this.bytes[end]!)) end++;
    const word = this.bytes.toString('latin1', this.pos, end);
    if (!peek) this.pos = end;
    return word;
  }

  /** Reads an unsigned integer, or throws. */
  integer(): number {
    const word = this.word();
    if (!/^\d+$/.test(word)) throw new UnsupportedPdf(`expected an integer at ${this.pos}, found "${word}"`);
    return Number(word);
  }

  expect(keyword: string): void {
    const word = this.word();
    if (word !== keyword) throw new UnsupportedPdf(`expected "${keyword}" at ${this.pos}, found "${word}"`);
  }

  value(): PdfValue {
    this.skipSpace();
    const b = this.bytes;
    const start = this.pos;
    const c = b[start];
    if (c === undefined) throw new UnsupportedPdf('unexpected end of data');
    if (c === 47 /* / */) return this.token(start, this.skipName(start + 1));
    if (c === 40 /* ( */) return this.token(start, this.skipLiteralString(start + 1));
    if (c === 91 /* [ */) return this.array();
    if (c === 60 /* < */) return b[start + 1] === 60 ? this.dict() : this.token(start, this.skipHexString(start + 1));
    if (!isRegular(c)) throw new UnsupportedPdf(`unexpected "${String.fromCharCode(c)}" at ${start}`);
    const word = this.word();
    if (/^\d+$/.test(word)) return this.refOrInteger(start, Number(word));
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word) || word === 'true' || word === 'false' || word === 'null') {
      return this.token(start, this.pos);
    }
    throw new UnsupportedPdf(`unexpected "${word}" at ${start}`);
  }

  dict(): PdfDict {
    this.pos += 2;
    const entries = new Map<string, PdfValue>();
    for (;;) {
      this.skipSpace();
      const c = this.bytes[this.pos];
      if (c === 62 /* > */ && this.bytes[this.pos + 1] === 62) {
        this.pos += 2;
        return { kind: 'dict', entries };
      }
      if (c !== 47) throw new UnsupportedPdf(`expected a name key at ${this.pos}`);
      const keyEnd = this.skipName(this.pos + 1);
      const key = this.bytes.toString('latin1', this.pos, keyEnd);
      this.pos = keyEnd;
      entries.set(key, this.value());
    }
  }

  private array(): PdfArray {
    this.pos++;
    const items: PdfValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.bytes[this.pos] === 93 /* ] */) {
        this.pos++;
        return { kind: 'array', items };
      }
      items.push(this.value());
    }
  }

  /** `12 0 R` is a reference; a lone `12` an integer. */
  private refOrInteger(start: number, num: number): PdfValue {
    const afterNum = this.pos;
    const gen = this.word();
    if (/^\d+$/.test(gen) && this.word() === 'R') return { kind: 'ref', num, gen: Number(gen) };
    this.pos = afterNum;
    return this.token(start, afterNum);
  }

  private token(start: number, end: number): PdfToken {
    this.pos = end;
    return { kind: 'token', bytes: this.bytes.subarray(start, end) };
  }

  private skipName(from: number): number {
    let end = from;
    while (end < this.bytes.length && isRegular(this.bytes[end]!)) end++;
    return end;
  }

  private skipHexString(from: number): number {
    const end = this.bytes.indexOf(62 /* > */, from);
    if (end < 0) throw new UnsupportedPdf('unterminated hex string');
    return end + 1;
  }

  /** Past the closing parenthesis: nested pairs balance, a backslash escapes the next byte. */
  private skipLiteralString(from: number): number {
    const b = this.bytes;
    let depth = 1;
    for (let i = from; i < b.length; i++) {
      const c = b[i];
      if (c === 92 /* \ */) i++;
      else if (c === 40) depth++;
      else if (c === 41 && --depth === 0) return i + 1;
    }
    throw new UnsupportedPdf('unterminated string');
  }
}

/** A direct integer value, or undefined when the value is anything else. */
export function integerOf(value: PdfValue | undefined): number | undefined {
  if (value?.kind !== 'token') return undefined;
  const text = value.bytes.toString('latin1');
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/** A name value without its slash, or undefined. */
export function nameOf(value: PdfValue | undefined): string | undefined {
  if (value?.kind !== 'token' || value.bytes[0] !== 47) return undefined;
  return value.bytes.toString('latin1', 1);
}

export const token = (text: string): PdfToken => ({ kind: 'token', bytes: Buffer.from(text, 'latin1') });

/**
 * Appends the bytes of `value` to `out`, each reference passed through `mapRef` (which answers the new object
 * number, or undefined for a reference to nothing, written as `null` as PDF readers treat it).
 */
export function writeValue(value: PdfValue, out: Buffer[], mapRef: (ref: PdfRef) => number | undefined): void {
  switch (value.kind) {
    case 'token':
      out.push(value.bytes, SPACE);
      return;
    case 'ref': {
      const num = mapRef(value);
      out.push(Buffer.from(num === undefined ? 'null ' : `${num} 0 R `, 'latin1'));
      return;
    }
    case 'array':
      out.push(OPEN_ARRAY);
      for (const item of value.items) writeValue(item, out, mapRef);
      out.push(CLOSE_ARRAY);
      return;
    case 'dict':
      out.push(OPEN_DICT);
      for (const [key, item] of value.entries) {
        out.push(Buffer.from(key, 'latin1'), SPACE);
        writeValue(item, out, mapRef);
      }
      out.push(CLOSE_DICT);
  }
}

const SPACE = Buffer.from(' ');
const OPEN_ARRAY = Buffer.from('[');
const CLOSE_ARRAY = Buffer.from('] ');
const OPEN_DICT = Buffer.from('<<');
const CLOSE_DICT = Buffer.from('>> ');
