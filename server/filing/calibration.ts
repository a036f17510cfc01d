/**
 * The top suggestion's score as a probability that it is right. scoreProjects' softmax orders projects well but is
 * over-sure (a single strong clue gives 0.99); this maps it, monotonically, to the share of first suggestions that
 * were right at that score on held-out data: isotonic regression (pool adjacent violators) of "the first suggestion
 * is right" on the score, over the tuning sets of the hand-written corpora (never their reported held-out parts),
 * fitted by `npx vitest run -c bench/vitest.config.ts bench/suggest-calibrate.run.ts`. Between the fitted points
 * the map is linear, so it is strictly increasing: the order of suggestions never changes, and it can be undone
 * (the fit reads the scores before calibration).
 */
export const CALIBRATION: readonly (readonly [score: number, probability: number])[] = [
  [0, 0],
  [0.084, 0.083],
  [0.18, 0.417],
  [0.293, 0.587],
  [0.497, 0.786],
  [0.655, 0.85],
  [0.772, 0.9],
  [0.925, 0.991],
  [1, 0.991],
];

const interpolate = (points: readonly (readonly [number, number])[], x: number) => {
  const i = points.findIndex(([px]) => px >= x);
  if (i <= 0) return points[Math.max(0, i)]![1];
  const [x0, y0] = points[i - 1]!;
  const [x1, y1] = points[i]!;
  return x1 === x0 ? y1 : y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
};

export const calibrated = (score: number) => Math.round(1000 * interpolate(CALIBRATION, score)) / 1000;

/** The score before calibration (bench/suggest-calibrate reads it back to refit). */
export const uncalibrated = (probability: number) =>
  interpolate(
    CALIBRATION.map(([s, p]) => [p, s] as const),
    probability,
  );
