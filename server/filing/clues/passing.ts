/**
 * Sentences that name something in passing — a comparison with another job ("unlike the middle school gym", "the
 * same detail as the science hall", "like we did at Station 12", "like the one at the fire station") — rather than what the e-mail is about. They still
 * count, weakly (W.where.passing, partWeight.passing). "Another job" compares; "the other project" is one the reader
 * knows, and a reply that turns to it ("reviving this thread for the other project: …") is about it.
 * What a sentence says it is not ("the houses (not the duplexes)", "rather than the road-side block") is set apart
 * the same way, while the rest of the sentence stays: it names the one thing the e-mail is surely not about.
 */
const passingCue =
  /\b(unlike|similar to|instead of|(?<!\bthe )(an)?other (jobs?|projects?|sites?)|a diferencia de|igual que)\b|\bsame\b[^.!?\n]{0,60}\b(as|used|did|had)\b|\b(as|like) (we did |it was )?(at|on|for) the\b|\b(used|did|had) (it )?(at|on|in|for) the\b|\b(like|as) the ones? (at|on|in|for|you|we|your)\b/i;

/** "(not the duplexes)", "(not Ph1)", or "not the X" / "rather than the X" up to the next punctuation, four words at
 *  most: a longer run is a sentence of its own ("not the way we agreed it on site last week"), not a thing named. */
const negatedCue =
  /\(\s*(?:not|rather than)\b[^()\n]{1,60}\)|\b(?:not|rather than)\s+(?:the|that|this|our|your)\s+[^\s,.;:!?()]+(?:\s+[^\s,.;:!?()]+){0,3}?(?=\s*[,.;:!?()]|\s*$)/gi;

/** The text without its passing sentences and negated phrases, and those. */
export function splitPassing(text: string): { main: string; passing: string } {
  const sentences = text.split(/(?<=[.!?;])\s+|\n+/);
  const passing = sentences.filter((s) => passingCue.test(s));
  const negated = sentences.filter((s) => !passingCue.test(s)).flatMap((s) => s.match(negatedCue) ?? []);
  if (passing.length === 0 && negated.length === 0) return { main: text, passing: '' };
  // Without passing sentences the text keeps its lines and paragraphs (mainPartNamed, score.ts, reads them).
  const main = passing.length === 0 ? text : sentences.filter((s) => !passingCue.test(s)).join('\n');
  return { main: main.replace(negatedCue, ' '), passing: [...passing, ...negated].join('\n') };
}
