import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors.js';
import { isIsoTimestamp } from './iso-dates.js';

/**
 * Opaque keyset cursors: base64url JSON of the last row's sort key and id, plus a short hash of the
 * sort and filters the list was made with, so a cursor reused with other filters is a 400; then `.` and an
 * HMAC of that JSON under the server's cursor key, so an edited or made-up cursor is a 400 before any of its
 * values is looked at (issue 28: forged keys with NUL or impossible dates reached SQL).
 */
export interface CursorPayload {
  /** Sort-key values of the last row returned, in the order of the ORDER BY (ISO strings for dates). */
  k: (string | number | null)[];
  /** The last row's id (the tiebreak). */
  id: string;
}

const bindingHash = (binding: unknown): string =>
  createHash('sha256').update(JSON.stringify(binding)).digest('base64url').slice(0, 12);

/** The secret cursors are signed with (`cursorKeyFrom`); every instance sharing the token key shares it. */
export type CursorKey = Buffer & { readonly __cursorKey: unique symbol };

/** The cursor key derived from the token signing secret: one secret to configure, separate uses of it. */
export const cursorKeyFrom = (signingSecret: string): CursorKey =>
  createHmac('sha256', signingSecret).update('sitefile cursor key v1').digest() as CursorKey;

const MAC_LENGTH = 22; // base64url characters: 132 bits
const macOf = (key: CursorKey, body: string) =>
  createHmac('sha256', key).update(body).digest('base64url').slice(0, MAC_LENGTH);

const signed = (key: CursorKey, fields: CursorPayload & { f: string }): string => {
  const body = Buffer.from(JSON.stringify(fields)).toString('base64url');
  return `${body}.${macOf(key, body)}`;
};

export function encodeCursor(key: CursorKey, payload: CursorPayload, binding: unknown): string {
  return signed(key, { ...payload, f: bindingHash(binding) });
}

/**
 * A cursor this key signed, moved to another row of the same list (its binding kept): how the benches reach a deep
 * page without walking to it. A cursor the key did not sign throws.
 */
export function movedCursor(key: CursorKey, cursor: string, payload: CursorPayload): string {
  const dot = cursor.lastIndexOf('.');
  const body = cursor.slice(0, dot);
  if (dot === -1 || cursor.slice(dot + 1) !== macOf(key, body)) throw new Error('Not a cursor signed with this key');
  const { f } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { f: string };
  return signed(key, { ...payload, f });
}

/** The payload of a cursor made by this server for this binding; anything else (garbage, tampering, other
 *  filters) → 400. */
export function decodeCursor(key: CursorKey, cursor: string, binding: unknown): CursorPayload {
  const dot = cursor.lastIndexOf('.');
  const body = cursor.slice(0, dot);
  const mac = Buffer.from(cursor.slice(dot + 1));
  const expected = Buffer.from(macOf(key, body));
  if (dot === -1 || mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
    throw ApiError.badRequest('Invalid cursor');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
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
  /** A count (a PostgreSQL integer: 0 to 2^31 - 1). */
  count: number;
}

const keyFits: { [K in keyof SortKeys]: (value: unknown) => value is SortKeys[K] } = {
  text: (value) => typeof value === 'string',
  timestamp: isIsoTimestamp,
  'timestamp or null': (value) => value === null || isIsoTimestamp(value),
  count: (value): value is number =>
    Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 2 ** 31 - 1,
};

/**
 * The position a cursor of this binding holds (undefined without a cursor): exactly one sort key of `kind`,
 * checked before any SQL, so a forged key is a 400 and never a failed cast.
 */
export function cursorPosition<K extends keyof SortKeys>(
  key: CursorKey,
  cursor: string | undefined,
  binding: unknown,
  kind: K,
): KeysetPosition<SortKeys[K]> | undefined {
  if (cursor === undefined) return undefined;
  const { k, id } = decodeCursor(key, cursor, binding);
  const [sortKey] = k;
  if (k.length !== 1 || !keyFits[kind](sortKey)) throw ApiError.badRequest('Invalid cursor');
  return { key: sortKey, id };
}

/** Makes the cursor after a row from its keyset position. */
export const keysetCursor =
  <Row>(key: CursorKey, binding: unknown, positionOf: (row: Row) => KeysetPosition<CursorPayload['k'][number]>) =>
  (row: Row): string => {
    const position = positionOf(row);
    return encodeCursor(key, { k: [position.key], id: position.id }, binding);
  };

/** The position of a row of a list newest first (created_at, id). */
export const createdAtPosition = (row: { createdAt: Date; id: string }): KeysetPosition => ({
  key: row.createdAt.toISOString(),
  id: row.id,
});

/**
 * One page of a list in created-at order (createdAt, id): the position after the request's cursor, bound to
 * `binding`, the `limit + 1` rows `read` gives from it, and the page cut from them with the next cursor.
 */
export async function createdAtPage<Row extends { createdAt: Date; id: string }>(
  key: CursorKey,
  binding: unknown,
  request: { cursor?: string; limit: number },
  read: (after: KeysetPosition<string> | undefined) => Promise<readonly Row[]>,
) {
  const rows = await read(cursorPosition(key, request.cursor, binding, 'timestamp'));
  return cutPage(rows, request.limit, keysetCursor(key, binding, createdAtPosition));
}

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
