// Sending a service's CSV export over HTTP (the export itself: db/csv-export.ts).
import { setTimeout } from 'node:timers/promises';
import type { Request, Response } from 'express';
import type { AppContext } from '../context.js';
import type { CsvDownload } from '../db/csv-export.js';
import type { Listing } from '../listing.js';

/** Whether the request prefers CSV to JSON: `Accept` negotiated with its q-values (`text/csv;q=0` is a refusal,
 *  equal preference goes to the type listed first); no `Accept` or no match answers JSON. */
const wantsCsv = (req: Pick<Request, 'accepts'>): boolean =>
  req.accepts(['application/json', 'text/csv']) === 'text/csv';

const safeFileName = (name: string): string => name.replace(/[^\w.-]+/g, '_').slice(0, 150) || 'export.csv';

/**
 * Waits for the response to take more: the response's 'drain' (the compressor's when the answer is compressed),
 * or its close, or `stallMs` with nothing read (then the response is cut). One 'drain' listener for the whole
 * export: the compressor hands `res.on('drain')` to its stream but `removeListener` not, so a listener per wait
 * would pile up there (thousands over a large export, each called at every drain).
 */
function drainWaiter(res: Response, stallMs: number): () => Promise<boolean> {
  let wake: ((drained: boolean) => void) | undefined;
  const settle = (drained: boolean) => {
    const woken = wake;
    wake = undefined;
    woken?.(drained);
  };
  res.on('drain', () => settle(true));
  res.once('close', () => settle(false));
  return async () => {
    if (res.destroyed || res.writableEnded) return false;
    const timer = new AbortController();
    const drained = await Promise.race([
      new Promise<boolean>((resolve) => (wake = resolve)),
      setTimeout(stallMs, false, { signal: timer.signal }).catch(() => false),
    ]);
    timer.abort();
    wake = undefined;
    if (!drained) res.destroy();
    return drained && !res.destroyed;
  };
}

/**
 * Sends an export: status 200 and the headers once its first chunk has come, so an error before it (bad SQL,
 * lost connection) still becomes a JSON error; then each chunk as the socket takes it. A client that goes
 * away stops the export; an error after the first byte cuts the response (see errorHandler).
 */
export async function sendCsv(res: Response, download: CsvDownload, stallMs: number): Promise<void> {
  const chunks = download.chunks[Symbol.asyncIterator]();
  let next = await chunks.next();
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${safeFileName(download.fileName)}"`);
  res.setHeader('Cache-Control', 'no-store');
  const drained = drainWaiter(res, stallMs);
  try {
    if (!next.done) {
      // The header row out at once: brotli would otherwise hold it until megabytes of rows have come.
      res.write(next.value);
      res.flush?.();
      next = await chunks.next();
    }
    while (!next.done) {
      // write's answer, not the socket's state: with compression (http/compression.ts) it is the compressor's
      // buffer that fills, and 'drain' is the compressor's.
      if (!res.write(next.value) && !(await drained())) return;
      if (res.destroyed) return;
      next = await chunks.next();
    }
    res.end();
  } finally {
    if (!next.done) await chunks.return?.();
  }
}

/**
 * A listing in the form the request asks for: the CSV export sent here, or the page for the route to send.
 * An export takes one of the caller's export slots (`EXPORTS_PER_CLIENT`) until its response is over.
 */
export async function pageOrCsv<P>(
  { app, req, res }: { app: AppContext; req: Request; res: Response },
  listing: Listing<P>,
): Promise<P | undefined> {
  if (!wantsCsv(req)) return listing.page();
  const release = await app.gates.enter('export', req.caller?.callerKey ?? req.ip ?? '');
  try {
    await sendCsv(res, await listing.csv(), app.config.exportStallTimeoutMs);
  } finally {
    release();
  }
  return undefined;
}
