import { describe, expect, it } from 'vitest';
import { createFixtures, startTestServer } from '../../test/harness.js';
import { createBrowser, hiddenFields, pkce, signInAndConsent } from './browser.fixtures.js';
import { agent, agentRedirect, authorizeUrl, server } from './oauth.fixtures.js';
import { ACCOUNT_FAILURES, ADDRESS_FAILURES } from './throttle.js';

// The sign-in and consent pages a person sees, and how repeated failures are slowed down.

/** The registered agent's authorization request (a fresh PKCE challenge), with `extra` parameters. */
const agentAuthorizeUrl = (extra: Record<string, string> = {}) =>
  authorizeUrl({ client_id: agent.client_id, redirect_uri: agentRedirect, code_challenge: pkce().challenge, ...extra });

describe('sign-in page', () => {
  it('is an accessible form with labelled inputs, a CSRF token and anti-framing headers', async () => {
    const page = await createBrowser(server).get(agentAuthorizeUrl());
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toMatch(
      /<label for="email">Email<\/label>\s*<input id="email" name="email" type="email" autocomplete="username"/,
    );
    expect(page.html).toMatch(
      /<label for="password">Password<\/label>\s*<input id="password" name="password" type="password" autocomplete="current-password"/,
    );
    expect(hiddenFields(page.html).csrf).toMatch(/^[\w-]{20,}$/);
    // The client's self-chosen name is shown escaped, as its own claim.
    expect(page.html).toContain(
      'An unverified application calling itself “Agent &lt;b&gt;X&lt;/b&gt;” wants to connect',
    );
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly/i);
  });

  it('gives the same generic error for a wrong password and an unknown e-mail', async () => {
    const url = agentAuthorizeUrl();
    const browser = createBrowser(server);
    const form = await browser.get(url);
    const wrong = await browser.post(form, { email: 'admin@harbor.test', password: 'nope' });
    const unknown = await browser.post(form, { email: 'nobody@harbor.test', password: 'nope' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.html).toContain(
        '<p class="error" role="alert" id="signin-error">The email or password is incorrect.</p>',
      );
      expect(res.html).toContain('aria-invalid="true"');
    }
  });

  it('refuses a post without the CSRF cookie or with a wrong token', async () => {
    const url = agentAuthorizeUrl();
    const browser = createBrowser(server);
    const form = await browser.get(url);
    const forged = await browser.post(
      form,
      { email: 'member@harbor.test', password: 'member-pass-1' },
      'forged-token-value-0000000',
    );
    expect(forged.status).toBe(403);
    expect(forged.html).not.toContain('Allow');
    browser.clearCookie();
    const noCookie = await browser.post(form, { email: 'member@harbor.test', password: 'member-pass-1' });
    expect(noCookie.status).toBe(200);
    expect(noCookie.html).toContain('Sign in to Sitefile'); // a fresh form, not the consent screen
  });

  it('shows a consent screen naming the client, the person, the organizations and the access', async () => {
    const browser = createBrowser(server);
    const form = await browser.get(agentAuthorizeUrl());
    const consent = await browser.post(form, { email: 'admin@harbor.test', password: 'admin-pass-1' });
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('Allow an unverified application to access Sitefile?');
    expect(consent.html).toContain('It calls itself “Agent &lt;b&gt;X&lt;/b&gt;”, a name Sitefile has not verified.');
    expect(consent.html).toContain('Ada Admin (admin@harbor.test)');
    expect(consent.html).toContain('Harbor Construction');
    expect(consent.html).toContain('search e-mail dispatches');
  });

  it('redirects with access_denied and the state when the person denies', async () => {
    const redirect = await signInAndConsent(
      server,
      agentAuthorizeUrl({ state: 'st' }),
      { email: 'member@harbor.test', password: 'member-pass-1' },
      'deny',
    );
    expect(redirect.get('error')).toBe('access_denied');
    expect(redirect.get('state')).toBe('st');
    expect(redirect.get('code')).toBeNull();
  });

  it('does not accept a consent ticket for a different authorization request', async () => {
    const browser = createBrowser(server);
    const form = await browser.get(agentAuthorizeUrl());
    const consent = await browser.post(form, { email: 'member@harbor.test', password: 'member-pass-1' });
    const swapped = await browser.post(consent, { decision: 'allow', code_challenge: pkce().challenge });
    expect(swapped.status).toBe(400);
    expect(swapped.html).toContain('Your sign-in has expired');
  });

  it('answers a consent form once: a second submission gets no second code', async () => {
    const browser = createBrowser(server);
    const form = await browser.get(agentAuthorizeUrl());
    const consent = await browser.post(form, { email: 'member@harbor.test', password: 'member-pass-1' });
    const first = await browser.post(consent, { decision: 'allow' });
    expect(first.status).toBe(302);
    expect(new URL(first.location!).searchParams.get('code')).toBeTruthy();
    const again = await browser.post(consent, { decision: 'allow' });
    expect(again.status).toBe(400);
    expect(again.location).toBeNull();
    expect(again.html).toContain('This consent was already answered');
  });
});

describe('sign-in throttling', () => {
  it(`locks an account after ${ACCOUNT_FAILURES} failures, even for the right password, with Retry-After`, async () => {
    const browser = createBrowser(server);
    const form = await browser.get(agentAuthorizeUrl());
    for (let i = 0; i < ACCOUNT_FAILURES; i++) {
      expect((await browser.post(form, { email: 'staff@sitefile.test', password: `guess-${i}` })).status).toBe(401);
    }
    const locked = await browser.post(form, { email: 'STAFF@sitefile.test', password: 'staff-pass-1' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.html).toContain('Too many sign-in attempts');
    // Other accounts are not affected.
    expect((await browser.post(form, { email: 'member@harbor.test', password: 'member-pass-1' })).status).toBe(200);
  });

  it(`slows an address after ${ADDRESS_FAILURES} failures across accounts`, async () => {
    const own = await startTestServer();
    try {
      const ownFixtures = await createFixtures(own);
      const res = await own.call('/oauth/register', {
        method: 'POST',
        json: { redirect_uris: [agentRedirect], token_endpoint_auth_method: 'none' },
      });
      const browser = createBrowser(own);
      const form = await browser.get(
        authorizeUrl({ client_id: res.body.client_id, redirect_uri: agentRedirect, code_challenge: pkce().challenge }),
      );
      for (let i = 0; i < ADDRESS_FAILURES; i++) {
        expect((await browser.post(form, { email: `spray-${i}@harbor.test`, password: 'x' })).status).toBe(401);
      }
      const blocked = await browser.post(form, { email: ownFixtures.member.email, password: 'member-pass-1' });
      expect(blocked.status).toBe(429);
    } finally {
      await own.close();
    }
  });
});
