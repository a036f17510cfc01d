import { beforeAll, describe, expect, it } from 'vitest';
import { configureFixtureServer, startInstance } from '../../test/fixture-server.js';
import { encodeCursor } from '../cursor.js';
import { f, server } from './mcp.fixtures.js';

// The Streamable HTTP transport as a client on the wire sees it: bare HTTP requests, no SDK client.

const INSPECTOR_ORIGIN = 'http://localhost:6274';
const METADATA = 'resource_metadata="http://sitefile.test/.well-known/oauth-protected-resource/mcp"';

/** A key that may use every MCP tool in organization A. */
let token: string;

configureFixtureServer({ env: { MCP_ALLOWED_ORIGINS: INSPECTOR_ORIGIN } });

beforeAll(async () => {
  token = (await f.client(['mcp:access', 'project:read', 'document:read', 'email:read'], { orgs: [f.orgA.id] })).token;
});

interface PostOptions {
  as?: string | null;
  headers?: Record<string, string>;
  version?: string;
}

/** One POST /mcp with a raw body; `as: null` sends no Authorization header. */
function post(body: string, options: PostOptions = {}) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': options.version ?? '2025-06-18',
    ...options.headers,
  };
  const as = options.as === undefined ? token : options.as;
  return server.call('/mcp', { method: 'POST', body, headers, ...(as ? { token: as } : {}) });
}

const toolCall = (name: string, args: Record<string, unknown>, id = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** A tools/call: its structured result, or its error text. */
async function callTool(name: string, args: Record<string, unknown>, as?: string) {
  const res = await post(toolCall(name, args), { as });
  expect(res.status).toBe(200);
  const result = res.body.result as { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
  return result.isError ? { error: result.content[0]!.text } : { data: result.structuredContent as never };
}

describe('Origin on /mcp', () => {
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

  it('refuses an origin that is not allowed with 403, before reading the token', async () => {
    for (const as of [token, null]) {
      const res = await post(list, { as, headers: { origin: 'https://evil.example' } });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('This origin may not call the MCP endpoint');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    const preflight = await server.call('/mcp', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
  });

  it("serves the server's own origin and configured origins, with CORS headers and a preflight", async () => {
    for (const origin of ['http://sitefile.test', INSPECTOR_ORIGIN]) {
      const res = await post(list, { headers: { origin } });
      expect(res.status).toBe(200);
      expect(res.body.result.tools).toHaveLength(14);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
      expect(res.headers.get('vary')).toContain('Origin');
    }
    const preflight = await server.call('/mcp', {
      method: 'OPTIONS',
      headers: {
        origin: INSPECTOR_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(INSPECTOR_ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization.*Mcp-Protocol-Version/);
    // A browser client must be able to read the sign-in challenge of an allowed origin.
    const anonymous = await post(list, { as: null, headers: { origin: INSPECTOR_ORIGIN } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('access-control-allow-origin')).toBe(INSPECTOR_ORIGIN);
  });

  it('answers requests without Origin (desktop agents) as before', async () => {
    const res = await post(list);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('JSON-RPC framing', () => {
  it('answers a malformed body with JSON-RPC error -32700', async () => {
    const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
  });

  it('refuses batches for protocol versions without them, accepts them for 2025-03-26', async () => {
    const batch = `[${toolCall('projects_find', { organizationId: f.orgA.id }, 1)}, ${toolCall('projects_find', { organizationId: f.orgA.id, query: 'pier' }, 2)}]`;
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await post(batch, { version });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32600);
      expect(res.body.error.message).toMatch(`protocol version ${version} has no JSON-RPC batches`);
    }
    const old = await post(batch, { version: '2025-03-26' });
    expect(old.status).toBe(200);
    expect(old.body.map((r: { id: number }) => r.id).sort()).toEqual([1, 2]);
    // An initialize inside a batch names the version when no header does.
    const initialize = {
      jsonrpc: '2.0',
      id: 3,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const headerless = await server.call('/mcp', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify([initialize]),
    });
    expect(headerless.status).toBe(400);
    expect(headerless.body.error.code).toBe(-32600);
  });
});

describe('challenges and limits', () => {
  it('a request without any token gets a 401 challenge without an error code (RFC 6750 §3.1)', async () => {
    const res = await post(toolCall('projects_find', { organizationId: f.orgA.id }), { as: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer ${METADATA}`);
    const bad = await post(toolCall('projects_find', { organizationId: f.orgA.id }), { as: 'not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it('a 403 carries the insufficient_scope challenge with the resource metadata', async () => {
    const key = await f.client(['email:read'], { orgs: [f.orgA.id] });
    const res = await post(toolCall('projects_find', { organizationId: f.orgA.id }), { as: key.token });
    expect(res.status).toBe(403);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer error="insufficient_scope"/);
    expect(challenge).toContain(METADATA);
  });

  it('/mcp counts against the caller’s rate limit, the same budget as /v1', async () => {
    // Its own instance: a new rate-limit budget, with the file's users (tokens are signed with the same key).
    const limited = await startInstance({ env: { RATE_LIMIT_PER_MINUTE: '4' } });
    const mcpToken = limited.app.context.tokens.sign(f.member.id, 'user', {
      lifetimeSeconds: 3600,
      audience: `${limited.config.publicUrl}/mcp`,
    }).token;
    const onMcp = () =>
      limited.call('/mcp', {
        method: 'POST',
        token: mcpToken,
        headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
    expect((await limited.call('/v1/me', { token: f.member.token })).status).toBe(200);
    expect((await limited.call('/v1/me', { token: f.member.token })).status).toBe(200);
    const third = await onMcp();
    expect(third.status).toBe(200);
    expect(third.headers.get('ratelimit-remaining')).toBe('1');
    expect((await onMcp()).status).toBe(200);
    const refused = await onMcp();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await limited.call('/v1/me', { token: f.member.token })).status).toBe(429);
  });
});

describe('tools: existence, platform keys, dates and cursors', () => {
  it("another organization's project reads exactly like an unknown one", async () => {
    const scoped = (
      await f.client(['mcp:access', 'document:read', 'email:read'], {
        projects: [{ orgId: f.orgA.id, projectId: f.projectA2.id }],
      })
    ).token;
    for (const tool of ['documents_list', 'submittals_list', 'emails_search']) {
      const inOrg = { organizationId: f.orgA.id };
      const elsewhere = await callTool(tool, { ...inOrg, projectId: f.projectB1.id }, scoped);
      const unknown = await callTool(tool, { ...inOrg, projectId: 'prj_nope' }, scoped);
      expect(elsewhere).toEqual({ error: 'Project not found' });
      expect(unknown).toEqual(elsewhere);
      // Within the key's own organization, a project beyond its grant is refused as REST refuses it.
      expect((await callTool(tool, { ...inOrg, projectId: f.projectA1.id }, scoped)).error).toBe(
        'Insufficient permissions',
      );
    }
  });

  it('a superadmin key reads the timeline of a mailer message', async () => {
    const superadmin = (await f.client(['mcp:access', 'email:read'], { superadmin: true })).token;
    const { data } = await callTool(
      'emails_timeline',
      { organizationId: f.orgB.id, mailerMessageId: 'msg-b1-001' },
      superadmin,
    );
    const events = (data as unknown as { events: { event: string; mailerMessageId: string }[] }).events;
    expect(events.map((e) => e.event)).toEqual(['sent', 'delivered']);
    expect(events.every((e) => e.mailerMessageId === 'msg-b1-001')).toBe(true);
    expect(
      await callTool('emails_timeline', { organizationId: f.orgB.id, mailerMessageId: 'msg-nope' }, superadmin),
    ).toEqual({
      error: 'Email not found',
    });
    // Keys of one organization still see only their own messages.
    expect(await callTool('emails_timeline', { organizationId: f.orgA.id, mailerMessageId: 'msg-b1-001' })).toEqual({
      error: 'Email not found',
    });
  });

  it('impossible dates are tool errors', async () => {
    expect((await callTool('emails_search', { organizationId: f.orgA.id, from: '2025-02-30' })).error).toMatch(/from/);
    expect((await callTool('emails_search', { organizationId: f.orgA.id, to: '2025-02-29T10:00:00Z' })).error).toMatch(
      /to/,
    );
  });

  it('forged cursors, well-formed but holding the wrong values, are tool errors', async () => {
    const forged = (k: (string | number | null)[], binding: unknown) =>
      encodeCursor(server.app.context.cursorKey, { k, id: 'x' }, binding);
    const organizationId = f.orgA.id;
    const search = { list: 'sent-emails', orgId: organizationId, filters: {} };
    for (const k of [['not a date'], ['2025-02-30T10:00:00.000Z'], [5], ['2025-05-10T09:00:00.000Z', 'extra']]) {
      expect(await callTool('emails_search', { organizationId, cursor: forged(k, search) })).toEqual({
        error: 'Invalid cursor',
      });
    }
    const timeline = { list: 'sent-email-timeline', orgId: organizationId, subject: { projectId: f.projectA1.id } };
    for (const k of [[null], ['yesterday']]) {
      const args = { organizationId, projectId: f.projectA1.id, cursor: forged(k, timeline) };
      expect(await callTool('emails_timeline', args)).toEqual({ error: 'Invalid cursor' });
    }
    const projects = { list: 'projects', orgId: organizationId };
    expect(await callTool('projects_find', { organizationId, cursor: forged([7], projects) })).toEqual({
      error: 'Invalid cursor',
    });
  });

  it('a real cursor with its key replaced is refused by documents_list and its REST twin', async () => {
    const args = {
      organizationId: f.orgA.id,
      projectId: f.projectA1.id,
      sortBy: 'dueDate',
      sortOrder: 'asc',
      limit: 1,
    };
    const { data } = await callTool('documents_list', args);
    // A cursor is `payload.signature`: the payload edited under the genuine signature.
    const [payload, signature] = (data as unknown as { nextCursor: string }).nextCursor.split('.');
    const real = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const rest = `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/documents?sortBy=dueDate&sortOrder=asc&limit=1`;
    for (const k of [['2025-02-30'], ['soon']]) {
      const cursor = `${Buffer.from(JSON.stringify({ ...real, k })).toString('base64url')}.${signature}`;
      expect(await callTool('documents_list', { ...args, cursor })).toEqual({ error: 'Invalid cursor' });
      const res = await server.call(`${rest}&cursor=${cursor}`, { token: f.member.token });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid cursor');
    }
  });
});
