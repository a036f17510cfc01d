import { createHash } from 'node:crypto';
import { ApiError } from './errors.js';
import { isIsoTimestamp } from './iso-dates.js';

/**
 * Opaque keyset cursors: base64url JSON of the last row's sort key and id, plus a short hash of the
 * sort and filters the list was made with, so a cursor reused with other filters is a 400.
 */
export interface CursorPayload {
  /** Sort-key values of the last row returned, in the order of the ORDER BY (ISO strings for dates). */
  k: (string | number | null)[];
  /** The last row's id (the tiebreak). */
  id: string;
}

const bindingHash = (binding: unknown): string =>
  createHash('sha256').update(JSON.stringify(binding)).digest('base64url').slice(0, 12);

export function encodeCursor(payload: CursorPayload, binding: unknown): string {
  return Buffer.from(JSON.stringify({ ...payload, f: bindingHash(binding) })).toString('base64url');
}

/** The payload of a cursor made for this binding; anything else (garbage, tampering, other filters) → 400. */
export function decodeCursor(cursor: string, binding: unknown): CursorPayload {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw ApiError.badRequest('Invalid cursor');
  }
  const value = parsed as { k?: unknown; id?: unknown; f?: unknown };
  const validKey =
    Array.isArray(value?.k) && value.k.every((v) => v === null || typeof v === 'string' || typeof v === 'number');
  if (!validKey || typeof value.id !== 'string' || typeof value.f !== 'string') {
    throw ApiError.badRequest('Invalid cursor');
  }
  if (value.f !== bindingHash(binding)) {
    throw ApiError.badRequest('Cursor does not match the current sort and filters; start again without a cursor');
  }
  return { k: value.k as CursorPayload['k'], id: value.id };
}

/** Where a keyset page starts: the sort key and id of the last row before it. */
export interface KeysetPosition<Key extends CursorPayload['k'][number] = string> {
  key: Key;
  id: string;
}

/** The sort keys a keyset cursor may carry, by what they are. */
interface SortKeys {
  text: string;
  /** ISO 8601, as `Date.toISOString()` writes it into the cursor. */
  timestamp: string;
  /** A timestamp, or null for rows without one (sorted after every row with one). */
  'timestamp or null': string | null;
}

const keyFits: { [K in keyof SortKeys]: (value: unknown) => value is SortKeys[K] } = {
  text: (value) => typeof value === 'string',
  timestamp: isIsoTimestamp,
  'timestamp or null': (value) => value === null || isIsoTimestamp(value),
};

/**
 * The position a cursor of this binding holds (undefined without a cursor): exactly one sort key of `kind`,
 * checked before any SQL, so a forged key is a 400 and never a failed cast.
 */
export function cursorPosition<K extends keyof SortKeys>(
  cursor: string | undefined,
  binding: unknown,
  kind: K,
): KeysetPosition<SortKeys[K]> | undefined {
  if (cursor === undefined) return undefined;
  const { k, id } = decodeCursor(cursor, binding);
  const [key] = k;
  if (k.length !== 1 || !keyFits[kind](key)) throw ApiError.badRequest('Invalid cursor');
  return { key, id };
}

/** Makes the cursor after a row from its keyset position. */
export const keysetCursor =
  <Row>(binding: unknown, positionOf: (row: Row) => KeysetPosition<CursorPayload['k'][number]>) =>
  (row: Row): string => {
    const { key, id } = positionOf(row);
    return encodeCursor({ k: [key], id }, binding);
  };

/** The position of a row of a list newest first (created_at, id). */
export const createdAtPosition = (row: { createdAt: Date; id: string }): KeysetPosition => ({
  key: row.createdAt.toISOString(),
  id: row.id,
});

/** The position of a row of a list by name (name, id). */
export const namePosition = (row: { name: string; id: string }): KeysetPosition => ({ key: row.name, id: row.id });

/**
 * Splits the `limit + 1` rows a page query read into the page and, when the extra row says there is more,
 * the cursor after the page's last row (`cursorAfter` may answer null: a list that cannot continue).
 */
export function cutPage<Row>(
  rows: readonly Row[],
  limit: number,
  cursorAfter: (last: Row) => string | null,
): { page: Row[]; hasMore: boolean; nextCursor: string | null } {
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, hasMore, nextCursor: hasMore && last !== undefined ? cursorAfter(last) : null };
}
