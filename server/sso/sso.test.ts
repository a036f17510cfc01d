import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { configureFixtureServer, ctx, f, server } from '../../test/fixture-server.js';
import { createBrowser, oauthForm, pkce } from '../oauth/browser.fixtures.js';
import { ADDIN_CLIENT_ID } from '../oauth/first-party.js';
import { createUser } from '../users/service.js';
import { type DnsServer, startDnsServer } from './dns-server.fixtures.js';
import { type IdentityProvider, ssoSignIn, startIdentityProvider } from './identity-provider.fixtures.js';

// Single sign-on through a real OpenID provider (oidc-provider) on a real port: the add-in's sign-in (our first-party
// client) signs people in through it; every ID token the provider's answer carries is checked. Domains are proven
// by TXT records on a real DNS server of the test's own (SSO_DNS_SERVERS).
let dns: DnsServer;
configureFixtureServer(async () => {
  dns = await startDnsServer();
  return { env: { SSO_ALLOW_HTTP_ISSUERS: '1', SSO_DNS_SERVERS: dns.address } };
});

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

/** The organization's domain as GET answers it: its state and the TXT record that proves it. */
async function domainState(orgId: string, domain: string) {
  const res = await server.call(`/v1/organization/${orgId}/sso`, { token: f.staff.token });
  return res.body.data.domainStatus.find((d: { domain: string }) => d.domain === domain);
}

/** Publishes the organization's TXT record for `domain` on the test's DNS server (alongside any already there). */
async function publishChallenge(orgId: string, domain: string) {
  const { txtName, txtValue } = await domainState(orgId, domain);
  dns.txt.set(txtName, [...(dns.txt.get(txtName) ?? []), txtValue]);
}

const verify = (orgId: string, domain: string, token = f.admin.token) =>
  server.call(`/v1/organization/${orgId}/sso/domains/${domain}/verify`, { method: 'POST', token });

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
  await dns?.close();
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
      domainStatus: [
        {
          domain: 'harbor.test',
          status: 'pending',
          verifiedAt: null,
          verifiedBy: null,
          txtName: '_sitefile-challenge.harbor.test',
          txtValue: expect.stringMatching(/^sitefile-verification=[0-9a-f]{32}$/),
        },
      ],
      requireSso: false,
      redirectUri: 'http://sitefile.test/oauth/sso/callback',
    });
    expect(JSON.stringify(res.body)).not.toContain(idp.clientSecret);
    const audit = await server.call(`${orgPath()}/audit-events?action=sso.configured`, { token: f.admin.token });
    expect(audit.body.data).toHaveLength(1);
    expect(JSON.stringify(audit.body.data)).not.toContain(idp.clientSecret);
    expect((await server.call(`${orgPath()}/sso`, { token: f.member.token })).status).toBe(403);
  });

  it('refuses a first connection without a secret, a non-domain, and an unknown organization', async () => {
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
    const unknownOrg = await server.call('/v1/organization/org_nonexistent/sso', {
      method: 'PUT',
      token: staff,
      json: { ...base, domains: ['nowhere.test'] },
    });
    expect(unknownOrg.status).toBe(404);
  });
});

describe('proving domain ownership', () => {
  it("a pending domain signs no one in and turns off no one's password, though two organizations claim it", async () => {
    // Declaring a domain proves nothing: another organization may declare it too while it is pending.
    const claim = await server.call(`/v1/organization/${f.orgB.id}/sso`, {
      method: 'PUT',
      token: f.staff.token,
      json: { issuer: idp.issuer, clientId: 'b', clientSecret: 'b-secret', domains: ['harbor.test'] },
    });
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    const signIn = await addinSso('member@harbor.test', 'member');
    expect(signIn.status).toBe(400);
    expect(signIn.html).toContain(
      'Single sign-on for harbor.test is not ready yet: your organization has not verified the domain. Ask your organization admin.',
    );
    expect((await connect(true)).status).toBe(200);
    const browser = createBrowser(server);
    const page = await browser.get(
      `${server.config.publicUrl}/oauth/authorize?response_type=code&code_challenge_method=S256&client_id=${ADDIN_CLIENT_ID}&redirect_uri=${encodeURIComponent(redirectUri())}&code_challenge=${pkce().challenge}`,
    );
    const password = await browser.post(page, { email: 'member@harbor.test', password: 'member-pass-1' });
    expect(password.status).toBe(302);
    expect((await connect(false)).status).toBe(200);
  });

  it('refuses a missing TXT record, another value, a failing DNS server and a domain not on the connection', async () => {
    const missing = await verify(f.orgA.id, 'harbor.test');
    expect(missing.status).toBe(400);
    const { txtName, txtValue } = await domainState(f.orgA.id, 'harbor.test');
    expect(missing.body.error).toBe(
      `No TXT record "${txtValue}" was found at ${txtName}. Publish it and try again (DNS changes can take a while to be seen).`,
    );
    dns.txt.set(txtName, ['v=spf1 -all', 'sitefile-verification=not-the-token']);
    const wrong = await verify(f.orgA.id, 'harbor.test');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe(
      `The TXT record at ${txtName} is "sitefile-verification=not-the-token", not "${txtValue}".`,
    );
    dns.failing.add(txtName);
    const failing = await verify(f.orgA.id, 'harbor.test');
    expect(failing.status).toBe(503);
    expect(failing.body.error).toBe(`The DNS lookup of ${txtName} failed (ESERVFAIL). Try again later.`);
    dns.failing.delete(txtName);
    dns.txt.delete(txtName);
    expect((await verify(f.orgA.id, 'elsewhere.test')).status).toBe(404);
    expect((await domainState(f.orgA.id, 'harbor.test')).status).toBe('pending');
  });

  it('verifies the domain by its TXT record, records it, and from then on its people sign in', async () => {
    await publishChallenge(f.orgA.id, 'harbor.test');
    const res = await verify(f.orgA.id, 'harbor.test');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ domain: 'harbor.test', status: 'verified', verifiedBy: 'dns' });
    expect(await domainState(f.orgA.id, 'harbor.test')).toMatchObject({ status: 'verified', verifiedBy: 'dns' });
    const audit = await server.call(`${orgPath()}/audit-events?action=sso.domain_verified`, { token: f.admin.token });
    expect(audit.body.data).toEqual([
      expect.objectContaining({
        action: 'sso.domain_verified',
        target: { type: 'sso_domain', id: 'harbor.test' },
        changes: { status: { before: 'pending', after: 'verified' }, verifiedBy: { before: null, after: 'dns' } },
      }),
    ]);
    // Saving the connection again keeps the domain verified.
    expect((await connect()).status).toBe(200);
    expect((await domainState(f.orgA.id, 'harbor.test')).status).toBe('verified');
    expect((await addinSso('member@harbor.test', 'member')).tokens?.status).toBe(200);
  });

  it('lets one organization only hold a domain verified: another can neither verify nor save it (409)', async () => {
    // Organization B even publishes its own record: the domain is taken all the same.
    await publishChallenge(f.orgB.id, 'harbor.test');
    const again = await verify(f.orgB.id, 'harbor.test', f.staff.token);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('The domain harbor.test is verified by another organization');
    const save = await server.call(`/v1/organization/${f.orgB.id}/sso`, {
      method: 'PUT',
      token: f.staff.token,
      json: { issuer: idp.issuer, clientId: 'b', domains: ['harbor.test'] },
    });
    expect(save.status).toBe(409);
    expect(save.body.error).toBe('The domain harbor.test is verified by another organization');
    expect(
      (await server.call(`/v1/organization/${f.orgB.id}/sso`, { method: 'DELETE', token: f.staff.token })).status,
    ).toBe(204);
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

  it("keeps the provider's discovery document and keys between sign-ins, fetching the keys again for a new key", async () => {
    // Saved again, the secret is sealed anew: a provider this instance has not fetched yet.
    expect((await connect()).status).toBe(200);
    const discovery = () => idp.requests('/.well-known/openid-configuration');
    const keys = () => idp.requests('/jwks');
    const before = { discovery: discovery(), keys: keys() };
    expect((await addinSso('member@harbor.test', 'member')).tokens?.status).toBe(200);
    expect((await addinSso('member@harbor.test', 'member')).tokens?.status).toBe(200);
    expect({ discovery: discovery() - before.discovery, keys: keys() - before.keys }).toEqual({
      discovery: 1,
      keys: 1,
    });
    await idp.rotateKey();
    const signIn = await addinSso('member@harbor.test', 'member');
    expect(signIn.tokens?.status, signIn.html).toBe(200);
    expect({ discovery: discovery() - before.discovery, keys: keys() - before.keys }).toEqual({
      discovery: 1,
      keys: 2,
    });
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
  describeAuthMatrix('verify an SSO domain', ctx, {
    method: 'POST',
    path: '/v1/organization/{orgId}/sso/domains/ridge.test/verify',
    vars: async () => {
      await server.call(`${orgPath()}/sso`, { method: 'PUT', token: f.admin.token, json: connection });
      await publishChallenge(f.orgA.id, 'ridge.test');
      return {};
    },
  });
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
