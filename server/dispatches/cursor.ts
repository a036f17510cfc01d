import { ApiError } from '../errors.js';

/**
 * The comms list's cursors, fixed by the spec: base64url JSON `{d, id}` (d = dispatchedAt, ISO 8601 UTC)
 * for sort `recent` and `{n, id}` (n = recipient count) for sort `largest`. Decoding is strict: anything
 * but exactly that shape for the requested sort is a 400. Being the spec's, they are not signed like the
 * other lists' (cursor.ts): every value is checked instead (no control characters, no year 0).
 */
export type CommsPosition = { sort: 'recent'; d: string; id: string } | { sort: 'largest'; n: number; id: string };

export function encodeCommsCursor(position: CommsPosition): string {
  const payload = position.sort === 'recent' ? { d: position.d, id: position.id } : { n: position.n, id: position.id };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

const invalid = (sort: 'recent' | 'largest') =>
  ApiError.badRequest(`Invalid cursor: expected the nextCursor of a sort=${sort} page`);

const isIsoInstant = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) &&
  !value.startsWith('0000') && // year 0: PostgreSQL has none
  !Number.isNaN(Date.parse(value)) &&
  new Date(value).toISOString() === value;

export function decodeCommsCursor(cursor: string, sort: 'recent' | 'largest'): CommsPosition {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid(sort);
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid(sort);
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw invalid(sort);
  const fields = payload as Record<string, unknown>;
  const keys = Object.keys(fields).sort().join(',');
  const id = fields.id;
  // A NUL cannot reach PostgreSQL text (it refuses it as an invalid byte sequence); no id holds a control character.
  if (typeof id !== 'string' || id.length === 0 || id.length > 200 || /\p{Cc}/u.test(id)) throw invalid(sort);
  if (sort === 'recent') {
    if (keys !== 'd,id' || !isIsoInstant(fields.d)) throw invalid(sort);
    return { sort, d: fields.d, id };
  }
  const n = fields.n;
  if (keys !== 'id,n' || typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > 2_147_483_647) {
    throw invalid(sort);
  }
  return { sort, n, id };
}
