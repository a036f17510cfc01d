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

/**
 * Writes one PDF from many, sheet by sheet, without holding the result: each source's pages are copied
 * (with everything they reference) into an output context, serialised at once, and dropped from it. Only the
 * page references, the bookmarks and the cross-reference offsets stay until the end, where the page tree, the
 * outline (one bookmark per sheet) and the catalogue are written. pdf-lib's own `save()` builds the whole file
 * in memory; this keeps memory at about one source document whatever the number of sheets.
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
