// How far the suggestion score is a probability, measured where nothing is reported: the tuning sets of the
// hand-written corpora with history (bench/data/suggest-corpus-N: their history only, filed up to a rolling origin
// and asked about from it to the split; never the held-out parts the benches report). Fits the calibration
// of server/filing/score.ts (W.calibration: temperature scaling of each project's odds against "none", and the
// weight of "none") by maximum likelihood — an e-mail for no project counts as "none" being right — and prints the
// reliability (score buckets → share right) before and after, and the isotonic regression (pool adjacent violators)
// of "the first suggestion is right" on the fitted score, Laplace-smoothed, to show what is left to calibrate.
//   npx vitest run -c bench/vitest.config.ts bench/suggest-calibrate.run.ts
// SUGGEST_CALIBRATE_CORPORA=2,3,4 fits on those corpora only (default: every corpus with a history split).
// SUGGEST_CALIBRATE_LOOKALIKE=1,1.5,2,3 instead prints the log-likelihood of W.lookalikeGap's values, on the same
// tuning mail and on the whole of the retired blind corpora (SUGGEST_CALIBRATE_RETIRED, default 19–22: judged twice,
// now data to fit on; never the corpora still judging).
import { it } from 'vitest';
import { W } from '../server/filing/score.js';
import { LIKELY_SCORE } from '../shared/filing.js';
import { loadMails, loadSetup, type Outcome, probabilityOfRight, runCorpus } from './suggest-history.js';

const CORPORA = (process.env.SUGGEST_CALIBRATE_CORPORA ?? '2,3,4,5,6,7,8,9,10,11,12,13,14,15,16')
  .split(',')
  .map((n) => `suggest-corpus-${n.trim()}`);
const GAPS = process.env.SUGGEST_CALIBRATE_LOOKALIKE?.split(',').map(Number);
const RETIRED = (process.env.SUGGEST_CALIBRATE_RETIRED ?? '19,20,21,22')
  .split(',')
  .map((n) => `suggest-corpus-${n.trim()}`);
/** The rolling origin within a corpus's history: file what came before, ask about the rest of the history. A share
 *  of each history, not a date: the corpora span different months. */
const ORIGIN_SHARE = 0.6;
/** Fewer e-mails than this in a pooled block: merged with its neighbour (a point needs support). */
const MIN_BLOCK = 10;
/** Scores are rounded to thousandths: a probability below this is read as this. */
const FLOOR = 0.0005;

interface Case {
  /** Each suggestion's odds against "none" before calibration, recovered from the scores the server returned. */
  odds: number[];
  /** The index of the right project among them, -1 for "none", undefined when it was not suggested. */
  right: number | undefined;
}

/** The date ORIGIN_SHARE of the way through a corpus's history. */
function originOf(corpus: string): string {
  const setup = loadSetup(corpus);
  const history = loadMails(setup.caller.email, corpus)
    .map((m) => m.date)
    .filter((d) => d < setup.split)
    .sort();
  return history[Math.floor(history.length * ORIGIN_SHARE)]!;
}

/** The model's own odds against "none" of each suggestion (scores returned with W.calibration the identity). */
function caseOf(o: Outcome): Case {
  const none = Math.max(1 - o.ranked.reduce((s, r) => s + r.score, 0), FLOOR);
  const index = o.ranked.findIndex((r) => r.key === o.mail.expect);
  return {
    odds: o.ranked.map((r) => Math.max(r.score, FLOOR) / none),
    right: o.mail.expect === null ? -1 : index >= 0 ? index : undefined,
  };
}

/** The probabilities of the suggestions and of "none" under a calibration. */
function calibrate(c: Case, sharpness: number, noneBias: number) {
  const odds = c.odds.map((o) => o ** (1 / sharpness));
  const mass = Math.exp(noneBias) + odds.reduce((s, o) => s + o, 0);
  return { scores: odds.map((o) => o / mass), none: Math.exp(noneBias) / mass };
}

function logLikelihood(cases: Case[], sharpness: number, noneBias: number) {
  let sum = 0;
  for (const c of cases) {
    if (c.right === undefined) continue; // the right project was not among the suggestions: no calibration helps
    const p = calibrate(c, sharpness, noneBias);
    sum += Math.log(Math.max(c.right < 0 ? p.none : p.scores[c.right]!, 1e-6));
  }
  return sum;
}

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

/** The bars, on the tuning mail: no-project mail gets nothing ≥ 0.5 in ≥ 90 %, first ≥ 0.8 right ≥ 95 %. */
function meetsBars(cases: Case[], sharpness: number, noneBias: number) {
  let nones = 0;
  let nonesRight = 0;
  let sure = 0;
  let sureRight = 0;
  for (const c of cases) {
    const { scores } = calibrate(c, sharpness, noneBias);
    if (c.right === -1) {
      nones++;
      nonesRight += Number(scores.every((s) => s < 0.5));
    }
    if ((scores[0] ?? 0) >= 0.8) {
      sure++;
      sureRight += Number(c.right === 0);
    }
  }
  return nonesRight >= 0.9 * nones && sureRight >= 0.95 * sure;
}

function printReliability(label: string, cases: Case[], sharpness: number, noneBias: number) {
  const bins = Array.from({ length: 10 }, () => ({ n: 0, right: 0 }));
  let noneRight = 0;
  let nones = 0;
  for (const c of cases) {
    const { scores } = calibrate(c, sharpness, noneBias);
    if (c.right === -1) {
      nones++;
      noneRight += Number(scores.every((s) => s < 0.5));
    }
    if (scores.length === 0) continue;
    const bin = bins[Math.min(9, Math.floor(scores[0]! * 10))]!;
    bin.n++;
    bin.right += Number(c.right === 0);
  }
  console.log(`${label}: no-project mail with nothing ≥ 0.5: ${noneRight} of ${nones}`);
  bins.forEach((b, i) => {
    if (b.n > 0)
      console.log(
        `  ${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}  n ${String(b.n).padStart(3)}  right ${((100 * b.right) / b.n).toFixed(1)} %`,
      );
  });
}

it.skipIf(GAPS)('fits the calibration of the score', async () => {
  const cases: Case[] = [];
  // The server runs in this process: for the fit it scores without the calibration in force.
  const inForce = W.calibration;
  W.calibration = { sharpness: 1, noneBias: 0 };
  try {
    for (const corpus of CORPORA) {
      const tuningSplit = originOf(corpus);
      const outcomes = await runCorpus({ corpus, set: 'tuning', order: 'oldest-first', ai: false, tuningSplit });
      console.log(`${corpus}: history before ${tuningSplit} filed, ${outcomes.length} asked`);
      cases.push(...outcomes.map(caseOf));
    }
  } finally {
    W.calibration = inForce;
  }
  console.log(`in force: sharpness ${inForce.sharpness}, noneBias ${inForce.noneBias}`);
  console.log(`${cases.length} tuning e-mails (${cases.filter((c) => c.right === -1).length} for no project)`);
  const uncalibrated = { sharpness: 1, noneBias: 0, ll: logLikelihood(cases, 1, 0) };
  console.log(`uncalibrated: log-likelihood ${uncalibrated.ll.toFixed(1)}`);
  // Mail for no project is a few percent of the tuning mail and far more of a real mailbox (bulk, HR, recruiting,
  // notices): the most likely calibration weighs "none" down to that sample's share and lifts such mail over 0.5.
  // The fit keeps the model's weight of "none" as a floor (noneBias ≥ 0) and the bars on the tuning mail.
  let free = uncalibrated;
  let best = meetsBars(cases, 1, 0) ? uncalibrated : { ...uncalibrated, ll: -Infinity };
  for (let step = 0; step <= 54; step++)
    for (let bias = 0; bias <= 60; bias++) {
      const [sharpness, noneBias] = [0.3 + step * 0.05, -3 + bias * 0.1];
      const ll = logLikelihood(cases, sharpness, noneBias);
      if (ll > free.ll) free = { sharpness, noneBias, ll };
      if (ll > best.ll && noneBias >= -1e-9 && meetsBars(cases, sharpness, noneBias))
        best = { sharpness, noneBias: Math.max(0, noneBias), ll };
    }
  const show = (c: typeof best) =>
    `sharpness ${c.sharpness.toFixed(2)}, noneBias ${c.noneBias.toFixed(1)}, log-likelihood ${c.ll.toFixed(1)}`;
  console.log(`most likely: ${show(free)}`);
  console.log(`most likely within the bars (W.calibration): ${show(best)}`);
  printReliability('most likely', cases, free.sharpness, free.noneBias);
  printReliability('uncalibrated', cases, 1, 0);
  printReliability('fitted', cases, best.sharpness, best.noneBias);
  const points = cases.flatMap((c) => {
    const top = calibrate(c, best.sharpness, best.noneBias).scores[0];
    return top === undefined ? [] : [{ score: top, right: Number(c.right === 0) }];
  });
  for (const threshold of [0.5, 0.6, 0.7, 0.8]) {
    const below = points.filter((p) => p.score < threshold);
    const above = points.filter((p) => p.score >= threshold);
    console.log(
      `asking the AI below ${threshold}: ${below.length} of ${cases.length} (${((100 * below.length) / cases.length).toFixed(1)} %); ` +
        `first suggestions from it on right ${((100 * above.filter((p) => p.right).length) / above.length).toFixed(1)} %`,
    );
  }
  console.log('isotonic regression of "the first suggestion is right" on the fitted score:');
  for (const b of isotonic(points))
    console.log(
      `  score ${b.from.toFixed(3)}–${b.to.toFixed(3)}  n ${b.n}  right ${((100 * (b.sum + 1)) / (b.n + 2)).toFixed(1)} %`,
    );
});

/** The probability the scores give what was right: the expected project's score, or what "none" is left for no project. */
it.runIf(GAPS)(
  'fits the look-alike gap',
  async () => {
    const inForce = W.lookalikeGap;
    try {
      for (const gap of GAPS!) {
        W.lookalikeGap = gap;
        const outcomes: Outcome[] = [];
        // A held-out run ignores `tuningSplit`: it files the whole history.
        const runs = [
          ...CORPORA.map((corpus) => ({ corpus, set: 'tuning' as const })),
          ...RETIRED.flatMap((corpus) => (['tuning', 'held-out'] as const).map((set) => ({ corpus, set }))),
        ];
        for (const { corpus, set } of runs)
          outcomes.push(
            ...(await runCorpus({ corpus, set, order: 'oldest-first', ai: false, tuningSplit: originOf(corpus) })),
          );
        const ll = outcomes.reduce((sum, o) => sum + Math.log(Math.max(probabilityOfRight(o), FLOOR)), 0);
        const sure = outcomes.filter((o) => (o.ranked[0]?.score ?? 0) >= LIKELY_SCORE);
        const sureRight = sure.filter((o) => o.ranked[0]!.key === o.mail.expect).length;
        console.log(
          `lookalikeGap ${gap}: log-likelihood per e-mail ${(ll / outcomes.length).toFixed(4)} (${outcomes.length}); ` +
            `first ≥ ${LIKELY_SCORE} right ${sureRight} of ${sure.length}`,
        );
      }
    } finally {
      W.lookalikeGap = inForce;
    }
  },
  3_600_000,
);
