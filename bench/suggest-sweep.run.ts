// One weight of server/filing/score.ts (W) at a few values, the first being the one in force, on the held-out parts
// of the fit corpora (never the corpora still judging): top-1, no-project mail right, first suggestions ≥ 0.8 right,
// the share with a first score the AI would be asked about (0.05–0.6: an estimate; internal mail needs 0.15), and the
// log-likelihood per e-mail of the right answer ("none" for no-project mail), with each corpus's top-1 count.
//   SUGGEST_SWEEP='threadContested=3,2,4' SUGGEST_SWEEP_CORPORA=2,3,…,26 \
//     npx vitest run -c bench/vitest.config.ts bench/suggest-sweep.run.ts
// A nested weight is named by its path: SUGGEST_SWEEP='where.signature=0.6,0.4,0.8'.
import { it } from 'vitest';
import { W } from '../server/filing/score.js';
import { LIKELY_SCORE } from '../shared/filing.js';
import { type Outcome, probabilityOfRight, runCorpus, tally } from './suggest-history.js';

const [path = '', values = ''] = (process.env.SUGGEST_SWEEP ?? '').split('=');
const corpora = (process.env.SUGGEST_SWEEP_CORPORA ?? '').split(',').map((n) => `suggest-corpus-${n.trim()}`);
/** A probability read from a score rounded to thousandths. */
const FLOOR = 0.001;

/** Sets the weight at `path` and returns the value it had. */
function setWeight(value: number): number {
  const keys = path.split('.');
  let holder = W as unknown as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
  const before = holder[keys.at(-1)!];
  if (typeof before !== 'number') throw new Error(`W.${path} is not a number`);
  holder[keys.at(-1)!] = value;
  return before;
}

it('sweeps one weight', async () => {
  for (const value of values.split(',').map(Number)) {
    const inForce = setWeight(value);
    const outcomes: Outcome[] = [];
    const perCorpus: string[] = [];
    try {
      for (const corpus of corpora) {
        const asked = await runCorpus({ corpus, set: 'held-out', order: 'oldest-first', ai: false });
        outcomes.push(...asked);
        perCorpus.push(`${corpus.replace('suggest-corpus-', '')}:${tally(asked).get('ALL projects')?.top1 ?? 0}`);
      }
    } finally {
      setWeight(inForce);
    }
    const rows = tally(outcomes);
    const [projects, none] = [rows.get('ALL projects'), rows.get('ALL none')];
    const sure = outcomes.filter((o) => (o.ranked[0]?.score ?? 0) >= LIKELY_SCORE);
    const toAi = outcomes.filter((o) => (o.ranked[0]?.score ?? 0) >= 0.05 && o.ranked[0]!.score < 0.6);
    const ll = outcomes.reduce((sum, o) => sum + Math.log(Math.max(FLOOR, probabilityOfRight(o))), 0);
    console.log(
      `${path}=${value}: top-1 ${projects?.top1}/${projects?.n}, no-project right ${none?.top1}/${none?.n}, ` +
        `≥ ${LIKELY_SCORE} right ${sure.filter((o) => o.ranked[0]!.key === o.mail.expect).length}/${sure.length}, ` +
        `AI ~${toAi.length}/${outcomes.length}, log-likelihood per e-mail ${(ll / outcomes.length).toFixed(4)} | ${perCorpus.join(' ')}`,
    );
  }
}, 3_600_000);
