import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { PDFDocument } from 'pdf-lib';
import type { Drawing, DrawingBundle, DrawingSummary, SkippedDrawing, SkipReason } from '../../shared/drawings.js';
import type { BlobStore } from '../blobs/store.js';
import type { AppContext } from '../context.js';
import { cursorPosition, cutPage, type KeysetPosition, keysetCursor } from '../cursor.js';
import { signDownload } from '../downloads/signing.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import {
  type BundleRow,
  type DrawingRow,
  drawingPage,
  findBundle,
  findPackage,
  findProject,
  type LatestSheet,
  latestSheets,
  saveBundle,
} from './queries.js';

/** More sheets than this must be bundled by package: keeps one request's work bounded. */
export const MAX_BUNDLE_DRAWINGS = 1000;
/** A single sheet above this is skipped (`file_too_large`): one source is held in memory at a time. */
export const MAX_SHEET_BYTES = 256 * 1024 * 1024;
/** Bump when the output for the same inputs changes (bookmark wording, writer), so old bundles are not reused. */
const BUNDLE_FORMAT = 'pdf-v1';

// Sheet numbers sort the way people read them: A-2 < A-10, A-101 < A-1010; case and accents do not count.
const sheetOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export interface BundleScope {
  organizationId: string;
  projectId: string;
  drawingPackageId?: string;
}

/**
 * The latest revision of every drawing of a project (or package), merged into one PDF in sheet order with one
 * bookmark per sheet. The result is cached by the exact set of revisions that goes in, so asking again costs a
 * lookup; unusable files are skipped with a reason rather than failing the bundle.
 */
export async function bundleDrawings(app: AppContext, scope: BundleScope): Promise<DrawingBundle> {
  const project = await findProject(app.db, scope.projectId);
  if (!project || project.organizationId !== scope.organizationId) throw ApiError.notFound('Project');
  if (scope.drawingPackageId) {
    const pkg = await findPackage(app.db, scope.drawingPackageId);
    if (!pkg || pkg.projectId !== scope.projectId) throw ApiError.notFound('Drawing package');
  }
  const sheets = await latestSheets(app.db, {
    organizationId: scope.organizationId,
    projectId: scope.projectId,
    packageId: scope.drawingPackageId,
  });
  if (sheets.length > MAX_BUNDLE_DRAWINGS) {
    throw ApiError.badRequest(
      `A bundle takes at most ${MAX_BUNDLE_DRAWINGS} drawings and this selection has ${sheets.length}; restrict it with drawingPackageId`,
    );
  }
  sheets.sort((a, b) => sheetOrder.compare(a.number, b.number) || (a.drawingId < b.drawingId ? -1 : 1));
  const cacheKey = cacheKeyOf(scope.drawingPackageId, sheets);

  let bundle = await findBundle(app.db, scope.organizationId, cacheKey);
  const fileGone = bundle?.blobKey && (await app.blobs.stat(bundle.blobKey)) === undefined;
  if (!bundle || fileGone) bundle = await buildOnce(app, scope, sheets, cacheKey);
  return present(app, bundle, `${fileNamePart(project.name)} drawings.pdf`);
}

/** The identity of a bundle: everything that shapes the output, in output order. */
function cacheKeyOf(packageId: string | undefined, sheets: LatestSheet[]): string {
  const hash = createHash('sha256').update(`${BUNDLE_FORMAT}\n${packageId ?? ''}\n`);
  for (const s of sheets) {
    hash.update(JSON.stringify([s.drawingId, s.revisionId, s.blobKey, s.number, s.title, s.revision]));
    hash.update('\n');
  }
  return hash.digest('hex');
}

declare module '../context.js' {
  interface AppCaches {
    /** Bundles being built, by organization and cache key: identical requests arriving together share one. */
    bundleBuilds: Map<string, Promise<BundleRow>>;
  }
}

/** Identical requests arriving together share one build. */
function buildOnce(app: AppContext, scope: BundleScope, sheets: LatestSheet[], cacheKey: string) {
  const builds = app.caches.bundleBuilds;
  const id = `${scope.organizationId}:${cacheKey}`;
  let build = builds.get(id);
  if (!build) {
    build = buildBundle(app, scope, sheets, cacheKey).finally(() => builds.delete(id));
    builds.set(id, build);
  }
  return build;
}

async function buildBundle(
  app: AppContext,
  scope: BundleScope,
  sheets: LatestSheet[],
  cacheKey: string,
): Promise<BundleRow> {
  // pdf-lib (through the writer) is loaded on the first bundle, not at start-up: half a second of every start.
  const { PdfBundleWriter } = await import('./pdf-bundle.js');
  const writer = new PdfBundleWriter();
  const skippedDrawings: SkippedDrawing[] = [];
  let totalSourceBytes = 0;
  /** The sheet's bytes in the bundle, or why it is left out. */
  const includeSheet = async (
    sheet: LatestSheet,
    loaded: Awaited<ReturnType<typeof readSheet>>,
  ): Promise<{ bytes: Buffer; sourceBytes: number } | SkipReason> => {
    if ('reason' in loaded) return loaded.reason;
    const title = bookmarkTitle(sheet);
    const copied = writer.addRawDocument(loaded.bytes, title);
    if (copied) return { bytes: copied, sourceBytes: loaded.size };
    const parsed = await parseSheet(loaded.bytes);
    if ('reason' in parsed) return parsed.reason;
    try {
      const bytes = writer.addDocument(parsed.doc, title);
      return bytes.length > 0 ? { bytes, sourceBytes: loaded.size } : 'unreadable_pdf';
    } catch (err) {
      app.log.warn({ err, drawingId: sheet.drawingId }, 'drawing could not be copied into the bundle');
      return 'unreadable_pdf';
    }
  };
  // The merged file goes to the blob store as it is written: one source document in memory at a time, and the
  // next one read from the store while this one is copied and written.
  async function* output() {
    yield writer.start();
    let reading = sheets[0] && readSheet(app.blobs, sheets[0]);
    for (const [index, sheet] of sheets.entries()) {
      const loaded = await reading!;
      const following = sheets[index + 1];
      reading = following && readSheet(app.blobs, following);
      // Awaited on the next turn; if this build fails first, its failure must not go unhandled.
      reading?.catch(() => {});
      const included = await includeSheet(sheet, loaded);
      if (typeof included === 'string') {
        skippedDrawings.push({ drawingId: sheet.drawingId, number: sheet.number, reason: included });
        continue;
      }
      totalSourceBytes += included.sourceBytes;
      yield included.bytes;
    }
    yield writer.finish();
  }
  const stored = await app.blobs.put(Readable.from(output(), { highWaterMark: 1 }));
  const drawingCount = sheets.length - skippedDrawings.length;
  const row: BundleRow = {
    id: newId('bnd'),
    organizationId: scope.organizationId,
    projectId: scope.projectId,
    packageId: scope.drawingPackageId ?? null,
    cacheKey,
    // Nothing could be included: there is no useful file to hand out.
    blobKey: drawingCount > 0 ? stored.key : null,
    drawingCount,
    totalSourceBytes,
    skippedDrawings,
    createdAt: app.clock.now(),
  };
  await saveBundle(app.db, row);
  return row;
}

/** A sheet's file, checked to be a non-empty PDF of acceptable size, or why it is left out. */
async function readSheet(
  blobs: BlobStore,
  sheet: LatestSheet,
): Promise<{ bytes: Buffer; size: number } | { reason: SkipReason }> {
  if (!sheet.revisionId) return { reason: 'no_revision' };
  if (!sheet.blobKey) return { reason: 'missing_file' };
  const size = await blobs.stat(sheet.blobKey);
  if (size === undefined) return { reason: 'missing_file' };
  if (size === 0) return { reason: 'empty_file' };
  if (size > MAX_SHEET_BYTES) return { reason: 'file_too_large' };
  const bytes = await blobs.readWhole(sheet.blobKey);
  if (!bytes) return { reason: 'missing_file' };
  // PDF readers accept the header anywhere in the first 1024 bytes.
  if (!bytes.subarray(0, 1024).includes('%PDF-')) return { reason: 'not_a_pdf' };
  return { bytes, size };
}

/** The general reader, for files the fast copy cannot read exactly. */
async function parseSheet(bytes: Buffer): Promise<{ doc: PDFDocument } | { reason: SkipReason }> {
  try {
    // Loaded with ignoreEncryption so the flag can be read (pdf-lib's EncryptedPDFError fails `instanceof`).
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
    if (doc.isEncrypted) return { reason: 'encrypted' };
    return doc.getPageCount() > 0 ? { doc } : { reason: 'unreadable_pdf' };
  } catch {
    return { reason: 'unreadable_pdf' };
  }
}

const bookmarkTitle = (sheet: LatestSheet) =>
  `${sheet.number} – ${sheet.title}${sheet.revision ? ` (rev ${sheet.revision})` : ''}`;

const fileNamePart = (name: string) => name.replace(/[^\p{L}\p{N} ._-]+/gu, ' ').trim() || 'Project';

function present(app: AppContext, bundle: BundleRow, fileName: string): DrawingBundle {
  const signed = bundle.blobKey
    ? signDownload(app, { blobKey: bundle.blobKey, fileName, contentType: 'application/pdf' })
    : undefined;
  return {
    downloadUrl: signed?.url ?? null,
    expiresAt: signed?.expiresAt ?? null,
    drawingCount: bundle.drawingCount,
    totalSourceBytes: bundle.totalSourceBytes,
    skippedDrawings: bundle.skippedDrawings as SkippedDrawing[],
  };
}

// --- Reading drawings ---

const sheetPosition = (row: DrawingRow): KeysetPosition => ({ key: row.number, id: row.id });

const summaryOf = ({ packageId, createdAt, latestRevision, ...row }: DrawingRow): DrawingSummary => ({
  ...row,
  drawingPackageId: packageId,
  createdAt: createdAt.toISOString(),
  latestRevision: latestRevision && {
    id: latestRevision.id,
    revision: latestRevision.revision,
    fileName: latestRevision.fileName,
    fileSize: latestRevision.fileSize,
    uploadedAt: latestRevision.uploadedAt,
  },
});

/** A page of the project's drawings by sheet number, each with its latest revision. */
export async function listDrawings(app: AppContext, scope: BundleScope, query: { cursor?: string; limit: number }) {
  const binding = { list: 'drawings', packageId: scope.drawingPackageId };
  const position = cursorPosition(app.cursorKey, query.cursor, binding, 'text');
  const rows = await drawingPage(app.db, filterOf(scope), position, query.limit + 1);
  const { page, nextCursor, hasMore } = cutPage(rows, query.limit, keysetCursor(app.cursorKey, binding, sheetPosition));
  return { data: page.map(summaryOf), nextCursor, hasMore };
}

/** One drawing of the project with a signed download URL of its latest revision's file; 404 outside it. */
export async function getDrawing(app: AppContext, scope: BundleScope, drawingId: string): Promise<Drawing> {
  const [row] = await drawingPage(app.db, { ...filterOf(scope), drawingId }, undefined, 1);
  if (!row) throw ApiError.notFound('Drawing');
  const blobKey = row.latestRevision?.blobKey;
  const signed =
    row.latestRevision && blobKey
      ? signDownload(app, { blobKey, fileName: row.latestRevision.fileName, contentType: 'application/pdf' })
      : undefined;
  return { ...summaryOf(row), downloadUrl: signed?.url ?? null, expiresAt: signed?.expiresAt ?? null };
}

const filterOf = (scope: BundleScope) => ({
  organizationId: scope.organizationId,
  projectId: scope.projectId,
  packageId: scope.drawingPackageId,
});
