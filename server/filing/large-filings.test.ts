import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configureFixtureServer, f, server } from '../../test/fixture-server.js';
import { keepsContract } from '../../test/harness.js';
import { type ServerProcess, startServerProcess } from '../../test/server-process.js';
import { poolOf } from '../db/connection.js';
import { selectRows } from '../db/rows.js';
import { emailsPath } from './filing.fixtures.js';
import { longMessage, mime } from './messages.fixtures.js';

// Issue 36: two people filing large e-mails at once took the server down on PostgreSQL (a transaction held open
// while a 24 MB body was learned from, ended by PostgreSQL, and the client's 'error' with no listener ended the
// process). The server runs in a process of its own here, on the configuration's defaults: whether it stays up,
// and its memory, are that process's.

const MB = 1024 * 1024;
/** Rows of activity in organization A: an export of them (~20 MB) outlasts what a stalled client's socket buffers hold. */
const ACTIVITY_ROWS = 40_000;

configureFixtureServer({});
let running: ServerProcess;
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = String(poolOf(server.database.db)?.options.connectionString);
  // How long a filing may queue for a slot is a matter of this machine's speed, not of what is tested here.
  running = await startServerProcess(databaseUrl, { FILING_QUEUE_WAIT_MS: '300000' });
  await server.database.db.execute(sql`
    insert into activity (id, organization_id, project_id, actor_name, actor_email, action, title)
    select 'act_' || g, ${f.orgA.id}, ${f.projectA1.id}, 'Lee Long', 'lee@harbor.test', 'comment',
      ${'x'.repeat(480)} || g
    from generate_series(1, ${ACTIVITY_ROWS}) g`);
}, 120_000);
afterAll(() => running?.close());

/**
 * Files `raw` by `token` on a connection of its own: a kept-alive connection may be closed by the server as idle
 * just as a 24 MB upload starts on it, which fails the upload (EPIPE) before the server has seen it.
 */
function fileOn(raw: Buffer, token: string): Promise<{ status: number; retryAfter?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${running.url}${emailsPath()}`,
      {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'message/rfc822', 'content-length': raw.length },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }));
      },
    );
    sent.on('error', reject);
    sent.end(raw);
  });
}

const storedCount = async (messageIdLike: string) =>
  (
    await selectRows(
      server.database.db,
      sql`select count(*)::int as count from filed_emails where message_id like ${messageIdLike}`,
      z.object({ count: z.number() }),
    )
  )[0]?.count;

/** The server still answers: its health, and a read of the project's filed e-mails. */
async function expectServing() {
  expect(running.exited()).toBe(false);
  expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
  const list = await fetch(`${running.url}${emailsPath()}?limit=1`, {
    headers: { authorization: `Bearer ${f.member.token}` },
  });
  expect(list.status).toBe(200);
  await keepsContract('GET', list);
}

/**
 * Eight filings of a 24 MB e-mail at once, alternately by two members of organization A: each is filed (201)
 * and stored, and the server's resident memory grows by less than 300 MB over what it held before (it grew by
 * 614–681 MB when two such filings ran at once, each holding the message about five times). A filing that large
 * runs alone (FILING_ALONE_FROM_BYTES); the server has filed a small message before, as a running one has.
 */
async function fileEightLargeEmails(round: string) {
  const messages = Array.from({ length: 8 }, (_, i) => longMessage(`<large-${round}-${i}@acme-eng.test>`, 24 * MB));
  const tokens = [f.member.token, f.admin.token];
  expect((await fileOn(mime({ messageId: `<warm-${round}@acme-eng.test>` }), f.member.token)).status).toBe(201);
  running.resetPeakRss();
  const before = running.rss().now;
  const statuses = await Promise.all(messages.map(async (raw, i) => (await fileOn(raw, tokens[i % 2]!)).status));
  const growth = running.rss().peak - before;
  expect(statuses).toEqual(Array(8).fill(201));
  expect(await storedCount(`large-${round}-%`)).toBe(8);
  await expectServing();
  console.info(`eight 24 MB filings (${round}): resident memory +${(growth / MB).toFixed(0)} MB`);
  expect(growth / MB, 'resident memory growth, MB').toBeLessThan(300);
}

/** A CSV export of organization A's activity whose client reads its first bytes, then nothing more. */
async function stalledExport(token: string): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(running.url).port) });
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `GET /v1/organization/${f.orgA.id}/activity HTTP/1.1\r\nHost: x\r\nAccept: text/csv\r\n` +
      `Authorization: Bearer ${token}\r\n\r\n`,
  );
  await new Promise((resolve) => socket.once('data', resolve));
  socket.pause();
  return socket;
}

/** Polls `probe` until it answers something, for up to ten seconds. */
async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (const started = performance.now(); performance.now() - started < 10_000; await sleep(50)) {
    const found = await probe();
    if (found !== undefined) return found;
  }
  throw new Error('not found within 10 s');
}

describe('large e-mails filed at once (PostgreSQL; the server in a process of its own)', () => {
  it('answers 503 with Retry-After when the database ends the connection mid-transaction, and keeps serving', async () => {
    const raw = mime({ messageId: '<cut-off@acme-eng.test>' });
    // The test holds the lock the filing's transaction takes on its Message-ID, so the filing waits in its
    // transaction until the test has ended its connection, as an administrator or a failover would.
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `${f.projectA1.id} cut-off@acme-eng.test`,
      ]);
      const filing = fileOn(raw, f.member.token);
      const waiting = await eventually(async () => {
        const [row] = await selectRows(
          server.database.db,
          sql`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%pg_advisory_xact_lock%'`,
          z.object({ pid: z.number() }),
        );
        return row?.pid;
      });
      await server.database.db.execute(sql`select pg_terminate_backend(${waiting})`);
      await holder.query('commit');
      const answer = await filing;
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toBe('1');
      expect(JSON.parse(answer.body)).toMatchObject({ errorCode: 'service_unavailable' });
    } finally {
      await holder.end();
    }
    expect(await storedCount('cut-off@acme-eng.test')).toBe(0);
    await expectServing();
    expect((await fileOn(raw, f.member.token)).status).toBe(201);
  }, 60_000);

  it('files eight 24 MB e-mails of two members at once: all stored, the server up, memory +300 MB at most', async () => {
    await fileEightLargeEmails('first');
  }, 300_000);

  it('does the same with ten CSV exports stalled by their clients', async () => {
    // Two exports per caller at once (EXPORTS_PER_CLIENT): five keys.
    const keys = await Promise.all([1, 2, 3, 4, 5].map(() => f.client(['organization:read'], { orgs: [f.orgA.id] })));
    const stalled = await Promise.all(keys.flatMap((key) => [stalledExport(key.token), stalledExport(key.token)]));
    try {
      await fileEightLargeEmails('after-exports');
    } finally {
      for (const socket of stalled) socket.destroy();
    }
  }, 300_000);
});
