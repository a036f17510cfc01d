import {
  PDFContext,
  PDFCrossRefSection,
  type PDFDocument,
  PDFHeader,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectCopier,
  PDFRef,
  PDFStream,
  PDFTrailer,
  PDFTrailerDict,
} from 'pdf-lib';
import { PdfSource, type SourcePage } from './pdf-source.js';
import { type PdfRef, token, UnsupportedPdf, writeValue } from './pdf-syntax.js';

/**
 * Writes one PDF from many, sheet by sheet, without holding the result: each source's pages are copied
 * (with everything they reference), serialised at once, and dropped. Only the page references, the bookmarks
 * and the cross-reference offsets stay until the end, where the page tree, the outline (one bookmark per sheet)
 * and the catalogue are written. pdf-lib's own `save()` builds the whole file in memory; this keeps memory at
 * about one source document whatever the number of sheets.
 *
 * A source is first copied by {@link addRawDocument}: objects found through the file's cross-reference data
 * and written back byte for byte with new numbers, stream data untouched (several times faster than parsing
 * the whole file). A file that way cannot read exactly goes through pdf-lib ({@link addDocument}), which
 * parses everything and tolerates damage.
 */
export class PdfBundleWriter {
  private readonly out = PDFContext.create();
  private readonly pagesRef = this.out.nextRef();
  private readonly outlinesRef = this.out.nextRef();
  private readonly catalogRef = this.out.nextRef();
  private readonly pageRefs: PDFRef[] = [];
  private readonly bookmarks: { title: string; pageRef: PDFRef }[] = [];
  private readonly offsets = new Map<number, number>();
  private written = 0;

  /** The file header: the first bytes of the output. */
  start(): Buffer {
    // pdf-lib's header carries the binary comment line that tells transfer tools the file is binary.
    const header = PDFHeader.forVersion(1, 7);
    const bytes = Buffer.alloc(header.sizeInBytes() + 2, '\n');
    header.copyBytesInto(bytes, 0);
    this.written += bytes.length;
    return bytes;
  }

  /**
   * Appends every page of the PDF in `bytes` under one bookmark by copying its objects as they are; returns the
   * bytes to write next, or undefined (with nothing written) when the file needs {@link addDocument}.
   */
  addRawDocument(bytes: Buffer, title: string): Buffer | undefined {
    try {
      const source = new PdfSource(bytes);
      const pages = source.pages();
      if (pages.length === 0) return undefined;
      return this.commit(this.copyObjects(source, pages), title);
    } catch (err) {
      if (err instanceof UnsupportedPdf) return undefined;
      throw err;
    }
  }

  /** The pages of `source` and everything they reference, renumbered after the objects already written. */
  private copyObjects(source: PdfSource, pages: SourcePage[]): CopiedObjects {
    let last = this.out.largestObjectNumber;
    const numbers = new Map<number, number>();
    const queue: number[] = [];
    const mapRef = (ref: PdfRef) => {
      if (!source.has(ref.num)) return undefined;
      let num = numbers.get(ref.num);
      if (num === undefined) {
        num = ++last;
        numbers.set(ref.num, num);
        queue.push(ref.num);
      }
      return num;
    };
    const pageDicts = new Map(pages.map((page) => [page.num, page.dict]));
    const parent = token(`${this.pagesRef.objectNumber} 0 R`);
    for (const page of pages) {
      mapRef({ kind: 'ref', num: page.num, gen: 0 });
      page.dict.entries.set('/Parent', parent);
    }
    const chunks: Buffer[] = [];
    const objects: { num: number; at: number }[] = [];
    let size = 0;
    for (let i = 0; i < queue.length; i++) {
      const sourceNum = queue[i]!;
      const page = pageDicts.get(sourceNum);
      const { value, streamData } = page ? { value: page, streamData: undefined } : source.object(sourceNum);
      const num = numbers.get(sourceNum)!;
      const parts: Buffer[] = [Buffer.from(`${num} 0 obj\n`, 'latin1')];
      if (streamData) {
        if (value.kind !== 'dict') throw new UnsupportedPdf('stream without a dictionary');
        value.entries.set('/Length', token(String(streamData.length)));
        writeValue(value, parts, mapRef);
        parts.push(streamStart, streamData, streamEnd, endObj);
      } else {
        writeValue(value, parts, mapRef);
        parts.push(endObj);
      }
      objects.push({ num, at: size });
      for (const part of parts) size += part.length;
      chunks.push(...parts);
    }
    return { chunks, objects, last, pages: pages.map((page) => numbers.get(page.num)!) };
  }

  /** Records what {@link copyObjects} made as written. */
  private commit(copied: CopiedObjects, title: string): Buffer {
    for (const { num, at } of copied.objects) this.offsets.set(num, this.written + at);
    this.out.largestObjectNumber = copied.last;
    const refs = copied.pages.map((num) => PDFRef.of(num));
    this.pageRefs.push(...refs);
    this.bookmarks.push({ title, pageRef: refs[0]! });
    const bytes = Buffer.concat(copied.chunks);
    this.written += bytes.length;
    return bytes;
  }

  /** Appends every page of `source` under one bookmark; returns the bytes to write next. */
  addDocument(source: PDFDocument, title: string): Buffer {
    const firstNew = this.out.largestObjectNumber + 1;
    const copier = PDFObjectCopier.for(source.context, this.out);
    const refs = source.getPages().map((page) => {
      const copy = copier.copy(page.node);
      copy.set(PDFName.of('Parent'), this.pagesRef);
      return this.out.register(copy);
    });
    if (refs.length === 0) return Buffer.alloc(0);
    this.pageRefs.push(...refs);
    this.bookmarks.push({ title, pageRef: refs[0]! });
    const chunks: Buffer[] = [];
    for (let n = firstNew; n <= this.out.largestObjectNumber; n++) {
      const ref = PDFRef.of(n);
      const object = this.out.lookup(ref);
      // A dangling reference in the source leaves its number unassigned: it reads as null.
      if (!object) continue;
      chunks.push(this.object(ref, object));
      this.out.delete(ref);
    }
    return Buffer.concat(chunks);
  }

  get pageCount(): number {
    return this.pageRefs.length;
  }

  /** Page tree, outline, catalogue, cross-reference table and trailer: the last bytes of the output. */
  finish(): Buffer {
    const out = this.out;
    const chunks: Buffer[] = [];
    chunks.push(
      this.object(
        this.pagesRef,
        out.obj({ Type: 'Pages', Kids: this.pageRefs, Count: PDFNumber.of(this.pageRefs.length) }),
      ),
    );
    const itemRefs = this.bookmarks.map(() => out.nextRef());
    this.bookmarks.forEach((bookmark, i) => {
      const item = out.obj({
        Title: PDFHexString.fromText(bookmark.title),
        Parent: this.outlinesRef,
        Dest: [bookmark.pageRef, 'Fit'],
      });
      if (i > 0) item.set(PDFName.of('Prev'), itemRefs[i - 1]!);
      if (i < itemRefs.length - 1) item.set(PDFName.of('Next'), itemRefs[i + 1]!);
      chunks.push(this.object(itemRefs[i]!, item));
    });
    const outlines = out.obj({ Type: 'Outlines', Count: PDFNumber.of(itemRefs.length) });
    if (itemRefs.length > 0) {
      outlines.set(PDFName.of('First'), itemRefs[0]!);
      outlines.set(PDFName.of('Last'), itemRefs[itemRefs.length - 1]!);
    }
    chunks.push(this.object(this.outlinesRef, outlines));
    chunks.push(
      this.object(
        this.catalogRef,
        out.obj({ Type: 'Catalog', Pages: this.pagesRef, Outlines: this.outlinesRef, PageMode: 'UseOutlines' }),
      ),
    );

    const xrefOffset = this.written;
    const xref = PDFCrossRefSection.create();
    for (let n = 1; n <= out.largestObjectNumber; n++) {
      const offset = this.offsets.get(n);
      if (offset === undefined) xref.addDeletedEntry(PDFRef.of(n, 1), 0);
      else xref.addEntry(PDFRef.of(n), offset);
    }
    const trailerDict = PDFTrailerDict.of(
      out.obj({ Size: PDFNumber.of(out.largestObjectNumber + 1), Root: this.catalogRef }),
    );
    chunks.push(
      Buffer.from(`${xref.toString()}\n${trailerDict.toString()}\n\n`, 'latin1'),
      Buffer.from(PDFTrailer.forLastCrossRefSectionOffset(xrefOffset).toString(), 'latin1'),
    );
    return Buffer.concat(chunks);
  }

  private object(ref: PDFRef, object: PDFObject): Buffer {
    const bytes = Buffer.concat([
      Buffer.from(`${ref.objectNumber} ${ref.generationNumber} obj\n`),
      ...bodyOf(object),
      endObj,
    ]);
    this.offsets.set(ref.objectNumber, this.written);
    this.written += bytes.length;
    return bytes;
  }
}

/** One source's objects, serialised, with where each starts in `chunks`: written only once all copied. */
interface CopiedObjects {
  chunks: Buffer[];
  objects: { num: number; at: number }[];
  /** The largest object number used. */
  last: number;
  /** The output numbers of the pages, in order. */
  pages: number[];
}

const endObj = Buffer.from('\nendobj\n');
const streamStart = Buffer.from('\nstream\n');
const streamEnd = Buffer.from('\nendstream');

/** An object's serialised form. Stream contents are passed through as they are: pdf-lib's own
 *  `copyBytesInto` copies them byte by byte, which was the largest cost of a bundle. */
function bodyOf(object: PDFObject): Buffer[] {
  if (object instanceof PDFStream) {
    object.updateDict();
    const contents = object.getContents();
    return [
      serialise(object.dict),
      streamStart,
      Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength),
      streamEnd,
    ];
  }
  return [serialise(object)];
}

function serialise(object: PDFObject): Buffer {
  const bytes = Buffer.allocUnsafe(object.sizeInBytes());
  object.copyBytesInto(bytes, 0);
  return bytes;
}
