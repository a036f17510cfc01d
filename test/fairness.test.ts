import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CSV_MAX_ROWS } from '../server/listing.js';
import { type Fixtures, httpClientOf, type TestServer } from './harness.js';
import { type ServerProcess, startServerProcess } from './server-process.js';
import { describeNeeds } from './system-tools.js';
import { startTwoInstances, type TwoInstances } from './two-instances.js';

// Issue 28: one caller must not stop the service for the others. Two instances share the database and a Redis;
// each runs in a process of its own, as in production, so the quiet tenant's client measures what a caller sees,
// not the servers' work on its own event loop (issue 37: with both instances in the test's process, the p99 was
// the loop's, 132 ms where the p90 was 36 ms).
// A noisy tenant (organization A) runs ten CSV exports of ~5 MB whose clients never read, five on each
// instance, and twelve loops of the heaviest explorer query the language allows, against both instances,
// while a quiet tenant (organization B) reads its activity page from both and a probe asks each /readyz.
// Everything runs on the configuration's defaults (the harness only lifts the per-minute rate limit).
//
// The explorer loop is held by its per-caller cap and statement_timeout on pooled connections; the exports
// hold no connection once COPY has been read. The quiet tenant's p99 beside the noisy one must stay under
// 100 ms; it is measured alone before and after too, for the report.

const run = promisify(execFile);
const NOISY_ROWS = 10_000;
/** Reads of the quiet tenant per measurement: its p99 is the third slowest. */
const QUIET_READS = 200;
const TITLE = 'x'.repeat(480);
/** The processes' /metrics token: the test reads their pools' waiting count there. */
const METRICS_TOKEN = 'fairness-metrics-token-0123456789';

/** An instance the test calls over HTTP: a server process, or the fixture server in the test's own process. */
type Instance = Pick<TestServer, 'url' | 'request' | 'call'>;

let pair: TwoInstances;
let f: Fixtures;
/** Instances A and B in processes of their own, on the pair's database and Redis. */
let processes: ServerProcess[];
let a: Instance;
let b: Instance;

describeNeeds(['redis-server'], 'fairness between callers on two instances (issue 28)', () => {
  beforeAll(async () => {
    pair = await startTwoInstances();
    f = pair.f;
    await pair.database.db.execute(sql`
    insert into activity (id, organization_id, project_id, actor_name, actor_email, action, title)
    select 'act_noisy_' || g, ${f.orgA.id}, ${f.projectA1.id}, 'Noel Noisy', 'noel@harbor.test',
      (array['comment', 'upload', 'status'])[1 + g % 3], ${TITLE} || g
    from generate_series(1, ${NOISY_ROWS}) g`);
    await pair.database.db.execute(sql`
    insert into activity (id, organization_id, project_id, actor_name, actor_email, action, title)
    select 'act_quiet_' || g, ${f.orgB.id}, ${f.projectB1.id}, 'Quinn Quiet', 'quinn@ridgeline.test', 'comment',
      'Pour schedule ' || g
    from generate_series(1, 200) g`);
    // Statistics of the new rows now, not when autovacuum comes round to them.
    await pair.database.db.execute(sql`analyze activity`);
    processes = await Promise.all(
      [1, 2].map(() => startServerProcess(pair.databaseUrl, { ...pair.env, METRICS_TOKEN })),
    );
    [a, b] = processes.map((server) => ({ url: server.url, ...httpClientOf(server.url) })) as [Instance, Instance];
  }, 120_000);
  afterAll(async () => {
    await Promise.all((processes ?? []).map((server) => server.close()));
    await pair?.close();
  });

  /** Queries waiting for a pooled connection in `server` now (its pool's gauge on /metrics). */
  async function waitingForPool(server: Instance): Promise<number> {
    const res = await server.call('/metrics', { token: METRICS_TOKEN });
    return Number(String(res.body).match(/^sitefile_db_pool_waiting (\d+)/m)?.[1] ?? Number.NaN);
  }

  /** An export request whose client then reads nothing: its socket stays open, its receive window fills. */
  function nonReadingExport(server: Instance, token: string): Promise<Socket> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => {
        socket.write(
          `GET /v1/organization/${f.orgA.id}/activity HTTP/1.1\r\nHost: x\r\nAccept: text/csv\r\n` +
            `Authorization: Bearer ${token}\r\n\r\n`,
        );
        socket.once('data', () => {
          socket.pause(); // the first bytes came (the export started); from now on nothing is read
          resolve(socket);
        });
      });
      socket.once('error', reject);
    });
  }

  /** 50 `contains` over the longest text field, grouped by three fields with five aggregates: the most work
   *  one query of the language can ask for over this data. */
  const heaviestQuery = {
    entity: 'activity',
    where: {
      or: [0, 1, 2].map((group) => ({
        or: Array.from({ length: group === 2 ? 10 : 20 }, (_, i) => ({
          field: 'title',
          op: 'contains',
          value: `${'x'.repeat(400)}y${group * 20 + i}`,
        })),
      })),
    },
    groupBy: ['action', 'actorName', 'projectId'],
    aggregates: [
      { fn: 'count' },
      { fn: 'min', field: 'title' },
      { fn: 'max', field: 'title' },
      { fn: 'min', field: 'createdAt' },
      { fn: 'max', field: 'createdAt' },
    ],
  };

  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  };

  /** The quiet tenant's latencies over `count` sequential reads of its activity page, from A and B in turn
   *  (at least until `until` settles), with /readyz of both every tenth; their p99 and p50. */
  async function quietLatencies(count: number, readiness: number[], until?: Promise<unknown>) {
    const quiet = await f.client(['organization:read'], { orgs: [f.orgB.id] });
    let settled = until === undefined;
    void until?.finally(() => {
      settled = true;
    });
    const latencies: number[] = [];
    for (let i = 0; i < count || !settled; i += 1) {
      const server = i % 2 === 0 ? a : b;
      const started = performance.now();
      const res = await server.call(`/v1/organization/${f.orgB.id}/activity?limit=20`, { token: quiet.token });
      latencies.push(performance.now() - started);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(20);
      if (i % 10 === 0) readiness.push((await a.call('/readyz')).status, (await b.call('/readyz')).status);
    }
    return {
      p99: percentile(latencies, 99),
      p95: percentile(latencies, 95),
      p90: percentile(latencies, 90),
      p50: percentile(latencies, 50),
      count: latencies.length,
    };
  }

  type Latencies = Awaited<ReturnType<typeof quietLatencies>>;

  /** The bar of issue 37: the quiet tenant's p99 under 100 ms beside the noisy one. */
  const expectQuietLatencies = (beside: Latencies) => expect(beside.p99).toBeLessThan(100);

  const describeLatency = (label: string, l: Latencies) =>
    `${label}: p99 ${l.p99.toFixed(0)} ms, p90 ${l.p90.toFixed(0)} ms, p50 ${l.p50.toFixed(0)} ms over ${l.count}`;

  it("ten non-reading exports and a heavy explorer loop: /readyz stays 200; another tenant's p99 stays under 100 ms, waiting for no pooled connection", async () => {
    const readiness: number[] = [];
    const idle = await quietLatencies(QUIET_READS, readiness);

    // Ten exporters, each its own key (the per-key cap alone would refuse eight of ten from one key).
    const exporters = await Promise.all(
      Array.from({ length: 10 }, () => f.client(['organization:read'], { orgs: [f.orgA.id] })),
    );
    const sockets = await Promise.all(exporters.map((key, i) => nonReadingExport(i % 2 ? b : a, key.token)));
    const explorerKey = await f.client(['explorer:query'], { orgs: [f.orgA.id] });
    let exploring = true;
    const explorerStatuses: number[] = [];
    const explorerLoop = async (server: Instance) => {
      while (exploring) {
        const res = await server.request(`/v1/organization/${f.orgA.id}/explorer/query`, {
          method: 'POST',
          token: explorerKey.token,
          json: heaviestQuery,
        });
        explorerStatuses.push(res.status);
        await res.arrayBuffer();
        // A well-behaved client waits as Retry-After says (a tight loop of 429s would only load the test).
        if (res.status === 429) await sleep(Number(res.headers.get('retry-after')) * 1000);
      }
    };
    const workers = Array.from({ length: 12 }, (_, i) => explorerLoop(i % 2 ? b : a));
    await sleep(200); // the loop is running
    // What a statement of the quiet tenant could wait behind: other requests queued for a pooled connection
    // (both instances' pools, sampled on their /metrics every 100 ms while the quiet tenant reads: a scrape
    // costs the servers a few milliseconds, and sampled tighter it would be part of the load measured).
    let mostWaitingForPool = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const waiting = await Promise.all([a, b].map(waitingForPool));
        mostWaitingForPool = Math.max(mostWaitingForPool, ...waiting);
        await sleep(100);
      }
    })();
    const loaded = await quietLatencies(QUIET_READS, readiness);
    sampling = false;
    await sampler;
    exploring = false;
    await Promise.all(workers);
    for (const socket of sockets) socket.destroy();
    const idleAfter = await quietLatencies(QUIET_READS, readiness);

    console.info(
      `quiet tenant ${describeLatency('alone', idle)}; ${describeLatency('beside the noisy one', loaded)}; ` +
        `${describeLatency('alone again', idleAfter)}; ` +
        `most waiting for a pooled connection: ${mostWaitingForPool}`,
    );
    expect(readiness).toEqual(Array(120).fill(200));
    expectQuietLatencies(loaded);
    // And what the noisy tenant made it wait behind: no pooled connection ever awaited.
    expect(mostWaitingForPool).toBe(0);
    // The loop ran, held to its key's share on each instance (429s), each query stopped at the explorer's
    // timeout (503) or answered.
    expect(explorerStatuses).toContain(429);
    expect(new Set([...explorerStatuses, 200, 429, 503])).toEqual(new Set([200, 429, 503]));
  }, 180_000);

  it('a 100,000-row export: another tenant keeps its p99 under 100 ms meanwhile', async () => {
    await pair.database.db.execute(sql`
    insert into activity (id, organization_id, project_id, actor_name, actor_email, action, title)
    select 'act_large_' || g, ${f.orgA.id}, ${f.projectA2.id}, 'Lara Large', 'lara@harbor.test', 'comment',
      'Site walk note ' || g
    from generate_series(1, ${CSV_MAX_ROWS}) g`);
    await pair.database.db.execute(sql`analyze activity`);
    const readiness: number[] = [];
    const idle = await quietLatencies(QUIET_READS, readiness);
    const exporter = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    // The exporting client is another process, as it would be: its own reading of the export's 3 MB does not
    // take the processor of the process that serves.
    const saved = path.join(mkdtempSync(path.join(tmpdir(), 'fairness-')), 'export.csv');
    const client = `const res = await fetch(process.argv[1], { headers: { accept: 'text/csv', authorization: process.argv[2] } });
      await writeFile(process.argv[3], res.body); console.log(res.status);`;
    const started = performance.now();
    const download = run(process.execPath, [
      ...['--input-type=module', '-e', `import { writeFile } from 'node:fs/promises'; ${client}`],
      `${a.url}/v1/organization/${f.orgA.id}/activity?projectId=${f.projectA2.id}`,
      `Bearer ${exporter.token}`,
      saved,
    ]).then(({ stdout }) => ({
      status: Number(stdout),
      text: readFileSync(saved, 'utf8'),
      ms: performance.now() - started,
    }));
    const loaded = await quietLatencies(QUIET_READS, readiness, download);
    const { status, text, ms } = await download;
    const idleAfter = await quietLatencies(QUIET_READS, readiness);
    console.info(
      `100,000-row export in ${(ms / 1000).toFixed(1)} s; quiet tenant ${describeLatency('alone', idle)}; ` +
        `${describeLatency('during the export', loaded)}; ${describeLatency('alone again', idleAfter)}`,
    );
    expect(status).toBe(200);
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(1 + CSV_MAX_ROWS); // the header and every row: exactly the cap, so no notice
    expect(lines[1]).toMatch(/^act_large_\d+,/);
    expect(new Set(lines.slice(1).map((line) => line.split(',')[0])).size).toBe(CSV_MAX_ROWS);
    expect(readiness.every((code) => code === 200)).toBe(true);
    expectQuietLatencies(loaded);
  }, 180_000);

  it("refuses a key's third concurrent export with 429 and Retry-After, and serves it again once one ends", async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const server = pair.a;
    const first = await nonReadingExport(server, key.token);
    const second = await nonReadingExport(server, key.token);
    const third = await server.call(`/v1/organization/${f.orgA.id}/activity`, {
      token: key.token,
      headers: { accept: 'text/csv' },
    });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(third.body.error).toMatch(/At most 2 CSV exports at a time/);
    first.destroy();
    second.destroy();
    await sleep(200);
    const again = await server.request(`/v1/organization/${f.orgA.id}/activity?limit=5`, {
      token: key.token,
      headers: { accept: 'text/csv' },
    });
    expect(again.status).toBe(200);
    const rows = (await again.text()).split('\r\n').filter(Boolean);
    expect(rows).toHaveLength(7); // header, five rows, the truncation notice
    expect(rows[6]).toBe('# WARNING: truncated at 5 rows');
  }, 60_000);

  it('eight concurrent 24 MB filings by one person all file, and the process grows by less than 300 MB', async () => {
    const attachment = Buffer.alloc(17 * 1024 * 1024, 'P').toString('base64');
    const message = (i: number) =>
      Buffer.from(
        [
          'From: Rita Reyes <rita@acme-eng.test>',
          'To: Mia Member <member@harbor.test>',
          `Subject: Site photos ${i}`,
          `Message-ID: <photos-${i}@acme-eng.test>`,
          'MIME-Version: 1.0',
          'Content-Type: multipart/mixed; boundary="b"',
          '',
          '--b',
          'Content-Type: text/plain',
          '',
          'Photos of the pile caps attached.',
          '--b',
          'Content-Type: application/octet-stream; name="photos.bin"',
          'Content-Transfer-Encoding: base64',
          '',
          attachment.replace(/.{76}/g, '$&\r\n'),
          '--b--',
          '',
        ].join('\r\n'),
      );
    const messages = Array.from({ length: 8 }, (_, i) => message(i));
    expect(messages[0]!.length).toBeGreaterThan(24_000_000);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const { port } = new URL(pair.a.url);
    const file = (body: Buffer) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails`,
            headers: {
              authorization: `Bearer ${f.member.token}`,
              'content-type': 'message/rfc822',
              'content-length': body.length,
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const statuses = await Promise.all(messages.map(file));
    clearInterval(sampler);
    expect(statuses).toEqual(Array(8).fill(201));
    expect((peak - before) / 1024 / 1024).toBeLessThan(300);
  }, 180_000);
});
