import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { configureFixtureServer, ctx, f, server } from '../../test/fixture-server.js';
import { createBrowser, oauthForm, pkce } from '../oauth/browser.fixtures.js';
import { ADDIN_CLIENT_ID } from '../oauth/first-party.js';
import { createUser } from '../users/service.js';
import { type IdentityProvider, ssoSignIn, startIdentityProvider } from './identity-provider.fixtures.js';

// Single sign-on through a real OpenID provider (oidc-provider) on a real port: the add-in's sign-in (our first-party
// client) signs people in through it; every ID token the provider's answer carries is checked.
configureFixtureServer({ env: { SSO_ALLOW_HTTP_ISSUERS: '1' } });

let idp: IdentityProvider;
const orgPath = () => `/v1/organization/${f.orgA.id}`;
const redirectUri = () => `${server.config.publicUrl}/addin/auth-callback.html`;

const saveSso = (json: Record<string, unknown>) =>
  server.call(`${orgPath()}/sso`, { method: 'PUT', token: f.admin.token, json });

const connect = (requireSso = false) =>
  saveSso({
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    domains: ['harbor.test'],
    requireSso,
  });

/** The add-in's sign-in through the provider as `accountId`; with the code exchanged when it completes. */
async function addinSso(email: string, accountId: string) {
  const { verifier, challenge } = pkce();
  const url = new URL(`${server.config.publicUrl}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    code_challenge_method: 'S256',
    client_id: ADDIN_CLIENT_ID,
    redirect_uri: redirectUri(),
    code_challenge: challenge,
  })) {
    url.searchParams.set(k, v);
  }
  const outcome = await ssoSignIn(server, url, email, accountId);
  const code = outcome.params?.get('code');
  const tokens = code
    ? await oauthForm(server, '/oauth/token', {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri(),
        client_id: ADDIN_CLIENT_ID,
      })
    : undefined;
  return { ...outcome, tokens };
}

const refusal = (html: string) => /<p class="error" role="alert" id="sso-error">([^<]*)<\/p>/.exec(html)?.[1];

beforeAll(async () => {
  idp = await startIdentityProvider(server);
  idp.accounts.set('newbie', { email: 'newbie@harbor.test', email_verified: true, name: 'Nina Newbie' });
  idp.accounts.set('member', { email: 'member@harbor.test', email_verified: true, name: 'Mia Member' });
  idp.accounts.set('unverified', { email: 'unverified@harbor.test', email_verified: false, name: 'Una Verified' });
  idp.accounts.set('outsider', { email: 'someone@elsewhere.test', email_verified: true, name: 'Otto Outsider' });
  const res = await connect();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});
afterAll(async () => {
  await idp?.close();
});
beforeEach(() => {
  idp.tamper = undefined;
});

describe('connecting an identity provider', () => {
  it('answers the connection to admins, never the client secret, and records it in the audit log', async () => {
    const res = await server.call(`${orgPath()}/sso`, { token: f.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      issuer: idp.issuer,
      clientId: idp.clientId,
      domains: ['harbor.test'],
      requireSso: false,
      redirectUri: 'http://sitefile.test/oauth/sso/callback',
    });
    expect(JSON.stringify(res.body)).not.toContain(idp.clientSecret);
    const audit = await server.call(`${orgPath()}/audit-events?action=sso.configured`, { token: f.admin.token });
    expect(audit.body.data).toHaveLength(1);
    expect(JSON.stringify(audit.body.data)).not.toContain(idp.clientSecret);
    expect((await server.call(`${orgPath()}/sso`, { token: f.member.token })).status).toBe(403);
  });

  it('refuses a first connection without a secret, a non-domain, and a domain another organization verified', async () => {
    const other = `/v1/organization/${f.orgB.id}/sso`;
    const staff = f.staff.token;
    const base = { issuer: idp.issuer, clientId: 'x', clientSecret: 'y', requireSso: false };
    const noSecret = await server.call(other, {
      method: 'PUT',
      token: staff,
      json: { ...base, clientSecret: undefined, domains: ['ridgeline.test'] },
    });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.error).toContain('clientSecret is required');
    const notDomain = await server.call(other, {
      method: 'PUT',
      token: staff,
      json: { ...base, domains: ['not a domain'] },
    });
    expect(notDomain.status).toBe(400);
    const taken = await server.call(other, {
      method: 'PUT',
      token: staff,
      json: { ...base, domains: ['harbor.test'] },
    });
    expect(taken.status).toBe(409);
    const unknownOrg = await server.call('/v1/organization/org_nonexistent/sso', {
      method: 'PUT',
      token: staff,
      json: { ...base, domains: ['nowhere.test'] },
    });
    expect(unknownOrg.status).toBe(404);
    expect(taken.body.error).toBe('The domain harbor.test is verified by another organization');
  });
});

describe('signing in through the identity provider', () => {
  it('creates a person at their first sign-in, as a member of the organization, with working tokens', async () => {
    const signIn = await addinSso('newbie@harbor.test', 'newbie');
    expect(signIn.tokens?.status, signIn.html).toBe(200);
    const me = await server.call('/v1/me', { token: signIn.tokens!.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'newbie@harbor.test', name: 'Nina Newbie' });
    const members = await server.call(`${orgPath()}/members?search=newbie`, { token: f.admin.token });
    expect(members.body.data).toContainEqual(expect.objectContaining({ email: 'newbie@harbor.test', role: 'member' }));
    // The second sign-in finds the same person.
    expect((await addinSso('newbie@harbor.test', 'newbie')).tokens?.status).toBe(200);
    const again = await server.call(`${orgPath()}/members?search=newbie`, { token: f.admin.token });
    expect(again.body.data.filter((m: { email: string }) => m.email === 'newbie@harbor.test')).toHaveLength(1);
  });

  it('signs an existing member in, and records the sign-in in the audit log', async () => {
    const signIn = await addinSso('member@harbor.test', 'member');
    expect(signIn.tokens?.status, signIn.html).toBe(200);
    const audit = await server.call(`${orgPath()}/audit-events?action=signin.succeeded&actorId=${f.member.id}`, {
      token: f.admin.token,
    });
    expect(audit.body.data.length).toBeGreaterThan(0);
  });

  it('follows the provider rotating its signing key', async () => {
    expect((await addinSso('member@harbor.test', 'member')).tokens?.status).toBe(200);
    const before = idp.kid();
    await idp.rotateKey();
    expect(idp.kid()).not.toBe(before);
    const signIn = await addinSso('member@harbor.test', 'member');
    expect(signIn.tokens?.status, signIn.html).toBe(200);
  });

  it('offers single sign-on only for a domain an organization verified', async () => {
    const browser = createBrowser(server);
    const page = await browser.get(
      `${server.config.publicUrl}/oauth/authorize?response_type=code&code_challenge_method=S256&client_id=${ADDIN_CLIENT_ID}&redirect_uri=${encodeURIComponent(redirectUri())}&code_challenge=${pkce().challenge}`,
    );
    expect(page.html).toContain('Sign in with your organization');
    const res = await browser.post(page, { step: 'sso', email: 'someone@nowhere.test' });
    expect(res.status).toBe(400);
    expect(res.html).toContain('No organization signs in people of this e-mail domain through single sign-on.');
  });
});

describe('refused ID tokens and people', () => {
  const cases: [string, IdentityProvider['tamper'], RegExp][] = [
    ['a wrong issuer', (c) => ({ claims: { ...c, iss: 'https://evil.example' } }), /iss/],
    ['a wrong audience', (c) => ({ claims: { ...c, aud: 'someone-else' } }), /aud/],
    ['a wrong nonce', (c) => ({ claims: { ...c, nonce: 'not-the-nonce' } }), /nonce/],
    ['an expired token', (c) => ({ claims: { ...c, iat: c.iat! - 7200, exp: c.iat! - 3600 } }), /exp/],
    ['a token re-signed with another key', (c) => ({ claims: c, key: 'rogue' }), /signature/],
  ];
  for (const [name, tamper, reason] of cases) {
    it(`refuses ${name}`, async () => {
      idp.tamper = tamper;
      const signIn = await addinSso('member@harbor.test', 'member');
      expect(signIn.status).toBe(401);
      expect(signIn.params).toBeUndefined();
      expect(refusal(signIn.html)).toMatch(/^Your identity provider’s answer was refused: /);
      expect(refusal(signIn.html)).toMatch(reason);
    });
  }

  it('refuses an e-mail the provider did not verify', async () => {
    const signIn = await addinSso('unverified@harbor.test', 'unverified');
    expect(signIn.status).toBe(401);
    expect(refusal(signIn.html)).toBe('Your identity provider did not confirm your e-mail address.');
    // The test clock stands still: the events share one time, so the one sought is found among them.
    const audit = await server.call(`${orgPath()}/audit-events?action=signin.failed&limit=50`, {
      token: f.admin.token,
    });
    expect(audit.body.data).toContainEqual(
      expect.objectContaining({
        changes: { reason: { before: null, after: 'Your identity provider did not confirm your e-mail address.' } },
      }),
    );
  });

  it("accepts Entra ID's xms_edov (e-mail domain owner verified) in place of email_verified", async () => {
    idp.accounts.set('entra', { email: 'entra@harbor.test', xms_edov: true, name: 'Ezra Entra' });
    idp.accounts.set('entra-unverified', { email: 'entra2@harbor.test', xms_edov: false, name: 'Ezra Unverified' });
    expect((await addinSso('entra@harbor.test', 'entra')).tokens?.status).toBe(200);
    const refused = await addinSso('entra2@harbor.test', 'entra-unverified');
    expect(refusal(refused.html)).toBe('Your identity provider did not confirm your e-mail address.');
  });

  it('refuses an e-mail of a domain the organization has not verified', async () => {
    const signIn = await addinSso('member@harbor.test', 'outsider');
    expect(signIn.status).toBe(401);
    expect(refusal(signIn.html)).toBe('The e-mail domain elsewhere.test is not one your organization has verified.');
  });

  it('refuses a disabled person and a person removed from the organization', async () => {
    const disabled = await createUser(server.database.db, {
      email: 'disabled@harbor.test',
      name: 'Dee Disabled',
      memberships: [{ orgId: f.orgA.id, role: 'member' }],
    });
    await server.call(`/v1/admin/users/${disabled.id}`, {
      method: 'PATCH',
      token: f.staff.token,
      json: { disabled: true },
    });
    const removed = await createUser(server.database.db, {
      email: 'removed@harbor.test',
      name: 'Rae Removed',
      memberships: [{ orgId: f.orgA.id, role: 'member' }],
    });
    const gone = await server.call(`${orgPath()}/members/${removed.id}`, { method: 'DELETE', token: f.admin.token });
    expect(gone.status).toBe(204);
    for (const [id, email] of [
      ['disabled', 'disabled@harbor.test'],
      ['removed', 'removed@harbor.test'],
    ] as const) {
      idp.accounts.set(id, { email, email_verified: true, name: id });
      const signIn = await addinSso(email, id);
      expect(signIn.status).toBe(401);
      expect(refusal(signIn.html)).toBe(
        'Your account is disabled or not a member of this organization. Ask your organization admin.',
      );
    }
  });

  it('completes a sign-in once: the callback replayed is refused', async () => {
    // The provider's redirect to our callback, replayed in another browser (no state cookie), is refused.
    const res = await fetch(`${server.url}/oauth/sso/callback?code=abc&state=def`, { redirect: 'manual' });
    expect(res.status).toBe(401);
    expect(refusal(await res.text())).toBe('This sign-in was not started in this browser. Please sign in again.');
  });
});

describe('requiring single sign-on', () => {
  afterAll(async () => {
    expect((await connect(false)).status).toBe(200);
  });

  it("refuses the organization's members' passwords with a message pointing to single sign-on; others keep theirs", async () => {
    expect(
      (await saveSso({ issuer: idp.issuer, clientId: idp.clientId, domains: ['harbor.test'], requireSso: true }))
        .status,
    ).toBe(200);
    const browser = createBrowser(server);
    const page = await browser.get(
      `${server.config.publicUrl}/oauth/authorize?response_type=code&code_challenge_method=S256&client_id=${ADDIN_CLIENT_ID}&redirect_uri=${encodeURIComponent(redirectUri())}&code_challenge=${pkce().challenge}`,
    );
    const refused = await browser.post(page, { email: 'member@harbor.test', password: 'member-pass-1' });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain(
      'Your organization signs you in through its identity provider: use “Sign in with your organization” below.',
    );
    // The stored client secret was kept (none given): single sign-on still works.
    expect((await addinSso('member@harbor.test', 'member')).tokens?.status).toBe(200);
    const staffPage = await browser.get(
      `${server.config.publicUrl}/oauth/authorize?response_type=code&code_challenge_method=S256&client_id=${ADDIN_CLIENT_ID}&redirect_uri=${encodeURIComponent(redirectUri())}&code_challenge=${pkce().challenge}`,
    );
    const staff = await browser.post(staffPage, { email: 'staff@sitefile.test', password: 'staff-pass-1' });
    expect(staff.status).toBe(302);
    // A person of the domain who is not the organization's member (another organization's) keeps their password.
    await createUser(server.database.db, {
      email: 'contractor@harbor.test',
      name: 'Cody Contractor',
      password: 'contractor-pass-1',
      memberships: [{ orgId: f.orgB.id, role: 'member' }],
    });
    const contractorPage = await browser.get(
      `${server.config.publicUrl}/oauth/authorize?response_type=code&code_challenge_method=S256&client_id=${ADDIN_CLIENT_ID}&redirect_uri=${encodeURIComponent(redirectUri())}&code_challenge=${pkce().challenge}`,
    );
    const contractor = await browser.post(contractorPage, {
      email: 'contractor@harbor.test',
      password: 'contractor-pass-1',
    });
    expect(contractor.status).toBe(302);
  });
});

describe('who may see and change the connection', () => {
  const connection = {
    issuer: 'https://login.example.test',
    clientId: 'c',
    clientSecret: 's',
    domains: ['ridge.test'],
  };
  describeAuthMatrix('SSO connection', ctx, { method: 'GET', path: '/v1/organization/{orgId}/sso' });
  describeAuthMatrix('connect SSO', ctx, { method: 'PUT', path: '/v1/organization/{orgId}/sso', json: connection });
  describeAuthMatrix('disconnect SSO', ctx, {
    method: 'DELETE',
    path: '/v1/organization/{orgId}/sso',
    vars: async () => {
      await server.call(`${orgPath()}/sso`, { method: 'PUT', token: f.admin.token, json: connection });
      return {};
    },
    expectOk: (res) => expect(res.status).toBe(204),
  });
});
