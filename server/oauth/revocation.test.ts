import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { describe, expect, it } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import { commandLineActor } from '../audit/service.js';
import { createUser, removeMember, setUserDisabled } from '../users/service.js';
import { AgentOAuth } from './agent.fixtures.js';
import { addinSignIn, oauthForm, signInAndConsent, viaServer } from './browser.fixtures.js';
import { ADDIN_CLIENT_ID } from './first-party.js';

const mcpUrl = () => `${server.config.publicUrl}/mcp`;
const member = { email: 'member@harbor.test', password: 'member-pass-1' };
const newAgent = () => new AgentOAuth('Revocation Agent', 'agent-state');

/** Registration (first time), PKCE, sign-in and consent, code exchange: all through the SDK's auth(). */
async function signIn(agent: AgentOAuth, credentials = member): Promise<{ tokens: OAuthTokens; code: string }> {
  agent.saved = undefined;
  const options = { serverUrl: mcpUrl(), fetchFn: viaServer(server) };
  expect(await auth(agent, options)).toBe('REDIRECT');
  const redirect = await signInAndConsent(server, agent.authorizationUrl!, credentials);
  expect(redirect.get('state')).toBe('agent-state');
  const code = redirect.get('code')!;
  expect(await auth(agent, { ...options, authorizationCode: code })).toBe('AUTHORIZED');
  return { tokens: agent.saved!, code };
}

/** The SDK's auth() with a saved refresh token refreshes. */
async function refresh(agent: AgentOAuth): Promise<OAuthTokens> {
  expect(await auth(agent, { serverUrl: mcpUrl(), fetchFn: viaServer(server) })).toBe('AUTHORIZED');
  return agent.saved!;
}

const mcpStatus = async (token: string) => {
  const res = await server.request('/mcp', {
    method: 'POST',
    token,
    headers: { accept: 'application/json, text/event-stream' },
    json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
  await res.arrayBuffer();
  return res.status;
};

const credentialsOf = (agent: AgentOAuth) => ({
  client_id: agent.information!.client_id,
  client_secret: (agent.information as { client_secret: string }).client_secret,
});

const revoke = (agent: AgentOAuth, token: string, hint?: string) =>
  oauthForm(server, '/oauth/revoke', {
    token,
    ...(hint ? { token_type_hint: hint } : {}),
    ...credentialsOf(agent),
  });

describe('revoking a sign-in refuses its access tokens on the next request (SDK client flow)', () => {
  it('revoking the refresh token: every access token of the sign-in is refused on /mcp', async () => {
    const agent = newAgent();
    const { tokens: first } = await signIn(agent);
    expect(await mcpStatus(first.access_token)).toBe(200);
    const second = await refresh(agent);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await mcpStatus(second.access_token)).toBe(200);

    expect((await revoke(agent, second.refresh_token!)).status).toBe(200);
    expect(await mcpStatus(first.access_token)).toBe(401);
    expect(await mcpStatus(second.access_token)).toBe(401);
    const refused = await server.request('/mcp', { method: 'POST', token: second.access_token, json: {} });
    expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    // Another sign-in of the same person and client is untouched.
    const { tokens: other } = await signIn(agent);
    expect(await mcpStatus(other.access_token)).toBe(200);
  });

  it('refresh-token reuse ends the sign-in: its access tokens are refused', async () => {
    const agent = newAgent();
    const { tokens: first } = await signIn(agent);
    const second = await refresh(agent);
    const reuse = await oauthForm(server, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      ...credentialsOf(agent),
    });
    expect(reuse.body.error).toBe('invalid_grant');
    expect(await mcpStatus(first.access_token)).toBe(401);
    expect(await mcpStatus(second.access_token)).toBe(401);
  });

  it('an authorization code presented twice ends the sign-in it started', async () => {
    const agent = newAgent();
    const { tokens, code } = await signIn(agent);
    expect(await mcpStatus(tokens.access_token)).toBe(200);
    const again = await oauthForm(server, '/oauth/token', {
      grant_type: 'authorization_code',
      code,
      code_verifier: agent.verifier,
      redirect_uri: agent.redirectUrl,
      ...credentialsOf(agent),
    });
    expect(again.body.error).toBe('invalid_grant');
    expect(await mcpStatus(tokens.access_token)).toBe(401);
    expect((await refresh(agent).catch((err: Error) => err)) instanceof Error).toBe(true);
  });

  it('revoking an access token (token_type_hint=access_token, or none) ends its sign-in', async () => {
    for (const hint of ['access_token', undefined]) {
      const agent = newAgent();
      const { tokens } = await signIn(agent);
      expect((await revoke(agent, tokens.access_token, hint)).status).toBe(200);
      expect(await mcpStatus(tokens.access_token)).toBe(401);
      const refreshed = await oauthForm(server, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        ...credentialsOf(agent),
      });
      expect(refreshed.body.error).toBe('invalid_grant');
    }
  });

  it('another client cannot revoke a sign-in that is not its own', async () => {
    const owner = newAgent();
    const { tokens } = await signIn(owner);
    const intruder = newAgent();
    await signIn(intruder);
    expect((await revoke(intruder, tokens.access_token, 'access_token')).status).toBe(200);
    expect((await revoke(intruder, tokens.refresh_token!)).status).toBe(200);
    expect(await mcpStatus(tokens.access_token)).toBe(200);
  });
});

describe('the add-in on /v1, disabled people and removed memberships', () => {
  it("revoking the add-in's refresh token refuses its /v1 access token", async () => {
    const tokens = await addinSignIn(server, member);
    expect((await server.call('/v1/me', { token: tokens.access_token })).status).toBe(200);
    const revoked = await oauthForm(server, '/oauth/revoke', {
      token: tokens.refresh_token!,
      client_id: ADDIN_CLIENT_ID,
    });
    expect(revoked.status).toBe(200);
    const me = await server.call('/v1/me', { token: tokens.access_token });
    expect(me.status).toBe(401);
    expect(me.body.error).toBe('This sign-in has been revoked');
  });

  it('a disabled person: /v1 and /mcp tokens refused at once, refresh and new sign-ins refused', async () => {
    const person = { email: 'leaver@harbor.test', password: 'leaver-pass-1' };
    const created = await createUser(server.database.db, {
      ...person,
      name: 'Lee Leaver',
      memberships: [{ orgId: f.orgA.id, role: 'member' }],
    });
    const v1 = await addinSignIn(server, person);
    const agent = newAgent();
    const { tokens: mcp } = await signIn(agent, person);
    expect((await server.call('/v1/me', { token: v1.access_token })).status).toBe(200);
    expect(await mcpStatus(mcp.access_token)).toBe(200);

    await setUserDisabled(server.app.context, created.id, true, commandLineActor());
    expect((await server.call('/v1/me', { token: v1.access_token })).status).toBe(401);
    expect(await mcpStatus(mcp.access_token)).toBe(401);
    const refreshed = await oauthForm(server, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: mcp.refresh_token!,
      ...credentialsOf(agent),
    });
    expect(refreshed.body.error).toBe('invalid_grant');
    await expect(signIn(newAgent(), person)).rejects.toThrow(/sign-in: 401/);
  });

  it('a removed membership: the organization is out of reach from the next request', async () => {
    const person = { email: 'mover@harbor.test', password: 'mover-pass-1' };
    const created = await createUser(server.database.db, {
      ...person,
      name: 'Mo Mover',
      memberships: [
        { orgId: f.orgA.id, role: 'member' },
        { orgId: f.orgB.id, role: 'member' },
      ],
    });
    const v1 = await addinSignIn(server, person);
    expect((await server.call(`/v1/organization/${f.orgA.id}`, { token: v1.access_token })).status).toBe(200);
    await removeMember(server.app.context, f.orgA.id, created.id, commandLineActor());
    expect((await server.call(`/v1/organization/${f.orgA.id}`, { token: v1.access_token })).status).toBe(403);
    expect((await server.call(`/v1/organization/${f.orgB.id}`, { token: v1.access_token })).status).toBe(200);
  });

  it('an API key disabled through the admin API: its token is refused on /v1 and /mcp', async () => {
    const key = await f.client(['client:read', 'mcp:access'], { orgs: [f.orgA.id] });
    const exchanged = await server.call('/v1/oauth/token', {
      method: 'POST',
      json: { client_id: key.clientId, client_secret: key.secret },
    });
    const token = exchanged.body.access_token as string;
    expect((await server.call('/v1/client/me', { token })).status).toBe(200);
    expect(await mcpStatus(token)).toBe(200);
    const disabled = await server.call(`/v1/admin/clients/${key.id}`, {
      method: 'PATCH',
      token: f.staff.token,
      json: { enabled: false },
    });
    expect(disabled.status).toBe(200);
    expect((await server.call('/v1/client/me', { token })).status).toBe(401);
    expect(await mcpStatus(token)).toBe(401);
  });
});
