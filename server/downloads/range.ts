/** The one byte range a `Range` header asks for, per RFC 9110 §14. */
export type RangeRequest =
  /** No usable Range header (absent, not bytes, several ranges or malformed): send the whole body. */
  | { kind: 'whole' }
  | { kind: 'partial'; start: number; end: number }
  /** Well-formed but outside the body: 416. */
  | { kind: 'unsatisfiable' };

export function parseRange(header: string | undefined, size: number): RangeRequest {
  const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!match) return { kind: 'whole' };
  const [, first, last] = match as [string, string, string];
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}
