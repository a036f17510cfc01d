import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CSV_MAX_ROWS } from '../server/listing.js';
import {
  describeLatency,
  type FairnessScenario,
  type Latencies,
  QUIET_READS,
  startFairnessScenario,
  starvationBarMs,
} from './fairness-scenario.js';
import type { Fixtures } from './harness.js';
import { describeNeeds } from './system-tools.js';
import type { TwoInstances } from './two-instances.js';

// Issue 28: one caller must not stop the service for the others (the scenario: test/fairness-scenario.ts).
// What is asserted holds on any machine: every quiet read answered in full, /readyz always 200, no query of
// either instance waiting for a pooled connection, and the quiet tenant's p99 beside the noisy tenant under a bar
// set by its own speed alone in the same run (starvationBarMs). How fast the quiet tenant is on this machine is
// the bench's (bench/fairness.run.ts): on 2 cores shared with other work, one commit gave a p99 of 209 to
// 1,014 ms beside the noisy tenant at load 5.5-14, its processes runnable but waiting for a processor (their
// event loops' delays longer than all the processor time they used in the same half second), not blocked by
// their own work.

function expectNotStarved(beside: Latencies, alone: Latencies[], report: string): void {
  expect(beside.p99, report).toBeLessThan(starvationBarMs(alone));
}

let scenario: FairnessScenario;
let pair: TwoInstances;
let f: Fixtures;

describeNeeds(['redis-server'], 'fairness between callers on two instances (issue 28)', () => {
  beforeAll(async () => {
    scenario = await startFairnessScenario();
    ({ pair, f } = scenario);
  }, 120_000);
  afterAll(async () => {
    await scenario?.close();
  });

  it("ten non-reading exports and a heavy explorer loop: another tenant's reads all answered, none waiting for a pooled connection or starved, /readyz 200", async () => {
    const readiness: number[] = [];
    const idle = await scenario.quietLatencies(QUIET_READS, readiness);
    const noisy = await scenario.startNoisyTenant();
    let loaded: Latencies;
    try {
      loaded = await scenario.quietLatencies(QUIET_READS, readiness);
    } catch (error) {
      // The quiet tenant's failure is the one to report, not the noisy loop's left running into the teardown.
      await noisy.stop().catch(() => undefined);
      throw error;
    }
    const { explorerStatuses, mostWaitingForPool } = await noisy.stop();
    const idleAfter = await scenario.quietLatencies(QUIET_READS, readiness);

    const report =
      `quiet tenant ${describeLatency('alone', idle)}; ${describeLatency('beside the noisy one', loaded)}; ` +
      `${describeLatency('alone again', idleAfter)}; most waiting for a pooled connection: ${mostWaitingForPool}`;
    console.info(report);
    expect(readiness).toEqual(Array(120).fill(200));
    // What the noisy tenant made it wait behind: no pooled connection ever awaited.
    expect(mostWaitingForPool).toBe(0);
    expectNotStarved(loaded, [idle, idleAfter], report);
    // The loop ran, held to its key's share on each instance (429s), each query stopped at the explorer's
    // timeout (503) or answered.
    expect(explorerStatuses).toContain(429);
    expect(new Set([...explorerStatuses, 200, 429, 503])).toEqual(new Set([200, 429, 503]));
  }, 180_000);

  it('a 100,000-row export: another tenant is not starved meanwhile, and the export has every row', async () => {
    await scenario.addLargeExportRows();
    const readiness: number[] = [];
    const idle = await scenario.quietLatencies(QUIET_READS, readiness);
    const download = scenario.downloadLargeExport();
    const loaded = await scenario.quietLatencies(QUIET_READS, readiness, download);
    const { status, text, ms } = await download;
    const idleAfter = await scenario.quietLatencies(QUIET_READS, readiness);
    const report =
      `100,000-row export in ${(ms / 1000).toFixed(1)} s; quiet tenant ${describeLatency('alone', idle)}; ` +
      `${describeLatency('during the export', loaded)}; ${describeLatency('alone again', idleAfter)}`;
    console.info(report);
    expect(status).toBe(200);
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(1 + CSV_MAX_ROWS); // the header and every row: exactly the cap, so no notice
    expect(lines[1]).toMatch(/^act_large_\d+,/);
    expect(new Set(lines.slice(1).map((line) => line.split(',')[0])).size).toBe(CSV_MAX_ROWS);
    expect(readiness.every((code) => code === 200)).toBe(true);
    expectNotStarved(loaded, [idle, idleAfter], report);
  }, 180_000);

  it("refuses a key's third concurrent export with 429 and Retry-After, and serves it again once one ends", async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const server = pair.a;
    const first = await scenario.nonReadingExport(server, key.token);
    const second = await scenario.nonReadingExport(server, key.token);
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
