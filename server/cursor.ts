import { createHash } from 'node:crypto';
import { ApiError } from './errors.js';

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
