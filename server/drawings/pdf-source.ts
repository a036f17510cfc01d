import { constants, inflateSync } from 'node:zlib';
import { integerOf, nameOf, type PdfDict, PdfLexer, type PdfRef, type PdfValue, UnsupportedPdf } from './pdf-syntax.js';

/** An object as stored: its value and, for a stream, its still-encoded data. */
export interface PdfObject {
  value: PdfValue;
  streamData?: Buffer;
}

/** Where an object lives: at a byte offset, or as the n-th object of an object stream. */
type XrefEntry = { offset: number } | { stream: number; index: number } | null;

/** A page as it is copied: its dictionary with the inherited attributes written into it and no parent. */
export interface SourcePage {
  num: number;
  dict: PdfDict;
}

// Attributes a page takes from its ancestors when it does not set them (ISO 32000-1 §7.7.3.4).
const INHERITABLE = ['/Resources', '/MediaBox', '/CropBox', '/Rotate'];
const MAX_TREE_DEPTH = 64;

/**
 * One PDF read through its cross-reference data (tables, streams, hybrid files, incremental updates): objects
 * are found by number and parsed only when asked for, stream data is handed over still encoded. Files it cannot
 * read exactly (encrypted, damaged cross-references, unusual filters) throw {@link UnsupportedPdf}.
 */
export class PdfSource {
  private readonly xref = new Map<number, XrefEntry>();
  private readonly objectStreams = new Map<number, { data: Buffer; offsets: Map<number, number> }>();
  readonly trailer: PdfDict;

  constructor(private readonly bytes: Buffer) {
    if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new UnsupportedPdf('header not at the start');
    const tail = bytes.subarray(Math.max(0, bytes.length - 1024));
    const at = tail.lastIndexOf('startxref');
    if (at < 0) throw new UnsupportedPdf('no startxref');
    const lexer = new PdfLexer(tail, at + 'startxref'.length);
    this.trailer = this.readXrefChain(lexer.integer());
    if (this.trailer.entries.has('/Encrypt')) throw new UnsupportedPdf('encrypted');
  }

  /** Whether `num` names an object of the file (a reference to anything else means null). */
  has(num: number): boolean {
    return !!this.xref.get(num);
  }

  object(num: number): PdfObject {
    const entry = this.xref.get(num);
    if (!entry) throw new UnsupportedPdf(`object ${num} is not in the file`);
    if ('offset' in entry) return this.objectAt(entry.offset, num);
    const stream = this.objectStream(entry.stream);
    const at = stream.offsets.get(num);
    if (at === undefined) throw new UnsupportedPdf(`object ${num} is not in object stream ${entry.stream}`);
    return { value: new PdfLexer(stream.data, at).value() };
  }

  resolve(value: PdfValue | undefined): PdfValue | undefined {
    return value?.kind === 'ref' ? (this.has(value.num) ? this.object(value.num).value : undefined) : value;
  }

  /** The pages in document order, from the catalogue's page tree. */
  pages(): SourcePage[] {
    const root = this.resolve(this.trailer.entries.get('/Root'));
    if (root?.kind !== 'dict') throw new UnsupportedPdf('no catalogue');
    const pagesRef = root.entries.get('/Pages');
    if (pagesRef?.kind !== 'ref') throw new UnsupportedPdf('no page tree');
    const pages: SourcePage[] = [];
    this.collectPages(pagesRef, new Map(), new Set(), pages, 0);
    return pages;
  }

  private collectPages(
    ref: PdfRef,
    inherited: Map<string, PdfValue>,
    seen: Set<number>,
    pages: SourcePage[],
    depth: number,
  ): void {
    if (seen.has(ref.num) || depth > MAX_TREE_DEPTH) throw new UnsupportedPdf('page tree loops');
    seen.add(ref.num);
    const node = this.object(ref.num).value;
    if (node.kind !== 'dict') throw new UnsupportedPdf('page tree node is not a dictionary');
    const kids = this.resolve(node.entries.get('/Kids'));
    if (nameOf(node.entries.get('/Type')) === 'Page' || !kids) {
      const entries = new Map(node.entries);
      entries.delete('/Parent');
      for (const [key, value] of inherited) if (!entries.has(key)) entries.set(key, value);
      pages.push({ num: ref.num, dict: { kind: 'dict', entries } });
      return;
    }
    if (kids.kind !== 'array') throw new UnsupportedPdf('page tree kids are not an array');
    const passedOn = new Map(inherited);
    for (const key of INHERITABLE) {
      const value = node.entries.get(key);
      if (value) passedOn.set(key, value);
    }
    for (const kid of kids.items) {
      if (kid.kind !== 'ref') throw new UnsupportedPdf('page tree kid is not a reference');
      this.collectPages(kid, passedOn, seen, pages, depth + 1);
    }
  }

  /** `num 0 obj <value> [stream … endstream] endobj` at `offset`; the header must name `num`. */
  private objectAt(offset: number, num: number): PdfObject {
    const lexer = new PdfLexer(this.bytes, offset);
    if (lexer.integer() !== num) throw new UnsupportedPdf(`cross-reference offset of object ${num} is wrong`);
    lexer.integer();
    lexer.expect('obj');
    const value = lexer.value();
    if (value.kind !== 'dict' || lexer.word(true) !== 'stream') return { value };
    lexer.word();
    return { value, streamData: this.streamData(lexer, value) };
  }

  /** The bytes between `stream` and `endstream`, by the dictionary's /Length, checked against the keywords. */
  private streamData(lexer: PdfLexer, dict: PdfDict): Buffer {
    const b = this.bytes;
    let start = lexer.pos;
    if (b[start] === 13) start++;
    if (b[start] === 10) start++;
    const length = integerOf(this.resolve(dict.entries.get('/Length')));
    if (length === undefined) throw new UnsupportedPdf('stream without a usable /Length');
    const after = new PdfLexer(b, start + length);
    if (after.word() !== 'endstream') throw new UnsupportedPdf('stream /Length does not reach endstream');
    return b.subarray(start, start + length);
  }

  /** Reads the cross-reference section at `offset` and every older one it points to; returns the newest trailer. */
  private readXrefChain(offset: number): PdfDict {
    let newest: PdfDict | undefined;
    const visited = new Set<number>();
    for (let at: number | undefined = offset; at !== undefined; ) {
      if (visited.has(at)) throw new UnsupportedPdf('cross-reference sections loop');
      visited.add(at);
      const trailer = this.readXrefSection(at);
      newest ??= trailer;
      at = integerOf(trailer.entries.get('/Prev'));
    }
    return newest!;
  }

  private readXrefSection(offset: number): PdfDict {
    const lexer = new PdfLexer(this.bytes, offset);
    if (lexer.word(true) !== 'xref') return this.readXrefStream(offset);
    lexer.word();
    while (lexer.word(true) !== 'trailer') {
      const first = lexer.integer();
      const count = lexer.integer();
      for (let num = first; num < first + count; num++) {
        const entryOffset = lexer.integer();
        lexer.integer();
        const type = lexer.word();
        if (type !== 'n' && type !== 'f') throw new UnsupportedPdf(`bad cross-reference entry for ${num}`);
        this.addEntry(num, type === 'n' ? { offset: entryOffset } : null);
      }
    }
    lexer.word();
    this.expectTrailerDict(lexer);
    const trailer = lexer.dict();
    // A hybrid file lists its compressed objects in a cross-reference stream beside the table.
    const hybrid = integerOf(trailer.entries.get('/XRefStm'));
    if (hybrid !== undefined) this.readXrefStream(hybrid);
    return trailer;
  }

  private expectTrailerDict(lexer: PdfLexer): void {
    lexer.skipSpace();
    if (this.bytes[lexer.pos] !== 60 || this.bytes[lexer.pos + 1] !== 60) throw new UnsupportedPdf('no trailer');
  }

  private readXrefStream(offset: number): PdfDict {
    const lexer = new PdfLexer(this.bytes, offset);
    const num = lexer.integer();
    const { value, streamData } = this.objectAt(offset, num);
    if (value.kind !== 'dict' || !streamData || nameOf(value.entries.get('/Type')) !== 'XRef') {
      throw new UnsupportedPdf('startxref does not point at cross-reference data');
    }
    const widths = integersOf(value.entries.get('/W'));
    const size = integerOf(value.entries.get('/Size'));
    if (widths?.length !== 3 || size === undefined) throw new UnsupportedPdf('bad cross-reference stream');
    const index = integersOf(value.entries.get('/Index')) ?? [0, size];
    const data = decodeStream(value, streamData);
    const rowLength = widths[0]! + widths[1]! + widths[2]!;
    let row = 0;
    for (let i = 0; i + 1 < index.length; i += 2) {
      for (let n = index[i]!; n < index[i]! + index[i + 1]!; n++, row++) {
        if ((row + 1) * rowLength > data.length) throw new UnsupportedPdf('cross-reference stream too short');
        let at = row * rowLength;
        const field = (width: number, absent: number) => {
          if (width === 0) return absent;
          let v = 0;
          for (let k = 0; k < width; k++) v = v * 256 + data[at++]!;
          return v;
        };
        const type = field(widths[0]!, 1);
        const a = field(widths[1]!, 0);
        const b = field(widths[2]!, 0);
        if (type === 1) this.addEntry(n, { offset: a });
        else if (type === 2) this.addEntry(n, { stream: a, index: b });
        else this.addEntry(n, null);
      }
    }
    return value;
  }

  /** Newer sections are read first: an entry already known wins. */
  private addEntry(num: number, entry: XrefEntry): void {
    if (!this.xref.has(num)) this.xref.set(num, entry);
  }

  private objectStream(num: number) {
    const cached = this.objectStreams.get(num);
    if (cached) return cached;
    const entry = this.xref.get(num);
    if (!entry || !('offset' in entry)) throw new UnsupportedPdf(`object stream ${num} not found`);
    const { value, streamData } = this.objectAt(entry.offset, num);
    if (value.kind !== 'dict' || !streamData) throw new UnsupportedPdf(`object stream ${num} is not a stream`);
    const count = integerOf(value.entries.get('/N'));
    const first = integerOf(value.entries.get('/First'));
    if (count === undefined || first === undefined) throw new UnsupportedPdf('bad object stream');
    const data = decodeStream(value, streamData);
    const header = new PdfLexer(data);
    const offsets = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const objectNum = header.integer();
      offsets.set(objectNum, first + header.integer());
    }
    const stream = { data, offsets };
    // Only the stream being read is kept: objects of one stream are usually asked for together.
    this.objectStreams.clear();
    this.objectStreams.set(num, stream);
    return stream;
  }
}

function integersOf(value: PdfValue | undefined): number[] | undefined {
  if (value?.kind !== 'array') return undefined;
  const numbers = value.items.map(integerOf);
  return numbers.every((n) => n !== undefined) ? (numbers as number[]) : undefined;
}

/** Decodes cross-reference and object streams: no filter, or Flate with an optional PNG predictor. */
function decodeStream(dict: PdfDict, data: Buffer): Buffer {
  const filter = dict.entries.get('/Filter');
  const filterName = filter?.kind === 'array' && filter.items.length === 1 ? nameOf(filter.items[0]) : nameOf(filter);
  if (!filter) return data;
  if (filterName !== 'FlateDecode') throw new UnsupportedPdf(`filter ${filterName} on a structural stream`);
  const inflated = inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH });
  const params = dict.entries.get('/DecodeParms');
  const paramDict = params?.kind === 'array' ? params.items[0] : params;
  if (paramDict?.kind !== 'dict') return inflated;
  const predictor = integerOf(paramDict.entries.get('/Predictor')) ?? 1;
  if (predictor === 1) return inflated;
  if (predictor < 10) throw new UnsupportedPdf('TIFF predictor on a structural stream');
  const colors = integerOf(paramDict.entries.get('/Colors')) ?? 1;
  const bits = integerOf(paramDict.entries.get('/BitsPerComponent')) ?? 8;
  const columns = integerOf(paramDict.entries.get('/Columns')) ?? 1;
  return undoPngPredictor(
    inflated,
    Math.ceil((colors * bits * columns) / 8),
    Math.max(1, Math.ceil((colors * bits) / 8)),
  );
}

/** PNG row filters (RFC 2083 §6): each row starts with its filter type. */
function undoPngPredictor(data: Buffer, rowLength: number, pixelBytes: number): Buffer {
  const rows = Math.floor(data.length / (rowLength + 1));
  const out = Buffer.alloc(rows * rowLength);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (rowLength + 1)];
    const src = r * (rowLength + 1) + 1;
    const dst = r * rowLength;
    for (let i = 0; i < rowLength; i++) {
      const left = i >= pixelBytes ? out[dst + i - pixelBytes]! : 0;
      const up = r > 0 ? out[dst + i - rowLength]! : 0;
      const upLeft = r > 0 && i >= pixelBytes ? out[dst + i - rowLength - pixelBytes]! : 0;
      const raw = data[src + i]!;
      if (type === 0) out[dst + i] = raw;
      else if (type === 1) out[dst + i] = raw + left;
      else if (type === 2) out[dst + i] = raw + up;
      else if (type === 3) out[dst + i] = raw + ((left + up) >> 1);
      else if (type === 4) out[dst + i] = raw + paeth(left, up, upLeft);
      else throw new UnsupportedPdf(`PNG filter type ${type}`);
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
