// MCP tools through the real /mcp endpoint (SDK client, Streamable HTTP, bearer token), each beside the
// equivalent direct SQL run through the driver in the same process; ratios matter more than milliseconds.
//
//   npx tsx bench/mcp.ts [--database-url postgres://postgres@127.0.0.1:5432/sitefile_large] [--runs 30]
//
// Cases (sequential calls, the three ways of each case in turns, p50/p99 over `runs`, one warm-up round):
// - emails_search: subject words + delivery status over the member's organization, limit 20;
//   direct: the same page query (searchSentEmails) on the driver.
// - emails_search, first page, no filters (newest 20 of the member's organization).
// - explorer_query grouped: documents of the member's organization by format and status with count and
//   max(updatedAt); direct: the hand-written GROUP BY over the same organizations.
// "bare POST" is the same tools/call as one JSON-RPC request without the SDK client (the server's share), sent
// with `requestJson` (node:http, one kept-alive connection), as are the two floors; the SDK client uses fetch.
// The MCP figures include HTTP, bearer verification, a fresh per-request MCP server, Zod validation of the
// input and of the structured output, and JSON encoding.
// "bare Express" is the floor any HTTP answer pays on Express: a POST route on its own Express app (same
// process, no auth, no logging, no validation) that parses the JSON-RPC body, runs the same direct query and
// answers a JSON-RPC result with the rows as JSON text and as structured content, as the tool does.
// "node:http" is the same answer from a bare `node:http` server: the floor of HTTP in Node itself.
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type SQL, sql } from 'drizzle-orm';
import express from 'express';
import pino from 'pino';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/connection.js';
import { searchSentEmails } from '../server/dispatches/queries.js';
import { startServer } from '../server/server.js';
import { listenLocally, percentile, requestJson, sendJson } from './measure.js';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/sitefile_large' },
    runs: { type: 'string', default: '30' },
  },
});
const runs = Number(values.runs);
const database = await openDatabase({ databaseUrl: values['database-url'] });
const db = database.db;
const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * p50/p99 of each way of doing the same thing, run in turns (one of each per round, after one warm-up
 * round) so that load from elsewhere on the machine weighs on all of them alike.
 */
type Timing = { p50: number; p99: number };
async function timeInterleaved(ways: (() => Promise<unknown>)[]): Promise<Timing[]> {
  for (const way of ways) await way();
  const samples = ways.map((): number[] => []);
  for (let i = 0; i < runs; i++) {
    for (const [index, way] of ways.entries()) {
      const t0 = performance.now();
      await way();
      samples[index]!.push(performance.now() - t0);
    }
  }
  return samples.map((xs) => ({ p50: percentile(xs, 0.5), p99: percentile(xs, 0.99) }));
}

// The member of the organization with the most e-mail records asks.
const [who] = await rows<{ userId: string; orgId: string }>(
  sql`select m.user_id as "userId", m.organization_id as "orgId" from organization_members m
      join (select organization_id, count(*) n from email_messages group by 1 order by 2 desc limit 1) e
        on e.organization_id = m.organization_id
      limit 1`,
);
if (!who) throw new Error('No members with e-mails: seed the database first (npm run cli -- seed --scale large)');
const orgIds = [who.orgId];
const scope = { orgId: who.orgId, projects: 'all' as const };
const organizationId = who.orgId;
const counts = await rows<{ emails: number; documents: number }>(
  sql`select (select count(*)::int from email_messages) as emails, (select count(*)::int from documents) as documents`,
);

const config = loadConfig({
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitefile-bench-')),
  PORT: '0',
  LOG_LEVEL: 'silent',
  JWT_SIGNING_KEY: 'bench-signing-key-0123456789abcdefghijklmnop',
});
const server = await startServer({ config, db, log: pino({ level: 'silent' }), port: 0 });
const mcpUrl = `${config.publicUrl}/mcp`;
const token = server.app.context.tokens.sign(who.userId, 'user', { lifetimeSeconds: 86400, audience: mcpUrl }).token;
const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  }),
);

async function tool(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result;
}

/** The same call as a bare JSON-RPC POST: the server's share of the cost without the SDK client's. */
const jsonRpcCall = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

async function rawTool(name: string, args: Record<string, unknown>) {
  const res = await requestJson(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: jsonRpcCall(name, args),
  });
  const body = res.body as { result?: CallToolResult };
  if (res.status !== 200 || body.result?.isError) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** The floors: the same JSON-RPC request answered from the direct query by bare Express, and by node:http. */
const floorQueries = new Map<string, () => Promise<unknown>>();
const jsonRpcResult = async (request: { id: number; params: { name: string } }) => {
  const data = await floorQueries.get(request.params.name)!();
  return {
    jsonrpc: '2.0',
    id: request.id,
    result: { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: { data } },
  };
};
const floorApp = express();
floorApp.post('/floor', express.json(), async (req, res) => {
  res.json(await jsonRpcResult(req.body));
});
const nodeFloor = http.createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  sendJson(res, await jsonRpcResult(JSON.parse(Buffer.concat(chunks).toString())));
});
const { server: floorServer, url: floorUrl } = await listenLocally(floorApp);
const { server: nodeFloorServer, url: nodeFloorUrl } = await listenLocally(nodeFloor);

async function floorTool(url: string, name: string, direct: () => Promise<unknown>) {
  floorQueries.set(name, direct);
  const res = await requestJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: jsonRpcCall(name, {}),
  });
  if (res.status !== 200) throw new Error(`floor: ${res.status}`);
}
const expressFloor = (name: string, direct: () => Promise<unknown>) => floorTool(`${floorUrl}/floor`, name, direct);
const nodeHttpFloor = (name: string, direct: () => Promise<unknown>) => floorTool(`${nodeFloorUrl}/`, name, direct);

const orgList = sql.join(
  orgIds.map((id) => sql`${id}`),
  sql`, `,
);
const groupedQuery = () =>
  rows(
    sql`select format, status, count(*)::int, max(updated_at) from documents
        where organization_id in (${orgList}) group by format, status order by 3 desc limit 501`,
  );
const grouped = {
  organizationId,
  entity: 'documents',
  groupBy: ['format', 'status'],
  aggregates: [{ fn: 'count' }, { fn: 'max', field: 'updatedAt' }],
  limit: 500,
};
const cases: {
  name: string;
  mcp: () => Promise<unknown>;
  raw: () => Promise<unknown>;
  direct: () => Promise<unknown>;
  floors: [string, () => Promise<unknown>];
}[] = [
  {
    name: 'emails_search text+status',
    mcp: () => tool('emails_search', { organizationId, text: 'RFI', status: ['opened', 'delivered'], limit: 20 }),
    raw: () => rawTool('emails_search', { organizationId, text: 'RFI', status: ['opened', 'delivered'], limit: 20 }),
    direct: () => searchSentEmails(db, { scope, text: 'RFI', statuses: ['opened', 'delivered'], sent: {}, limit: 20 }),
    floors: [
      'emails_search',
      () => searchSentEmails(db, { scope, text: 'RFI', statuses: ['opened', 'delivered'], sent: {}, limit: 20 }),
    ],
  },
  {
    name: 'emails_search newest page',
    mcp: () => tool('emails_search', { organizationId, limit: 20 }),
    raw: () => rawTool('emails_search', { organizationId, limit: 20 }),
    direct: () => searchSentEmails(db, { scope, sent: {}, limit: 20 }),
    floors: ['emails_search', () => searchSentEmails(db, { scope, sent: {}, limit: 20 })],
  },
  {
    name: 'explorer_query grouped',
    mcp: () => tool('explorer_query', grouped),
    raw: () => rawTool('explorer_query', grouped),
    direct: () => groupedQuery(),
    floors: ['explorer_query', groupedQuery],
  },
];

console.log(
  `data: ${counts[0]?.emails} e-mail records, ${counts[0]?.documents} documents; caller in ${orgIds.length} organization(s); ${runs} runs`,
);
const ms = (t: { p50: number; p99: number }) => `${t.p50.toFixed(1)} / ${t.p99.toFixed(1)}`;
const ratio = (a: { p50: number; p99: number }, b: { p50: number; p99: number }) =>
  `${(a.p50 / b.p50).toFixed(1)}x / ${(a.p99 / b.p99).toFixed(1)}x`;
console.log(
  'case | SDK client p50 / p99 (ms) | bare POST p50 / p99 | bare Express | node:http | direct SQL | SDK/SQL | POST/SQL | bare Express/SQL | node:http/SQL | POST/bare Express',
);
for (const c of cases) {
  const [viaMcp, viaPost, viaFloor, viaNode, viaSql] = (await timeInterleaved([
    c.mcp,
    c.raw,
    () => expressFloor(...c.floors),
    () => nodeHttpFloor(...c.floors),
    c.direct,
  ])) as [Timing, Timing, Timing, Timing, Timing];
  console.log(
    `${c.name} | ${[viaMcp, viaPost, viaFloor, viaNode, viaSql].map(ms).join(' | ')} | ` +
      `${[viaMcp, viaPost, viaFloor, viaNode].map((t) => ratio(t, viaSql)).join(' | ')} | ${ratio(viaPost, viaFloor)}`,
  );
}
floorServer.close();
nodeFloorServer.close();
await client.close();
await server.close();
await database.close();
