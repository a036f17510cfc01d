import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import express, { type Request } from 'express';
import pino from 'pino';
import { createClient, getClient } from '../server/api-keys/service.js';
import { canAccessOrg } from '../server/auth/caller.js';
import { openDatabase } from '../server/db/connection.js';
import { requestLog } from '../server/http/request-log.js';
import { createOrganization, createProject } from '../server/organizations/service.js';
import { startServer } from '../server/server.js';
import { benchConfig, listenLocally, median } from './measure.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '7' },
  },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);

interface Result {
  p50: number;
  p99: number;
  rps: number;
}

async function load(total: number, send: () => Promise<Response>): Promise<Result> {
  const latencies: number[] = [];
  let issued = 0;
  const started = performance.now();
  const worker = async () => {
    while (issued < total) {
      issued += 1;
      const t0 = performance.now();
      const res = await send();
      await res.arrayBuffer();
      if (res.status >= 400) throw new Error(`unexpected status ${res.status}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { p50: at(0.5), p99: at(0.99), rps: total / elapsed };
}

type RunningServer = Awaited<ReturnType<typeof startServer>>;
type Target = { total: number; send: () => Promise<Response> };

/** A database with one organization and key, the real server on it, and 1,000 revoked grants. */
async function startBenchServer() {
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: mkdtempSync(path.join(tmpdir(), 'sitefile-bench-')),
  });
  await database.migrate();
  const db = database.db;
  const org = await createOrganization(db, { name: 'Bench Org' });
  await createProject(db, { organizationId: org.id, name: 'Bench Project' });
  const key = await createClient(db, {
    name: 'bench',
    permissions: ['organization:read', 'project:read', 'client:read'],
    orgIds: [org.id],
    projects: [],
    createdBy: 'bench@sitefile.test',
  });

  const config = benchConfig({ REDIS_URL: process.env.REDIS_URL ?? '' });
  const server = await startServer({ config, db, log: pino({ level: 'silent' }), port: 0 });
  await server.app.context.rateLimiter.ready();
  // Rounds pause some targets for seconds: keep idle connections open so the client never races a close.
  server.http.keepAliveTimeout = 120_000;
  const { token } = server.app.context.tokens.sign(key.clientId, 'client');
  const grantToken = server.app.context.tokens.sign(key.clientId, 'client', { grant: 'kgr_bench' }).token;
  const until = new Date(Date.now() + 86_400_000);
  for (let i = 0; i < 1000; i++) await server.app.context.guard.revokeGrant(`kgr_revoked_${i}`, until);
  return { database, config, org, key, server, token, grantToken };
}

/** The bare app has the real app's request-id logging and body parsing, so only auth differs. */
async function startBareApp(server: RunningServer, keyId: string): Promise<{ bare: Server; bareUrl: string }> {
  const bareApp = express();
  bareApp.use(requestLog(pino({ level: 'silent' })));
  bareApp.use(express.json({ limit: '1mb' }));
  bareApp.use(express.urlencoded({ extended: false, limit: '64kb' }));
  const staticBody = await getClient(server.app.context, keyId);
  bareApp.get('/bare/static', (_req, res) => {
    res.json(staticBody);
  });
  bareApp.get('/bare/lookup', async (_req, res) => {
    res.json(await getClient(server.app.context, keyId));
  });
  const { server: bare, url: bareUrl } = await listenLocally(bareApp);
  return { bare, bareUrl };
}

/** Warm-up, then `rounds` interleaved runs of every target. */
async function measureRounds(targets: Record<string, Target>): Promise<Map<string, Result[]>> {
  for (const target of Object.values(targets)) await load(concurrency * 4, target.send); // warm-up
  const results = new Map<string, Result[]>();
  for (let round = 0; round < rounds; round++) {
    for (const [name, target] of Object.entries(targets)) {
      results.set(name, [...(results.get(name) ?? []), await load(target.total, target.send)]);
    }
  }
  return results;
}

/** The table of medians and the ratios the goals are stated in. */
function reportRounds(results: Map<string, Result[]>, header: string): string[] {
  const summary = new Map(
    [...results].map(([name, rs]) => [
      name,
      { p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)), rps: median(rs.map((r) => r.rps)) },
    ]),
  );
  const lines = [
    header,
    '| target | p50 ms | p99 ms | req/s |',
    '|---|---|---|---|',
    ...[...summary].map(
      ([name, r]) => `| ${name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${Math.round(r.rps)} |`,
    ),
  ];
  const me = summary.get('GET /v1/client/me (bearer)')!;
  const lookup = summary.get('bare lookup (no auth, same query)')!;
  const floor = summary.get('bare static (no auth)')!;
  // Rounds run back to back, so a per-round ratio compares runs made under the same machine load.
  const roundRatios = results
    .get('GET /v1/client/me (bearer)')!
    .map((r, i) => r.p50 / results.get('bare lookup (no auth, same query)')![i]!.p50);
  lines.push(
    '',
    `ratio p50 /v1/client/me ÷ bare lookup, median of per-round ratios: ${median(roundRatios).toFixed(3)} (rounds: ${roundRatios.map((r) => r.toFixed(2)).join(', ')}; goal < 1.15)`,
    `ratio of median p50s: ${(me.p50 / lookup.p50).toFixed(3)}; of median p99s: ${(me.p99 / lookup.p99).toFixed(3)}`,
    `ratio p50 /v1/client/me ÷ bare static: ${(me.p50 / floor.p50).toFixed(3)} (includes the database lookup)`,
    `revocation check: p50 with ÷ without, median of per-round ratios: ${median(
      results
        .get('GET /v1/client/me (bearer naming its grant)')!
        .map((r, i) => r.p50 / results.get('GET /v1/client/me (bearer)')![i]!.p50),
    ).toFixed(3)} (goal < 1.05)`,
  );
  return lines;
}

/** The auth step alone, in process: bearer check with the cached caller, rate limit, scope check. */
async function measureAuthStep(server: RunningServer, token: string, orgId: string): Promise<string> {
  const context = server.app.context;
  const fakeRequest = { headers: { authorization: `Bearer ${token}` } } as unknown as Request;
  const iterations = 20_000;
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) {
    const caller = await context.guard.authenticate(fakeRequest);
    await context.rateLimiter.consume('api', caller.callerKey);
    canAccessOrg(caller.scope, orgId);
  }
  return `auth step in process: ${(((performance.now() - t0) * 1000) / iterations).toFixed(1)} µs per request`;
}

async function main() {
  const { database, config, org, key, server, token, grantToken } = await startBenchServer();
  const { bare, bareUrl } = await startBareApp(server, key.id);
  const targets: Record<string, Target> = {
    'bare static (no auth)': { total: requests, send: () => fetch(`${bareUrl}/bare/static`) },
    'bare lookup (no auth, same query)': { total: requests, send: () => fetch(`${bareUrl}/bare/lookup`) },
    'GET /v1/client/me (bearer)': {
      total: requests,
      send: () => fetch(`${server.url}/v1/client/me`, { headers: { authorization: `Bearer ${token}` } }),
    },
    'GET /v1/client/me (bearer naming its grant)': {
      total: requests,
      send: () => fetch(`${server.url}/v1/client/me`, { headers: { authorization: `Bearer ${grantToken}` } }),
    },
    'POST /v1/oauth/token': {
      // argon2 makes each exchange tens of milliseconds of CPU: fewer requests keep the run short.
      total: Math.max(concurrency * 4, Math.floor(requests / 20)),
      send: () =>
        fetch(`${server.url}/v1/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: key.clientId, client_secret: key.client_secret }),
        }),
    },
  };

  const results = await measureRounds(targets);
  const lines = reportRounds(
    results,
    `database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PostgreSQL'}; rate limits: ${config.redisUrl ? 'Redis' : 'in-process'}; concurrency ${concurrency}; ${rounds} rounds, median`,
  );
  lines.push(await measureAuthStep(server, token, org.id));
  process.stdout.write(`${lines.join('\n')}\n`);

  bare.close();
  await server.close();
  await database.close();
}

main().catch((err) => {
  process.stderr.write(
    `${err instanceof Error ? (err.stack ?? err.message) : String(err)} ${String(err?.cause ?? '')}\n`,
  );
  process.exit(1);
});
