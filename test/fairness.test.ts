import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { f, server } from './fixture-server.js';

// Issue 28: one caller must not stop the service for the others. A noisy tenant (organization A) runs ten CSV
// exports of ~5 MB whose clients never read, and a loop of the heaviest explorer queries the language allows,
// while a quiet tenant (organization B) reads its activity page and a probe asks /readyz. Everything runs on
// the configuration's defaults (the harness only lifts the per-minute rate limit).
//
// The explorer loop runs on PostgreSQL only. PGlite is one single-threaded engine for the whole process: the
// heaviest query runs until EXPLORER_TIMEOUT_MS (5 s) stops it, and every other request waits behind it
// (docs/decisions.md, issue 28); there the exports part is checked, and the loop's share is bounded by the
// timeout (explorer/timeout.test.ts).

const NOISY_ROWS = 10_000;
const TITLE = 'x'.repeat(480);

beforeAll(async () => {
  await server.database.db.execute(sql`
    insert into activity (id, organization_id, project_id, actor_name, actor_email, action, title)
    select 'act_noisy_' || g, ${f.orgA.id}, ${f.projectA1.id}, 'Noel Noisy', 'noel@harbor.test',
      (array['comment', 'upload', 'status'])[1 + g % 3], ${TITLE} || g
    from generate_series(1, ${NOISY_ROWS}) g`);
  await server.database.db.execute(sql`
    insert into activity (id, organization_id, project_id, actor_name, actor_email, action, title)
    select 'act_quiet_' || g, ${f.orgB.id}, ${f.projectB1.id}, 'Quinn Quiet', 'quinn@ridgeline.test', 'comment',
      'Pour schedule ' || g
    from generate_series(1, 200) g`);
}, 120_000);

/** An export request whose client then reads nothing: its socket stays open, its receive window fills. */
function nonReadingExport(token: string): Promise<Socket> {
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

describe('fairness between callers (issue 28)', () => {
  it("ten non-reading exports and a heavy explorer loop leave another tenant's p99 under 100 ms and /readyz at 200", async () => {
    const quiet = await f.client(['organization:read'], { orgs: [f.orgB.id] });
    const readiness: number[] = [];
    /** The quiet tenant's p99 over 100 sequential reads of its activity page, with /readyz every tenth. */
    const quietP99 = async () => {
      const latencies: number[] = [];
      for (let i = 0; i < 100; i += 1) {
        const started = performance.now();
        const res = await server.call(`/v1/organization/${f.orgB.id}/activity?limit=20`, { token: quiet.token });
        latencies.push(performance.now() - started);
        expect(res.status).toBe(200);
        expect(res.body.data).toHaveLength(20);
        if (i % 10 === 0) readiness.push((await server.call('/readyz')).status);
      }
      return percentile(latencies, 99);
    };
    const idle = await quietP99();

    // Ten exporters, each its own key (the per-key cap alone would refuse eight of ten from one key).
    const exporters = await Promise.all(
      Array.from({ length: 10 }, () => f.client(['organization:read'], { orgs: [f.orgA.id] })),
    );
    const sockets = await Promise.all(exporters.map((key) => nonReadingExport(key.token)));
    const explorerKey = await f.client(['explorer:query'], { orgs: [f.orgA.id] });
    let exploring = true;
    const explorerStatuses: number[] = [];
    const explorerLoop = async () => {
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
    const onPostgres = server.database.kind === 'postgres';
    const workers = Array.from({ length: onPostgres ? 12 : 0 }, explorerLoop);
    await sleep(200); // the loop is running
    const loaded = await quietP99();
    exploring = false;
    await Promise.all(workers);
    for (const socket of sockets) socket.destroy();

    expect(readiness).toEqual(Array(20).fill(200));
    // Under 100 ms on an idle machine; on a shared, busy one (tests run beside others) the same ratio to the
    // quiet tenant's own p99 before the load. A starved pool answers in seconds or not at all.
    expect(loaded).toBeLessThan(Math.max(100, 5 * idle));
    if (onPostgres) {
      // The loop ran (stopped at the explorer's timeout: 503) and was held to its key's share (429s).
      expect(explorerStatuses).toContain(503);
      expect(explorerStatuses).toContain(429);
      expect(new Set(explorerStatuses)).toEqual(new Set([429, 503]));
    }
  }, 120_000);

  it("refuses a key's third concurrent export with 429 and Retry-After, and serves it again once one ends", async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const first = await nonReadingExport(key.token);
    const second = await nonReadingExport(key.token);
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
    const { port } = new URL(server.url);
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
