/**
 * What the RFI picker makes of a typed number. "080", "80", "RFI 80" and "rfi-080" are the number 80, of any kind
 * or of the kind typed: a document matches when its own number is 80 (RFI-080, not SUB-1080 nor RFI-0801, whose
 * codes merely contain "080"). RFIs come before submittals of the same number: a bare number in an e-mail about
 * an RFI is the RFI's.
 */
export interface NumberQuery {
  /** The letters typed before the number (upper case), if any. */
  kind?: string;
  /** The number without leading zeros ("0" for zero). */
  value: string;
}

export function numberQueryOf(text: string): NumberQuery | undefined {
  const m = /^\s*([a-z]+)?[\s#.\-–]*(\d+)\s*$/i.exec(text);
  if (!m) return undefined;
  return { ...(m[1] ? { kind: m[1].toUpperCase() } : {}), value: m[2]!.replace(/^0+(?=\d)/, '') };
}

/** A document number's kind (its leading letters) and its own number (the last digits, without leading zeros). */
function partsOf(number: string): { kind: string; value: string } | undefined {
  const m = /^\s*([a-z]*)[^\d]*?(?:.*\D)?(\d+)\s*$/i.exec(number);
  if (!m) return undefined;
  return { kind: m[1]!.toUpperCase(), value: m[2]!.replace(/^0+(?=\d)/, '') };
}

/** Whether a document's own number is the one typed (and of the kind typed, when one was). */
export function numberMatches(query: NumberQuery, number: string): boolean {
  const parts = partsOf(number);
  if (!parts || parts.value !== query.value) return false;
  return query.kind === undefined || parts.kind.startsWith(query.kind) || query.kind.startsWith(parts.kind);
}

/**
 * The documents the server found for `typed`, best first: for a typed number, those whose own number it is (RFIs
 * first), then the rest as the server ordered them; other text keeps the server's order.
 */
export function rankForNumber<T extends { number: string; format: string }>(typed: string, found: readonly T[]): T[] {
  const query = numberQueryOf(typed);
  if (!query) return [...found];
  const rank = (d: T) => (numberMatches(query, d.number) ? (d.format === 'rfi' ? 0 : 1) : 2);
  return found
    .map((d, i) => ({ d, i, r: rank(d) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.d);
}

/** What the server is asked for a typed number: its digits without leading zeros, which every spelling contains. */
export const searchTextOf = (typed: string): string => {
  const query = numberQueryOf(typed);
  return query ? query.value : typed;
};
