import compression from 'compression';
import type { RequestHandler } from 'express';

/** JSON (pages, records, the OpenAPI document) and CSV exports; never files (downloads keep Content-Length and
 *  byte ranges), never the static add-in (express-static-gzip serves it precompressed). */
const COMPRESSED_TYPES = /^(application\/(json|[\w.+-]+\+json)|text\/csv)\b/;

/**
 * gzip or brotli (the client's preference by `Accept-Encoding`, brotli on a tie) for JSON and CSV answers of 1 KB
 * and more. A CSV export stays a stream: each chunk goes through the compressor as it is written, and the
 * compressor's backpressure reaches the export (server/http/csv.ts waits on `res.write`'s answer).
 */
export const compressAnswers = (): RequestHandler =>
  compression({
    filter: (_req, res) => COMPRESSED_TYPES.test(String(res.getHeader('Content-Type') ?? '')),
  });
