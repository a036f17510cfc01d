import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { signInAndConsent, viaServer } from '../oauth/test-browser.js';
import { insertMcpTestData } from './mcp.fixtures.js';

/** The MCP client's side of OAuth, kept in memory, as an agent (Claude, Inspector) would keep it. */
class AgentOAuth implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:33418/callback';
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Agent',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    };
  }
  state = () => 'agent-state-1';
  clientInformation = () => this.information;
  saveClientInformation = (info: OAuthClientInformationMixed) => {
    this.information = info;
  };
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => {
    this.saved = tokens;
  };
  redirectToAuthorization = (url: URL) => {
    this.authorizationUrl = url;
  };
  saveCodeVerifier = (verifier: string) => {
    this.verifier = verifier;
  };
  codeVerifier = () => this.verifier;
}

let server: TestServer;
let f: Fixtures;
let oauth: AgentOAuth;
let agent: Client;

const mcpUrl = () => new URL(`${server.config.publicUrl}/mcp`);

async function connectAgent(provider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider, fetch: viaServer(server) }),
  );
  return client;
}

async function connectWithToken(token: string): Promise<Client> {
  const client = new Client({ name: 'key-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(), {
      fetch: viaServer(server),
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

const errorText = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
};

// biome-ignore lint/suspicious/noExplicitAny: structured results are asserted field by field
const structured = (result: CallToolResult): any => {
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent;
};

beforeAll(async () => {
  server = await startTestServer();
  f = await createFixtures(server);
  await insertMcpTestData(server.database.db, {
    orgA: f.orgA.id,
    projectA1: f.projectA1.id,
    orgB: f.orgB.id,
    projectB1: f.projectB1.id,
  });
  oauth = new AgentOAuth();
});
afterAll(async () => {
  await agent?.close();
  await server?.close();
});

describe('MCP sign-in with the SDK client', () => {
  it('answers 401 with resource metadata, then registers, signs in with PKCE and connects', async () => {
    const bare = await server.call('/mcp', { method: 'POST', json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toContain(
      'resource_metadata="http://sitefile.test/.well-known/oauth-protected-resource/mcp"',
    );

    const first = new Client({ name: 'test-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: oauth, fetch: viaServer(server) });
    await expect(first.connect(transport)).rejects.toThrow(UnauthorizedError);

    // Dynamic registration happened; the authorization URL carries PKCE S256 and the MCP resource.
    expect(oauth.information?.client_id).toBeTruthy();
    const url = oauth.authorizationUrl!;
    expect(url.pathname).toBe('/oauth/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe('http://sitefile.test/mcp');

    const redirect = await signInAndConsent(server, url, { email: 'member@harbor.test', password: 'member-pass-1' });
    expect(redirect.get('state')).toBe('agent-state-1');
    await transport.finishAuth(redirect.get('code')!);
    expect(oauth.saved?.expires_in).toBe(86400);
    expect(oauth.saved?.refresh_token).toMatch(/^sfr_/);

    agent = await connectAgent(oauth);
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'documents_list',
      'emails_search',
      'emails_timeline',
      'explorer_query',
      'projects_find',
      'submittals_list',
    ]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.outputSchema).toBeDefined();
      expect(tool.description!.length).toBeGreaterThan(80);
    }
  });

  it('GET and DELETE /mcp answer 405 for a signed-in caller (stateless server)', async () => {
    const token = oauth.saved!.access_token;
    for (const method of ['GET', 'DELETE']) {
      const res = await server.call('/mcp', { method, token });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('MCP tokens are refused on /v1 and /v1 user tokens on /mcp (audiences)', async () => {
    expect((await server.call('/v1/me', { token: oauth.saved!.access_token })).status).toBe(401);
    expect((await server.call('/v1/me', { token: f.member.token })).status).toBe(200);
    const res = await server.call('/mcp', {
      method: 'POST',
      token: f.member.token,
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.status).toBe(401);
  });
});

describe('MCP tools as a signed-in member of organization A', () => {
  it("projects_find lists only the member's projects, by name, with paging", async () => {
    const all = structured(await call(agent, 'projects_find', {}));
    expect(all.data.map((p: { name: string }) => p.name)).toEqual(['Dockside Offices', 'Pier 9 Terminal']);
    const page1 = structured(await call(agent, 'projects_find', { limit: 1 }));
    expect(page1.hasMore).toBe(true);
    const page2 = structured(await call(agent, 'projects_find', { limit: 1, cursor: page1.nextCursor }));
    expect(page2.data[0].name).toBe('Pier 9 Terminal');
    expect(page2.hasMore).toBe(false);
    expect(structured(await call(agent, 'projects_find', { query: 'pier' })).data).toHaveLength(1);
    expect(errorText(await call(agent, 'projects_find', { limit: 500 }))).toMatch(/limit/);
    expect(errorText(await call(agent, 'projects_find', { organizationId: f.orgB.id }))).toMatch(/outside your access/);
  });

  it("explorer_query groups and lists within the caller's organizations only", async () => {
    const grouped = structured(
      await call(agent, 'explorer_query', { entity: 'documents', groupBy: ['format'], orderBy: [{ field: 'format' }] }),
    );
    expect(grouped.rows).toEqual([
      { format: 'rfi', count: 2 },
      { format: 'submittal', count: 1 },
    ]);
    const listed = structured(
      await call(agent, 'explorer_query', {
        entity: 'documents',
        fields: ['number', 'status', 'dueDate'],
        where: { field: 'format', op: 'eq', value: 'rfi' },
        orderBy: [{ field: 'number', direction: 'asc' }],
        limit: 1,
      }),
    );
    expect(listed.rows).toEqual([{ number: 'RFI-001', status: 'pending', dueDate: '2025-06-01' }]);
    expect(listed.hasMore).toBe(true);
    const next = structured(
      await call(agent, 'explorer_query', {
        entity: 'documents',
        fields: ['number', 'status', 'dueDate'],
        where: { field: 'format', op: 'eq', value: 'rfi' },
        orderBy: [{ field: 'number', direction: 'asc' }],
        limit: 1,
        cursor: listed.nextCursor,
      }),
    );
    expect(next.rows).toEqual([{ number: 'RFI-002', status: 'closed', dueDate: '2025-06-02' }]);
    expect(next.hasMore).toBe(false);
  });

  it('explorer_query refuses bad arguments and other organizations with clear tool errors', async () => {
    expect(errorText(await call(agent, 'explorer_query', { entity: 'invoices' }))).toMatch(/entity/);
    expect(errorText(await call(agent, 'explorer_query', { entity: 'documents', limit: 100000 }))).toMatch(
      /limit must be an integer from 1 to 500/,
    );
    expect(errorText(await call(agent, 'explorer_query', { entity: 'documents', organizationId: f.orgB.id }))).toMatch(
      /outside your access/,
    );
    expect(
      errorText(
        await call(agent, 'explorer_query', {
          entity: 'documents',
          where: { field: 'organizationId', op: 'eq', value: f.orgB.id },
        }),
      ),
    ).toMatch(/organization .* is outside your access/);
    expect(
      errorText(
        await call(agent, 'explorer_query', {
          entity: 'documents',
          where: { field: 'projectId', op: 'in', value: [f.projectA1.id, f.projectB1.id] },
        }),
      ),
    ).toMatch(/project .* is outside your access/);
  });

  it('emails_search finds by text, status and recipient, newest first, never other organizations', async () => {
    const all = structured(await call(agent, 'emails_search', {}));
    expect(all.data).toHaveLength(5);
    // Unsent records come after every sent one.
    expect(all.data.at(-1)).toMatchObject({
      deliveryStatus: 'failed',
      sentAt: null,
      notSentReason: 'Recipient unsubscribed',
    });
    expect(all.data.every((e: { projectId: string }) => e.projectId === f.projectA1.id)).toBe(true);
    const bounced = structured(await call(agent, 'emails_search', { status: ['bounced'] }));
    expect(bounced.data.map((e: { recipientEmail: string }) => e.recipientEmail)).toEqual(['bounced@consult.test']);
    expect(bounced.data[0]).toMatchObject({
      mailerMessageId: 'msg-a1-001',
      deliveryStatus: 'bounced',
      bounceType: 'Permanent',
    });
    const opened = structured(await call(agent, 'emails_search', { text: 'beam pocket', recipient: 'olive' }));
    expect(opened.data.map((e: { deliveryStatus: string }) => e.deliveryStatus)).toEqual(['opened']);
    const paged = structured(await call(agent, 'emails_search', { limit: 3 }));
    expect(paged.hasMore).toBe(true);
    const rest = structured(await call(agent, 'emails_search', { limit: 3, cursor: paged.nextCursor }));
    expect([...paged.data, ...rest.data].map((e: { recipientEmail: string }) => e.recipientEmail)).toEqual(
      all.data.map((e: { recipientEmail: string }) => e.recipientEmail),
    );
    const last = structured(await call(agent, 'emails_search', { limit: 4 }));
    const afterLast = structured(await call(agent, 'emails_search', { limit: 4, cursor: last.nextCursor }));
    expect(afterLast.data.map((e: { deliveryStatus: string }) => e.deliveryStatus)).toEqual(['failed']);
    expect(afterLast.hasMore).toBe(false);
    expect(structured(await call(agent, 'emails_search', { text: 'hospital' })).data).toEqual([]);
    expect(structured(await call(agent, 'emails_search', { from: '2025-05-11' })).data).toEqual([]);
    expect(structured(await call(agent, 'emails_search', { to: '2025-05-10' })).data).toHaveLength(4);
  });

  it('emails_search refuses bad arguments and out-of-scope projects and documents', async () => {
    expect(errorText(await call(agent, 'emails_search', { status: ['lost'] }))).toMatch(/status/);
    expect(errorText(await call(agent, 'emails_search', { from: 'yesterday' }))).toMatch(/from/);
    // Another organization's project reads like an unknown one.
    expect(errorText(await call(agent, 'emails_search', { projectId: f.projectB1.id }))).toBe('Project not found');
    expect(errorText(await call(agent, 'emails_search', { documentId: 'doc_b1_rfi1' }))).toBe('Document not found');
    expect(errorText(await call(agent, 'emails_search', { cursor: 'garbage' }))).toMatch(/Invalid cursor/);
  });

  it('emails_timeline tells sent → delivered → opened / bounced per recipient in order', async () => {
    const timeline = structured(await call(agent, 'emails_timeline', { mailerMessageId: 'msg-a1-001' }));
    const events = timeline.events.map(
      (e: { event: string; recipientEmail: string }) => `${e.event}:${e.recipientEmail}`,
    );
    expect(events.slice(0, 4).every((e: string) => e.startsWith('sent:'))).toBe(true);
    expect(events.slice(4)).toEqual([
      'delivered:opened@consult.test',
      'delivered:delivered@consult.test',
      'bounced:bounced@consult.test',
      'opened:opened@consult.test',
    ]);
    const byDocument = structured(await call(agent, 'emails_timeline', { documentId: 'doc_a1_rfi1' }));
    expect(byDocument.events).toHaveLength(8);
    const byProject = structured(await call(agent, 'emails_timeline', { projectId: f.projectA1.id, limit: 2 }));
    expect(byProject.hasMore).toBe(true);
  });

  it('emails_timeline refuses ambiguous, unknown and out-of-scope subjects', async () => {
    expect(errorText(await call(agent, 'emails_timeline', {}))).toMatch(/exactly one/);
    expect(
      errorText(await call(agent, 'emails_timeline', { documentId: 'doc_a1_rfi1', projectId: f.projectA1.id })),
    ).toMatch(/exactly one/);
    expect(errorText(await call(agent, 'emails_timeline', { mailerMessageId: 'msg-b1-001' }))).toBe('E-mail not found');
    expect(errorText(await call(agent, 'emails_timeline', { projectId: f.projectB1.id }))).toBe('Project not found');
  });
});

describe('document and submittal tools (the REST list code)', () => {
  it("documents_list filters, searches and pages a project's documents", async () => {
    const rfis = structured(await call(agent, 'documents_list', { projectId: f.projectA1.id, format: ['rfi'] }));
    expect(rfis.data.map((d: { id: string }) => d.id)).toEqual(['RFI-002', 'RFI-001']);
    expect(rfis.total).toBe(2);
    const found = structured(await call(agent, 'documents_list', { projectId: f.projectA1.id, search: 'glazing' }));
    expect(found.data.map((d: { id: string }) => d.id)).toEqual(['SUB-001']);
    const first = structured(await call(agent, 'documents_list', { projectId: f.projectA1.id, limit: 2 }));
    expect(first.hasMore).toBe(true);
    const rest = structured(
      await call(agent, 'documents_list', { projectId: f.projectA1.id, limit: 2, cursor: first.nextCursor }),
    );
    expect(rest.data.map((d: { id: string }) => d.id)).toEqual(['RFI-001']);
  });

  it("documents_list refuses bad arguments and projects outside the caller's access", async () => {
    expect(errorText(await call(agent, 'documents_list', {}))).toMatch(/projectId/);
    expect(errorText(await call(agent, 'documents_list', { projectId: f.projectA1.id, format: ['memo'] }))).toMatch(
      /format/,
    );
    expect(errorText(await call(agent, 'documents_list', { projectId: f.projectB1.id }))).toBe('Project not found');
    expect(errorText(await call(agent, 'documents_list', { projectId: 'prj_unknown' }))).toBe('Project not found');
  });

  it('submittals_list reads full submittals with filters', async () => {
    const open = structured(await call(agent, 'submittals_list', { projectId: f.projectA1.id, open: true }));
    expect(open.data).toHaveLength(1);
    expect(open.data[0]).toMatchObject({ id: 'SUB-001', status: 'submitted', projectName: 'Pier 9 Terminal' });
    const closed = structured(await call(agent, 'submittals_list', { projectId: f.projectA1.id, status: ['closed'] }));
    expect(closed.data).toEqual([]);
    expect(errorText(await call(agent, 'submittals_list', { projectId: f.projectA1.id, limit: 26 }))).toMatch(/limit/);
    expect(errorText(await call(agent, 'submittals_list', { projectId: f.projectB1.id }))).toBe('Project not found');
  });
});

describe('token lifetime and refresh', () => {
  it('refreshes automatically after the access token expires, rotating the refresh token', async () => {
    const before = { ...oauth.saved! };
    server.clock.advance(25 * 3600 * 1000);
    const result = structured(await call(agent, 'projects_find', {}));
    expect(result.data).toHaveLength(2);
    expect(oauth.saved!.access_token).not.toBe(before.access_token);
    expect(oauth.saved!.refresh_token).not.toBe(before.refresh_token);

    // The spent refresh token presented again: refused, and the whole family is revoked.
    const token = (refresh: string) =>
      viaServer(server)(`${server.config.publicUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refresh,
          client_id: oauth.information!.client_id,
          client_secret: (oauth.information as { client_secret: string }).client_secret,
        }).toString(),
      });
    const reuse = await token(before.refresh_token!);
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
    const current = await token(oauth.saved!.refresh_token!);
    expect(current.status).toBe(400);
    expect(((await current.json()) as { error_description: string }).error_description).toMatch(/revoked/);
  });
});

describe('client keys on /mcp', () => {
  it("accepts a key token holding mcp:access and applies the key's permissions and scope", async () => {
    const key = await f.client(['mcp:access', 'email:read', 'project:read'], {
      projects: [{ orgId: f.orgA.id, projectId: f.projectA2.id }],
    });
    const exchange = await server.call('/v1/oauth/token', {
      method: 'POST',
      json: { client_id: key.clientId, client_secret: key.secret },
    });
    expect(exchange.status).toBe(200);
    const client = await connectWithToken(exchange.body.access_token);
    const projects = structured(await call(client, 'projects_find', {}));
    expect(projects.data.map((p: { id: string }) => p.id)).toEqual([f.projectA2.id]);
    expect(structured(await call(client, 'emails_search', {})).data).toEqual([]);
    expect(errorText(await call(client, 'explorer_query', { entity: 'documents' }))).toMatch(
      /needs the explorer:query permission/,
    );
    await client.close();
  });

  it('refuses a key token without mcp:access with 403', async () => {
    const key = await f.client(['email:read'], { orgs: [f.orgA.id] });
    const res = await server.call('/mcp', {
      method: 'POST',
      token: key.token,
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.status).toBe(403);
    await expect(connectWithToken(key.token)).rejects.toThrow(/Insufficient permissions/);
  });

  it('refuses a bad token with 401 and the resource metadata pointer', async () => {
    const res = await server.call('/mcp', { method: 'POST', token: 'not-a-token', json: {} });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token".*resource_metadata=/);
  });
});
