// Measurement helpers the benches share: a bench server's configuration, percentiles, timed repetitions, a streamed CSV download with its
// memory growth, and a CSV export beside PostgreSQL's own COPY of the same query.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { type SQL, sql } from 'drizzle-orm';
import { loadConfig } from '../server/config.js';
import { type Db, openDatabase } from '../server/db/connection.js';
import { withInlineParams } from '../server/db/sql-text.js';

/** A bench server's configuration: a scratch DATA_DIR, any port, no logs, a rate limit no bench reaches. */
export const benchConfig = (env: Record<string, string> = {}) =>
  loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitefile-bench-')),
    PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    JWT_SIGNING_KEY: 'bench-signing-key-0123456789abcdefghijklmnop',
    ...env,
  });

/**
 * The flags and the database of a bench that times the API beside the driver on a seeded database (activity,
 * documents): PostgreSQL at --database-url.
 */
export async function openApiBench() {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/sitefile_large' },
      runs: { type: 'string', default: '30' },
      'csv-runs': { type: 'string', default: '3' },
      /** Only the CSV export against COPY. */
      'csv-only': { type: 'boolean', default: false },
      /** Print EXPLAIN ANALYZE of the main queries (for docs/performance.md) and stop. */
      explain: { type: 'boolean', default: false },
    },
  });
  const databaseUrl = values['database-url'];
  const database = await openDatabase({ databaseUrl });
  const db = database.db;
  return {
    database,
    db,
    rows: async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows,
    runs: Number(values.runs),
    csvRuns: Number(values['csv-runs']),
    csvOnly: values['csv-only'],
    explain: values.explain,
    /** Where `csvAgainstCopy` runs COPY: psql against the same PostgreSQL. */
    copyTo: { databaseUrl },
  };
}

export const percentile = (xs: number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};

export const median = (xs: number[]): number => percentile(xs, 0.5);

/**
 * Listens on a free loopback port (an Express app or a node:http server), keeping idle connections for the whole
 * run: a bench's driver-only turns can leave the client's socket idle past Node's 5 s default.
 */
export async function listenLocally(app: {
  listen(port: number, host: string): http.Server;
}): Promise<{ server: http.Server; url: string }> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  server.keepAliveTimeout = 120_000;
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A 200 JSON answer written by node:http alone: the floors' way of answering, with no framework. */
export function sendJson(res: http.ServerResponse, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * A request on one kept-alive connection through `node:http`, its body parsed as JSON. The benches time the
 * server with this client rather than `fetch`: undici's fetch spends 0.3 ms per request and 2 ms per 130 kB
 * on its WHATWG streams in this process (measured beside this client), which is the client's cost, not the server's.
 */
export function requestJson(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent: keepAlive }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** GET `url` with a bearer token (when given) through `requestJson`; the body, or an error naming the status. */
export async function getJson<T = unknown>(url: string, token?: string): Promise<T> {
  const res = await requestJson(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

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

/** A bench case: the same answer through the HTTP API and straight from the driver, timed side by side. */
export interface ApiAgainstDriverCase {
  name: string;
  api: () => Promise<unknown>;
  direct: () => Promise<unknown>;
}

/**
 * Each case through the API and through the driver alone (`timeIt`): a Markdown table's lines, each row also to
 * stderr as soon as it is measured, and each case's API times by name.
 */
export async function apiAgainstDriver(databaseKind: string, runs: number, cases: ApiAgainstDriverCase[]) {
  const lines = [
    `database: ${databaseKind}; ${runs} sequential runs per case after one warm-up`,
    '',
    '| case | API p50 ms | API p99 ms | driver p50 ms | driver p99 ms | p50 ratio |',
    '|---|---|---|---|---|---|',
  ];
  const apiTimes: Record<string, { p50: number; p99: number }> = {};
  for (const c of cases) {
    const viaApi = await timeIt(runs, c.api);
    const viaDriver = await timeIt(runs, c.direct);
    apiTimes[c.name] = viaApi;
    lines.push(
      `| ${c.name} | ${viaApi.p50.toFixed(1)} | ${viaApi.p99.toFixed(1)} | ${viaDriver.p50.toFixed(1)} | ${viaDriver.p99.toFixed(1)} | ${(viaApi.p50 / viaDriver.p50).toFixed(2)} |`,
    );
    console.error(lines.at(-1));
  }
  return { lines, apiTimes };
}

/** Prints `explain (options) query` for each named query as a Markdown section: what a bench's --explain shows. */
export async function printPlans(db: Db, plans: [string, SQL][], options: string): Promise<void> {
  for (const [name, query] of plans) {
    const plan = (await db.execute(sql`explain (${sql.raw(options)}) ${query}`)) as unknown as {
      rows: Record<string, string>[];
    };
    console.log(`### ${name}\n\n\`\`\`\n${plan.rows.map((r) => Object.values(r)[0]).join('\n')}\n\`\`\`\n`);
  }
}

/** A CSV download's body as it arrives: its first chunk's time after `t0`, then the bytes, inflated when gzipped. */
function csvBody(url: string, token: string, t0: number): Promise<{ firstByte: number; body: Readable }> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${token}`, accept: 'text/csv', 'accept-encoding': 'gzip' };
    http
      .get(url, { headers }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
        res.once('readable', () => {
          const firstByte = performance.now() - t0;
          resolve({ firstByte, body: res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res });
        });
        res.once('error', reject);
      })
      .once('error', reject);
  });
}

/**
 * Reads a CSV response to the end, gzipped as a browser asks for it: time to first byte and in all, size, lines,
 * and this process's peak RSS growth. Through node:http, not fetch, for the reason `requestJson` gives: undici's
 * WHATWG streams cost the reader more than the export costs the server, in the server's own process.
 */
export async function measureCsvDownload(url: string, token: string) {
  const rssBefore = process.memoryUsage.rss();
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const t0 = performance.now();
  const { firstByte, body } = await csvBody(url, token, t0);
  let bytes = 0;
  let lines = 0;
  for await (const value of body as AsyncIterable<Buffer>) {
    bytes += value.byteLength;
    // indexOf, not a loop over every byte: the reader shares the process with the server it measures.
    for (let at = value.indexOf(10); at !== -1; at = value.indexOf(10, at + 1)) lines += 1;
  }
  const total = performance.now() - t0;
  clearInterval(sampler);
  return { firstByte, total, bytes, lines, rssGrowthMb: (peak - rssBefore) / 1024 / 1024 };
}

export interface CsvAgainstCopy {
  /** The export's URL (`limit` included) and a bearer token that may read it. */
  url: string;
  token: string;
  /** The same rows and values as one query, for `COPY (query) TO …`: PostgreSQL's own CSV, the floor. */
  query: SQL;
  /** COPY through psql to /dev/null. */
  copyTo: { databaseUrl: string };
  runs: number;
  title: string;
}

/** The export beside COPY of the same query, alternating, `runs` of each after one warm-up; report lines. */
export async function csvAgainstCopy(c: CsvAgainstCopy): Promise<string[]> {
  const copy = `COPY (${withInlineParams(c.query)}) TO STDOUT WITH (FORMAT csv, HEADER)`;
  const copyExport = async () => {
    const t0 = performance.now();
    execFileSync('psql', [c.copyTo.databaseUrl, '-q', '-c', copy], { stdio: ['ignore', 'ignore', 'inherit'] });
    return performance.now() - t0;
  };
  const downloads: Awaited<ReturnType<typeof measureCsvDownload>>[] = [];
  const copies: number[] = [];
  await measureCsvDownload(c.url, c.token);
  for (let i = 0; i < c.runs; i++) {
    downloads.push(await measureCsvDownload(c.url, c.token));
    copies.push(await copyExport());
  }
  const total = median(downloads.map((s) => s.total));
  const copyTotal = median(copies);
  const mb = median(downloads.map((s) => s.bytes)) / 1024 / 1024;
  return [
    '',
    `CSV export, ${c.title}, median of ${c.runs}:`,
    `- API: first byte ${median(downloads.map((s) => s.firstByte)).toFixed(0)} ms, complete ${total.toFixed(0)} ms ` +
      `(runs: ${downloads.map((s) => s.total.toFixed(0)).join(', ')}), ${mb.toFixed(1)} MB, ` +
      `${median(downloads.map((s) => s.lines)).toLocaleString('en-US')} lines, peak RSS growth ` +
      `${Math.max(...downloads.map((s) => s.rssGrowthMb)).toFixed(0)} MB (max of runs; server and reader share the process)`,
    `- COPY (same query) TO STDOUT: ${copyTotal.toFixed(0)} ms ` +
      `(runs: ${copies.map((t) => t.toFixed(0)).join(', ')}); ratio API / COPY ${(total / copyTotal).toFixed(2)}`,
  ];
}
