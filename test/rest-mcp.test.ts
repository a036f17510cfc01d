import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { f, fileRfiAnswer, server } from '../server/mcp/mcp.fixtures.js';
import { createUser } from '../server/users/service.js';
import { permissionKeys } from '../shared/permissions.js';
import { declaredRoute } from './auth-matrix.js';

// Every MCP tool beside its REST twin, for each principal the auth matrix uses: the same caller gets the same
// answer (the same items, cursors included) or the same refusal (the same errorCode and message) from both.

let filedEmailId: string;

beforeAll(async () => {
  filedEmailId = await fileRfiAnswer(server, f, '<twins@acme-eng.test>');
});

interface Twin {
  tool: string;
  args: () => Record<string, unknown>;
  method?: 'GET' | 'POST';
  /** The REST request the arguments stand for. */
  rest: () => string;
  json?: () => unknown;
}

const inA = () => `/v1/organization/${f.orgA.id}`;
const inA1 = () => `${inA()}/project/${f.projectA1.id}`;
const orgA = () => ({ organizationId: f.orgA.id });
const projectA1 = () => ({ organizationId: f.orgA.id, projectId: f.projectA1.id });

const twins: Twin[] = [
  { tool: 'organizations_list', args: () => ({ limit: 1 }), rest: () => '/v1/organization?limit=1' },
  { tool: 'projects_find', args: () => ({ ...orgA(), query: 'pier' }), rest: () => `${inA()}/project?search=pier` },
  {
    tool: 'explorer_query',
    args: () => ({ ...orgA(), entity: 'documents', groupBy: ['format'], orderBy: [{ field: 'format' }] }),
    method: 'POST',
    rest: () => `${inA()}/explorer/query`,
    json: () => ({ entity: 'documents', groupBy: ['format'], orderBy: [{ field: 'format' }] }),
  },
  {
    tool: 'emails_search',
    args: () => ({ ...orgA(), status: ['bounced', 'failed'], limit: 1 }),
    rest: () => `${inA()}/sent-emails?status=bounced,failed&limit=1`,
  },
  {
    tool: 'emails_timeline',
    args: () => ({ ...orgA(), mailerMessageId: 'msg-a1-001' }),
    rest: () => `${inA()}/sent-emails/timeline?mailerMessageId=msg-a1-001`,
  },
  {
    tool: 'documents_list',
    args: () => ({ ...projectA1(), format: ['rfi'], limit: 1 }),
    rest: () => `${inA1()}/documents?format=rfi&sortBy=createdAt&sortOrder=desc&limit=1&include=assignees`,
  },
  {
    tool: 'submittals_list',
    args: () => ({ ...projectA1(), open: true }),
    rest: () => `${inA1()}/document/submittals?filter.open=true&limit=10`,
  },
  {
    tool: 'filed_emails_search',
    args: () => ({ ...projectA1(), search: 'pocket' }),
    rest: () => `${inA1()}/emails?search=pocket`,
  },
  {
    tool: 'filed_email_read',
    args: () => ({ ...projectA1(), emailId: filedEmailId }),
    rest: () => `${inA1()}/emails/${filedEmailId}`,
  },
  { tool: 'reports_list', args: projectA1, rest: () => `${inA1()}/reports` },
  {
    tool: 'report_read',
    args: () => ({ ...projectA1(), reportId: 'rep_nope' }),
    rest: () => `${inA1()}/reports/rep_nope`,
  },
  { tool: 'directory_search', args: () => ({ ...orgA(), search: 'a' }), rest: () => `${inA()}/directory?search=a` },
  { tool: 'activity_feed', args: () => ({ ...orgA(), limit: 2 }), rest: () => `${inA()}/activity?limit=2` },
  {
    tool: 'document_read',
    args: () => ({ ...projectA1(), documentUid: 'doc_a1_rfi1', include: ['assignees'] }),
    rest: () => `${inA1()}/documents/doc_a1_rfi1?include=assignees`,
  },
];

/** A person of the given role in an organization. */
async function personIn(orgId: string, role: 'admin' | 'member') {
  return createUser(server.database.db, {
    email: `${role}-${randomUUID()}@twins.test`,
    name: `Twin ${role}`,
    memberships: [{ orgId, role }],
  });
}

/** The auth matrix's principals (test/auth-matrix.ts), each with its REST token and its MCP token. */
const principals: Record<string, (twin: Twin) => Promise<{ rest: string; mcp: string }>> = {
  'a key of organization A holding every permission': async () =>
    same((await f.client('all', { orgs: [f.orgA.id] })).token),
  'a superadmin key': async () => same((await f.client('all', { superadmin: true })).token),
  "a key of organization A without the route's permission": async (twin) => {
    const route = declaredRoute(twin.method ?? 'GET', twin.rest());
    const rule = route.access as { permission?: string };
    return same(
      (
        await f.client(
          permissionKeys.filter((p) => p !== rule.permission),
          { orgs: [f.orgA.id] },
        )
      ).token,
    );
  },
  'a key scoped to organization B': async () => same((await f.client('all', { orgs: [f.orgB.id] })).token),
  'a key scoped to project A2': async () =>
    same((await f.client('all', { projects: [{ orgId: f.orgA.id, projectId: f.projectA2.id }] })).token),
  'a member of organization A': async () => person(f.member.id),
  'an admin of organization A': async () => person(f.admin.id),
  'a staff user': async () => person(f.staff.id),
  'an admin of organization B': async () => person((await personIn(f.orgB.id, 'admin')).id),
};

const same = (token: string) => ({ rest: token, mcp: token });

/** A signed-in person: the API's token, and one for the MCP resource (what the OAuth sign-in gives an agent). */
function person(userId: string) {
  const mcpUrl = `${server.config.publicUrl}/mcp`;
  const mcp = server.app.context.tokens.sign(userId, 'user', { lifetimeSeconds: 3600, audience: mcpUrl }).token;
  return { rest: f.userToken(userId), mcp };
}

type Answer = { ok: true; value: unknown } | { ok: false; errorCode: string; error: string };

async function restAnswer(twin: Twin, token: string): Promise<Answer> {
  const res = await server.call(twin.rest(), {
    method: twin.method ?? 'GET',
    token,
    ...(twin.json ? { json: twin.json() } : {}),
  });
  if (res.status < 400) return { ok: true, value: res.body };
  return { ok: false, errorCode: res.body.errorCode, error: res.body.error };
}

async function mcpAnswer(twin: Twin, token: string): Promise<Answer> {
  const res = await server.call('/mcp', {
    method: 'POST',
    token,
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: twin.tool, arguments: twin.args() } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const result = res.body.result;
  if (!result.isError) return { ok: true, value: result.structuredContent };
  return { ok: false, errorCode: result._meta?.errorCode, error: result.content[0].text };
}

/** The MCP answer's fields from the REST answer (a page also carries what the tool leaves out, e.g. filters). */
function restAsTool(rest: Answer, mcp: Answer): Answer {
  if (!rest.ok || !mcp.ok) return rest;
  const fields = Object.keys(mcp.value as object);
  const value = rest.value as Record<string, unknown>;
  return { ok: true, value: Object.fromEntries(fields.map((k) => [k, value[k]])) };
}

describe('each MCP tool answers as its REST twin, for every principal of the auth matrix', () => {
  it('covers every tool the MCP server lists', async () => {
    const token = (await f.client('all', { orgs: [f.orgA.id] })).token;
    const res = await server.call('/mcp', {
      method: 'POST',
      token,
      headers: { accept: 'application/json', 'mcp-protocol-version': '2025-06-18' },
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const listed = res.body.result.tools.map((t: { name: string }) => t.name).sort();
    expect(twins.map((t) => t.tool).sort()).toEqual(listed);
  });

  for (const [who, tokensOf] of Object.entries(principals)) {
    it(who, async () => {
      for (const twin of twins) {
        const tokens = await tokensOf(twin);
        const [rest, mcp] = [await restAnswer(twin, tokens.rest), await mcpAnswer(twin, tokens.mcp)];
        // A sync token is the database's oldest running transaction at the moment of each call: other tests'
        // transactions move it between the two.
        for (const answer of [rest, mcp] as { value?: { syncToken?: unknown } }[])
          if (answer.value?.syncToken !== undefined) answer.value.syncToken = 'any';
        expect(mcp, `${twin.tool} beside ${twin.method ?? 'GET'} ${twin.rest()}`).toEqual(restAsTool(rest, mcp));
      }
    });
  }

  it('serves the full key and refuses the key of organization B on every tool (the comparison is not vacuous)', async () => {
    const full = (await f.client('all', { orgs: [f.orgA.id] })).token;
    const other = (await f.client('all', { orgs: [f.orgB.id] })).token;
    for (const twin of twins.filter((t) => t.tool !== 'report_read')) {
      expect((await mcpAnswer(twin, full)).ok, twin.tool).toBe(true);
    }
    for (const twin of twins.filter((t) => t.tool !== 'organizations_list')) {
      expect(await mcpAnswer(twin, other), twin.tool).toMatchObject({ ok: false, errorCode: 'forbidden' });
    }
  });
});
