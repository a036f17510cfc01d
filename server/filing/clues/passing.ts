/**
 * Sentences that name something in passing — a comparison with another job ("unlike the middle school gym", "the
 * same detail as the science hall", "like we did at Station 12", "like the one at the fire station") — rather than what the e-mail is about. They still
 * count, weakly (W.where.passing, partWeight.passing).
 */
const passingCue =
  /\b(unlike|similar to|instead of|(an)?other (jobs?|projects?|sites?)|a diferencia de|igual que)\b|\bsame\b[^.!?\n]{0,60}\b(as|used|did|had)\b|\b(as|like) (we did |it was )?(at|on|for) the\b|\b(used|did|had) (it )?(at|on|in|for) the\b|\b(like|as) the ones? (at|on|in|for|you|we|your)\b/i;

/** The text without its passing sentences, and those sentences. */
export function splitPassing(text: string): { main: string; passing: string } {
  const sentences = text.split(/(?<=[.!?;])\s+|\n+/);
  const passing = sentences.filter((s) => passingCue.test(s));
  if (passing.length === 0) return { main: text, passing: '' };
  return { main: sentences.filter((s) => !passingCue.test(s)).join('\n'), passing: passing.join('\n') };
}
