// How far the suggestion score is a probability, measured where nothing is reported: the tuning sets of the
// hand-written corpora with history (bench/data/suggest-corpus-2, -3, -4: their history only, filed up to a rolling
// origin and asked about from it to the split; never the held-out parts the benches report). Prints the isotonic
// regression (pool adjacent violators) of "the first suggestion is right" on its score — the calibration map one
// would apply — and its points, Laplace-smoothed.
//   npx vitest run -c bench/vitest.config.ts bench/suggest-calibrate.run.ts
import { it } from 'vitest';
import { runCorpus } from './suggest-history.js';

const CORPORA = ['suggest-corpus-2', 'suggest-corpus-3', 'suggest-corpus-4'];
/** Rolling origins within the history: file what came before, ask about the rest of the history. */
const TUNING_SPLITS = ['2026-03-01', '2026-04-01', '2026-04-15'];
/** Fewer e-mails than this in a pooled block: merged with its neighbour (a point needs support). */
const MIN_BLOCK = 10;

/** Pool adjacent violators over (score, right) sorted by score: blocks of non-decreasing mean. */
function isotonic(points: { score: number; right: number }[]) {
  const blocks: { sum: number; n: number; from: number; to: number }[] = [];
  for (const p of [...points].sort((a, b) => a.score - b.score)) {
    blocks.push({ sum: p.right, n: 1, from: p.score, to: p.score });
    for (;;) {
      const last = blocks.at(-1)!;
      const prev = blocks.at(-2);
      if (!prev || (prev.sum / prev.n < last.sum / last.n && prev.n >= MIN_BLOCK)) break;
      blocks.splice(-2, 2, { sum: prev.sum + last.sum, n: prev.n + last.n, from: prev.from, to: last.to });
    }
  }
  return blocks;
}

it('fits an isotonic calibration of the score', async () => {
  const points: { score: number; right: number }[] = [];
  for (const [corpus, tuningSplit] of CORPORA.flatMap((c) => TUNING_SPLITS.map((t) => [c, t] as const))) {
    const outcomes = await runCorpus({ corpus, set: 'tuning', order: 'oldest-first', ai: false, tuningSplit });
    for (const o of outcomes)
      points.push({
        score: o.ranked[0]?.score ?? 0,
        right: Number((o.ranked[0]?.key ?? null) === o.mail.expect && o.mail.expect !== null),
      });
  }
  const blocks = isotonic(points.filter((p) => p.score > 0));
  console.log(`${points.length} tuning e-mails, ${points.filter((p) => p.score > 0).length} with a suggestion`);
  for (const b of blocks)
    console.log(
      `  score ${b.from.toFixed(3)}–${b.to.toFixed(3)}  n ${b.n}  right ${((100 * b.sum) / b.n).toFixed(1)} %`,
    );
  // Each block's share right (Laplace-smoothed: never 0 or 1 on a few dozen e-mails) at its mid-score; 0 at 0.
  const fitted = blocks.map((b) => [(b.from + b.to) / 2, (b.sum + 1) / (b.n + 2)] as const);
  console.log(
    JSON.stringify([[0, 0], ...fitted, [1, fitted.at(-1)?.[1] ?? 1]].map(([s, p]) => [+s.toFixed(3), +p.toFixed(3)])),
  );
});
