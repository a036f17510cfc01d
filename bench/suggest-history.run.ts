// `bench/suggest-history.ts` under vitest (see bench/vitest.config.ts): the corpus's report, both filing orders and
// the always-right AI.
import { it } from 'vitest';
import { DEFAULT_CORPUS, type RunOptions, reportHistoryCorpus } from './suggest-history.js';

it('reports the corpus', async () => {
  await reportHistoryCorpus({
    corpus: process.env.SUGGEST_CORPUS ?? DEFAULT_CORPUS,
    set: (process.env.SUGGEST_SET ?? 'held-out') as RunOptions['set'],
    misses: process.env.SUGGEST_MISSES === '1',
  });
});
