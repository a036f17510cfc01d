// Measurement helpers the benches share: percentiles, timed repetitions, a streamed CSV download with its
// memory growth, and a drizzle query with its parameters written in (for `COPY (…) TO STDOUT`, which takes none).
import { performance } from 'node:perf_hooks';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

export const percentile = (xs: number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};

export const median = (xs: number[]): number => percentile(xs, 0.5);

/** p50/p99 of `times` runs after one warm-up run. */
export async function timeIt(times: number, run: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
}

/** Reads a CSV response to the end: time to first byte and in all, size, lines, and this process's peak RSS growth. */
export async function measureCsvDownload(url: string, token: string) {
  const rssBefore = process.memoryUsage.rss();
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/csv' } });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let firstByte = 0;
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstByte) firstByte = performance.now() - t0;
    bytes += value.byteLength;
    for (const b of value) if (b === 10) lines += 1;
  }
  const total = performance.now() - t0;
  clearInterval(sampler);
  return { firstByte, total, bytes, lines, rssGrowthMb: (peak - rssBefore) / 1024 / 1024 };
}

/** The SQL of a drizzle query with its parameters written in as literals. */
export function inlined(query: SQL): string {
  const { sql: text, params } = new PgDialect().sqlToQuery(query);
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
}
