import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentOAuth } from '../oauth/agent.fixtures.js';
import { signInAndConsent, viaServer } from '../oauth/browser.fixtures.js';
import { call, connectAgent, connectWithToken, errorText, f, mcpUrl, server, structured } from './mcp.fixtures.js';

// How an agent signs in to /mcp (OAuth with the SDK client, or a key's token) and how long that lasts.

let oauth: AgentOAuth;
let agent: Client;

beforeAll(async () => {
  oauth = new AgentOAuth('Test Agent', 'agent-state-1');
});
afterAll(async () => {
  await agent?.close();
});

describe('MCP sign-in with the SDK client', () => {
  it('answers 401 with resource metadata, then registers, signs in with PKCE and connects', async () => {
    const bare = await server.call('/mcp', { method: 'POST', json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toContain(
      'resource_metadata="http://sitefile.test/.well-known/oauth-protected-resource/mcp"',
    );

    const first = new Client({ name: 'test-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(mcpUrl(server), {
      authProvider: oauth,
      fetch: viaServer(server),
    });
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

    agent = await connectAgent(server, oauth);
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'activity_feed',
      'directory_search',
      'document_read',
      'documents_list',
      'emails_search',
      'emails_timeline',
      'explorer_query',
      'filed_email_read',
      'filed_emails_search',
      'organizations_list',
      'projects_find',
      'report_read',
      'reports_list',
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

describe('token lifetime and refresh', () => {
  it('refreshes automatically after the access token expires, rotating the refresh token', async () => {
    const before = { ...oauth.saved! };
    server.clock.advance(25 * 3600 * 1000);
    const result = structured(await call(agent, 'projects_find', { organizationId: f.orgA.id }));
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
    const client = await connectWithToken(server, exchange.body.access_token);
    const projects = structured(await call(client, 'projects_find', { organizationId: f.orgA.id }));
    expect(projects.data.map((p: { id: string }) => p.id)).toEqual([f.projectA2.id]);
    expect(structured(await call(client, 'emails_search', { organizationId: f.orgA.id })).data).toEqual([]);
    expect(errorText(await call(client, 'explorer_query', { organizationId: f.orgA.id, entity: 'documents' }))).toBe(
      'Insufficient permissions',
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
    await expect(connectWithToken(server, key.token)).rejects.toThrow(/Insufficient permissions/);
  });

  it('refuses a bad token with 401 and the resource metadata pointer', async () => {
    const res = await server.call('/mcp', { method: 'POST', token: 'not-a-token', json: {} });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token".*resource_metadata=/);
  });
});
