import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { configureFixtureServer, f, server } from '../../test/fixture-server.js';

// A pathological explorer query: 50 `contains` of ~500 characters over 2 000 titles of 25 000 characters.
// Each comparison lowers and searches its row's whole title, about 2.5 million characters per row, so the whole
// statement needs five seconds on PostgreSQL; the configured limit (1.5 s) has to stop it. The test's own
// timeout (30 s) is far below the unbounded run, so the query cannot pass by finishing.
const LIMIT_MS = 1500;
const ROWS = 2000;

configureFixtureServer({ env: { EXPLORER_TIMEOUT_MS: String(LIMIT_MS) } });

let restToken: string;
let mcpToken: string;
let otherTenantToken: string;

beforeAll(async () => {
  await server.database.db.execute(sql`
    insert into activity (id, organization_id, project_id, actor_name, actor_email, action, title)
    select 'act_long_' || g, ${f.orgA.id}, ${f.projectA1.id}, 'Lee Long', 'lee@harbor.test', 'comment', repeat('a', 25000)
    from generate_series(1, ${ROWS}) g`);
  restToken = (await f.client(['explorer:query'], { orgs: [f.orgA.id] })).token;
  mcpToken = (await f.client(['mcp:access', 'explorer:query'], { orgs: [f.orgA.id] })).token;
  otherTenantToken = (await f.client(['explorer:query'], { orgs: [f.orgB.id] })).token;
}, 180_000);

// Three groups of at most 20 (the language's limit per group), 50 distinct needles in all.
const needles = Array.from({ length: 50 }, (_, i) => `${'a'.repeat(450 + i)}b`);
const pathological = {
  entity: 'activity',
  where: {
    or: [needles.slice(0, 20), needles.slice(20, 40), needles.slice(40)].map((group) => ({
      or: group.map((value) => ({ field: 'title', op: 'contains', value })),
    })),
  },
  groupBy: ['action'],
};
/** Resolves once `count` explorer queries hold a slot at once, as the instance's gates hand them out. */
function explorerSlotsHeld(count: number): Promise<void> {
  const gates = server.app.context.gates;
  const enter = gates.enter;
  let held = 0;
  return new Promise((resolve) => {
    gates.enter = async (kind, callerKey, options) => {
      const release = await enter.call(gates, kind, callerKey, options);
      if (kind !== 'explorer') return release;
      held += 1;
      if (held === count) {
        gates.enter = enter;
        resolve();
      }
      let released = false;
      return () => {
        if (!released) held -= 1;
        released = true;
        release();
      };
    };
  });
}

const explore = (orgId: string, token: string, json: unknown) =>
  server.call(`/v1/organization/${orgId}/explorer/query`, { method: 'POST', token, json });
const stopped = new RegExp(`ran longer than ${LIMIT_MS / 1000} s and was stopped; add filters`);

describe('explorer queries are bounded in time on both databases', () => {
  it('stops a pathological REST query at the limit with a 503 that says what to do', async () => {
    const res = await server.call(`/v1/organization/${f.orgA.id}/explorer/query`, {
      method: 'POST',
      token: restToken,
      json: pathological,
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ errorCode: 'service_unavailable', error: expect.stringMatching(stopped) });
    // The database is usable at once afterwards.
    const count = await server.call(`/v1/organization/${f.orgA.id}/explorer/query`, {
      method: 'POST',
      token: restToken,
      json: { entity: 'activity', groupBy: ['action'] },
    });
    expect(count.body.rows).toEqual([{ action: 'comment', count: ROWS }]);
  }, 30_000);

  it('stops the same query through the MCP tool with a tool error', async () => {
    const res = await server.call('/mcp', {
      method: 'POST',
      token: mcpToken,
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      json: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'explorer_query', arguments: { organizationId: f.orgA.id, ...pathological } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBe(true);
    expect(res.body.result.content[0].text).toMatch(stopped);
  }, 30_000);

  it("one key looping two slow queries takes its share, not the instance's: another tenant's query still runs", async () => {
    let looping = true;
    const loopStatuses: number[] = [];
    const loop = async () => {
      while (looping) loopStatuses.push((await explore(f.orgA.id, restToken, pathological)).status);
    };
    const running = explorerSlotsHeld(2);
    const workers = [loop(), loop()];
    await running; // both of the key's queries are running
    const [third, other] = await Promise.all([
      explore(f.orgA.id, restToken, pathological),
      explore(f.orgB.id, otherTenantToken, { entity: 'documents', groupBy: ['status'] }),
    ]);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(other.status).toBe(200);
    // And again while the loop goes on, from query to query.
    for (let i = 0; i < 2; i += 1) {
      expect((await explore(f.orgB.id, otherTenantToken, { entity: 'documents', groupBy: ['status'] })).status).toBe(
        200,
      );
    }
    looping = false;
    await Promise.all(workers);
    expect(new Set(loopStatuses)).toEqual(new Set([503]));
  }, 60_000);
});
