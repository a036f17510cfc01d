// Per-request overhead: three cheap lists through the API, beside the same queries through the driver, beside
// a bare Express route that runs those queries and answers `res.json` (no auth, no logging, no validation: the
// floor any pipeline on Express pays for HTTP and JSON), and beside a bare `node:http` server doing the same
// (the floor of HTTP in Node itself). The client is `requestJson` (node:http, one kept-alive connection); the
// API is also timed through `fetch`, the client most integrators' code uses. All in one process, interleaved.
//
//   npx tsx bench/overhead.ts [--database-url postgres://postgres@127.0.0.1:5432/sitefile_large] [--runs 50]
//   npx tsx bench/overhead.ts --data-dir <dataDir>   (the embedded PostgreSQL of that DATA_DIR)
//   LOG_LEVEL=info npx tsx bench/overhead.ts …   (the server logs each request as in production, to /dev/null)
//   npx tsx bench/overhead.ts --only api --runs 3000   (the API requests alone: p50 wall and CPU per request)
//   node --cpu-prof --import tsx bench/overhead.ts --only api …   (profile the API requests alone)
import { openSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { type SQL, sql } from 'drizzle-orm';
import express from 'express';
import pino from 'pino';
import { openDatabase } from '../server/db/connection.js';
import { dispatchPage, recipientsOfDispatches } from '../server/dispatches/queries.js';
import {
  countDocuments,
  type DocumentFilter,
  fetchPage,
  filterValues,
  submittalQuery,
} from '../server/documents/queries.js';
import { startServer } from '../server/server.js';
import { Submittal } from '../shared/documents.js';
import { benchConfig, getJson, listenLocally, median, sendJson } from './measure.js';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/sitefile_large' },
    'data-dir': { type: 'string' },
    runs: { type: 'string', default: '50' },
    /** `api`: only the API requests (for a CPU profile of the pipeline). */
    only: { type: 'string' },
  },
});
const runs = Number(values.runs);
const database = await openDatabase(
  values['data-dir'] ? { dataDir: values['data-dir'] } : { databaseUrl: values['database-url'] },
);
const db = database.db;
const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

// --- The project with the most submittals, the project with the most dispatches, and a member of each.
const [submittals] = await rows<{ projectId: string; organizationId: string; n: number }>(
  sql`select project_id as "projectId", organization_id as "organizationId", count(*)::int as n from documents
      where format = 'submittal' group by 1, 2 order by 3 desc limit 1`,
);
const [comms] = await rows<{ projectId: string; organizationId: string; n: number }>(
  sql`select project_id as "projectId", organization_id as "organizationId", count(*)::int as n from dispatches
      group by 1, 2 order by 3 desc limit 1`,
);
if (!submittals || !comms) throw new Error('No submittals or dispatches: seed the database first');
const memberOf = async (organizationId: string) =>
  (
    await rows<{ userId: string }>(
      sql`select user_id as "userId" from organization_members where organization_id = ${organizationId} limit 1`,
    )
  )[0]?.userId;

const logLevel = process.env.LOG_LEVEL ?? 'silent';
const config = benchConfig({ LOG_LEVEL: logLevel });
const log = pino({ level: logLevel }, pino.destination(openSync('/dev/null', 'w')));
const server = await startServer({ config, db, log, port: 0 });
server.http.keepAliveTimeout = 120_000;
const tokenOf = async (organizationId: string) =>
  server.app.context.tokens.sign((await memberOf(organizationId)) as string, 'user').token;
const submittalsToken = await tokenOf(submittals.organizationId);
const commsToken = await tokenOf(comms.organizationId);

const PAGE = 25;
const COMMS_PAGE = 20;
const scope: DocumentFilter = { projectId: submittals.projectId, formats: ['submittal'] };
const searched: DocumentFilter = { ...scope, open: true, search: 'concrete' };
const createdDesc = { field: 'createdAt', order: 'desc' } as const;
const submittalsPage = (filter: DocumentFilter, withReviewHints = false) =>
  Promise.all([
    fetchPage(db, submittalQuery({ filter, sort: createdDesc, withReviewHints }), PAGE + 1, Submittal),
    countDocuments(db, filter),
  ]);
const submittalsPath = `/v1/organization/${submittals.organizationId}/project/${submittals.projectId}/document/submittals`;

interface Case {
  name: string;
  path: string;
  token: string;
  /** The same queries, through the driver: what the API and the floor both wrap. */
  direct: () => Promise<unknown>;
}

const cases: Case[] = [
  {
    name: `project submittals (${submittals.n}), page 1`,
    path: `${submittalsPath}?limit=${PAGE}`,
    token: submittalsToken,
    direct: () => submittalsPage(scope),
  },
  {
    name: 'project submittals, open + search "concrete"',
    path: `${submittalsPath}?limit=${PAGE}&filter.open=true&search=concrete`,
    token: submittalsToken,
    direct: () => submittalsPage(searched),
  },
  {
    name: 'project submittals, includeMeta + reviewHints',
    path: `${submittalsPath}?limit=${PAGE}&includeMeta=true&include=reviewHints`,
    token: submittalsToken,
    direct: () =>
      Promise.all([
        submittalsPage(scope, true),
        filterValues(db, ['status', 'reviewStatus', 'priority', 'type'], scope),
      ]),
  },
  {
    name: `comms sort=largest (${comms.n} dispatches), page 1`,
    path: `/v1/organization/${comms.organizationId}/project/${comms.projectId}/comms?sort=largest&limit=${COMMS_PAGE}`,
    token: commsToken,
    direct: async () => {
      const page = await dispatchPage(db, { projectId: comms.projectId }, 'largest', undefined, COMMS_PAGE);
      return {
        page,
        recipients: await recipientsOfDispatches(
          db,
          page.slice(0, COMMS_PAGE).map((d) => d.id),
        ),
      };
    },
  },
];

// --- The floor: a bare Express app answering each case's queries with res.json.
const bare = express();
bare.get('/case/:index', async (req, res) => {
  res.json(await (cases[Number(req.params.index)] as Case).direct());
});
const { server: floorServer, url: floorUrl } = await listenLocally(bare);

// --- The floor under that: the same in `node:http` alone (no router, no Express response helpers).
const { server: nodeFloor, url: nodeFloorUrl } = await listenLocally(
  http.createServer(async (req, res) => {
    sendJson(res, await (cases[Number(req.url?.split('/').at(-1))] as Case).direct());
  }),
);

async function getByFetch(url: string, token: string) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const lines = [
  `database: ${values['data-dir'] ? 'embedded PostgreSQL' : values['database-url']}; log level ${logLevel}; ${runs} sequential runs per case after one warm-up`,
  '',
  ...(values.only === 'api'
    ? ['| case | API p50 ms | API CPU ms p50 |', '|---|---|---|']
    : [
        '| case | API p50 ms | API by fetch | bare Express | bare node:http | driver | API ÷ driver | bare Express ÷ driver | node:http ÷ driver | API ÷ bare Express | CPU ms p50: API / bare Express / node:http / driver |',
        '|---|---|---|---|---|---|---|---|---|---|---|',
      ]),
];
/**
 * p50 wall time and p50 CPU time (user + system of this process, which holds client, server and driver) of
 * each variant, timed in turns (API, floor, driver, API, …) so a change in load hits all three. CPU time
 * leaves out waiting for PostgreSQL and for the machine: on a shared machine it is the steadier measure.
 */
interface Timing {
  wall: number;
  cpu: number;
}
async function interleaved(variants: (() => Promise<unknown>)[]): Promise<Timing[]> {
  const wall = variants.map(() => [] as number[]);
  const cpu = variants.map(() => [] as number[]);
  for (const variant of variants) await variant(); // warm-up
  for (let i = 0; i < runs; i++) {
    for (const [v, variant] of variants.entries()) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await variant();
      wall[v]!.push(performance.now() - t0);
      const used = process.cpuUsage(c0);
      cpu[v]!.push((used.user + used.system) / 1000);
    }
  }
  return variants.map((_, v) => ({ wall: median(wall[v]!), cpu: median(cpu[v]!) }));
}

for (const [index, c] of cases.entries()) {
  const viaApi = () => getJson(server.url + c.path, c.token);
  if (values.only === 'api') {
    const [api] = (await interleaved([viaApi])) as [Timing];
    lines.push(`| ${c.name} | ${api.wall.toFixed(2)} | ${api.cpu.toFixed(2)} |`);
    continue;
  }
  const [api, byFetch, floor, nodeHttp, driver] = (await interleaved([
    viaApi,
    () => getByFetch(server.url + c.path, c.token),
    () => getJson(`${floorUrl}/case/${index}`),
    () => getJson(`${nodeFloorUrl}/case/${index}`),
    c.direct,
  ])) as [Timing, Timing, Timing, Timing, Timing];
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  lines.push(
    `| ${c.name} | ${api.wall.toFixed(2)} | ${byFetch.wall.toFixed(2)} | ${floor.wall.toFixed(2)} | ` +
      `${nodeHttp.wall.toFixed(2)} | ${driver.wall.toFixed(2)} | ${ratio(api.wall, driver.wall)} | ` +
      `${ratio(floor.wall, driver.wall)} | ${ratio(nodeHttp.wall, driver.wall)} | ${ratio(api.wall, floor.wall)} | ` +
      `${[api, floor, nodeHttp, driver].map((t) => t.cpu.toFixed(2)).join(' / ')} |`,
  );
  console.error(lines.at(-1));
}
console.log(lines.join('\n'));
floorServer.close();
nodeFloor.close();
await server.close();
await database.close();
