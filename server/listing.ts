import type { CsvDownload } from './db/csv-export.js';
import { ApiError } from './errors.js';

/**
 * A list that answers one JSON page or, with `Accept: text/csv`, every matching row as a CSV export. The
 * service checks the request when it makes the listing; the caller picks the form (the REST route by the
 * `Accept` header, the MCP tools always a page), and nothing is read before it does.
 */
export interface Listing<P> {
  page(): Promise<P>;
  /** `limit` is the row cap here (csvRowCap), not the page size. */
  csv(): Promise<CsvDownload>;
}

/** The spec's row cap for CSV exports: default and maximum. */
export const CSV_MAX_ROWS = 100_000;

/** A requested CSV row cap: absent → 100000, larger → clamped to 100000 (the spec answers 200, not 400). */
export const csvRowCap = (requested: number | undefined): number =>
  requested === undefined ? CSV_MAX_ROWS : Math.min(requested, CSV_MAX_ROWS);

const JSON_PAGE_DEFAULT = 25;
const JSON_PAGE_MAX = 50;

/** The JSON page size of a list that also exports CSV: its schema accepts any positive limit (CSV takes up to
 *  100000 rows), so the JSON bound is checked here — absent → 25, above 50 → 400 naming `limit`. */
export function jsonPageSize(requested: number | undefined): number {
  if (requested === undefined) return JSON_PAGE_DEFAULT;
  if (requested > JSON_PAGE_MAX) {
    throw new ApiError('validation_failed', 'Invalid query parameter: limit', {
      details: [{ path: 'limit', message: `limit must be an integer from 1 to ${JSON_PAGE_MAX}` }],
    });
  }
  return requested;
}
