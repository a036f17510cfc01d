// The quiet tenant's latencies in the scenario of issue 28 (test/fairness-scenario.ts), under vitest (see
// bench/vitest.config.ts; needs redis-server on PATH):
//   npx vitest run -c bench/vitest.config.ts bench/fairness.run.ts
// Prints its p50/p90/p99 alone, beside the noisy tenant (ten non-reading exports and the heavy explorer loop) and
// alone again, then the same around a 100,000-row export; the ratio of each p99 to the worse p90 alone (what
// test/fairness.test.ts bounds); and the load average, which these absolute times follow on a shared machine.
// The goal (docs/performance.md): a p99 beside the noisy tenant under 100 ms on an idle 2-core machine.
import { loadavg } from 'node:os';
import { it } from 'vitest';
import {
  describeLatency,
  type Latencies,
  QUIET_READS,
  startFairnessScenario,
  starvationBarMs,
} from '../test/fairness-scenario.js';

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

function report(title: string, alone: Latencies, beside: Latencies, after: Latencies, besideLabel: string): void {
  const ratio = beside.p99 / Math.max(alone.p90, after.p90);
  console.info(
    [
      `${title} (load average ${load()} over 1 / 5 / 15 min)`,
      `  quiet tenant ${describeLatency('alone', alone)}`,
      `  quiet tenant ${describeLatency(besideLabel, beside)}`,
      `  quiet tenant ${describeLatency('alone again', after)}`,
      `  p99 ${besideLabel} ÷ worse p90 alone: ${ratio.toFixed(1)}× (the test's starvation bar: ` +
        `${starvationBarMs([alone, after]).toFixed(0)} ms)`,
    ].join('\n'),
  );
}

it('measures the quiet tenant beside the noisy one', async () => {
  const scenario = await startFairnessScenario();
  try {
    const readiness: number[] = [];
    const alone = await scenario.quietLatencies(QUIET_READS, readiness);
    const noisy = await scenario.startNoisyTenant();
    const beside = await scenario.quietLatencies(QUIET_READS, readiness);
    const { mostWaitingForPool } = await noisy.stop();
    const after = await scenario.quietLatencies(QUIET_READS, readiness);
    report('ten non-reading exports and the heavy explorer loop', alone, beside, after, 'beside the noisy one');
    console.info(`  most waiting for a pooled connection: ${mostWaitingForPool}`);

    await scenario.addLargeExportRows();
    const aloneLarge = await scenario.quietLatencies(QUIET_READS, readiness);
    const download = scenario.downloadLargeExport();
    const during = await scenario.quietLatencies(QUIET_READS, readiness, download);
    const { ms } = await download;
    const afterLarge = await scenario.quietLatencies(QUIET_READS, readiness);
    report(`a 100,000-row export (${(ms / 1000).toFixed(1)} s)`, aloneLarge, during, afterLarge, 'during it');
    console.info(`  /readyz answers other than 200: ${readiness.filter((code) => code !== 200).length}`);
  } finally {
    await scenario.close();
  }
}, 600_000);
