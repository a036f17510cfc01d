import { describe, expect, it } from 'vitest';
import { createUser } from '../users/service.js';
import { createBrowser, hiddenFields, pkce, signInAndConsent, viaServer } from './browser.fixtures.js';
import { ADDIN_CLIENT_ID } from './first-party.js';
import { addinRedirect, agent, agentRedirect, authorizeUrl, server } from './oauth.fixtures.js';
import { ACCOUNT_CEILING, ADDRESS_CEILING, PAIR_FREE_FAILURES, SIGN_IN_QUIET_SECONDS } from './throttle.js';

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
    expect(hiddenFields(page.html).csrf).toMatch(/^[\w-]{20,}\.[\w-]+\.[\w-]+$/);
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

  it('refuses a CSRF cookie it did not issue, even with the same value in the form, and offers a fresh form', async () => {
    const form = await createBrowser(server).get(agentAuthorizeUrl());
    const planted = 'attacker-chosen-csrf-value-0000000';
    const res = await viaServer(server)(`${server.config.publicUrl}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `sitefile_oauth_csrf=${planted}` },
      body: new URLSearchParams({
        ...hiddenFields(form.html),
        csrf: planted,
        email: 'member@harbor.test',
        password: 'member-pass-1',
      }).toString(),
    });
    const html = await res.text();
    expect(res.status).toBe(403);
    expect(html).toContain('This sign-in form has expired. Please sign in again.');
    expect(html).not.toContain('Allow');
    // The fresh form it answers with carries a token the server issued, and signing in with it works.
    const fresh = hiddenFields(html).csrf!;
    expect(fresh).not.toBe(planted);
    expect(res.headers.get('set-cookie')).toContain(`sitefile_oauth_csrf=${fresh}`);
    const signedIn = await viaServer(server)(`${server.config.publicUrl}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `sitefile_oauth_csrf=${fresh}` },
      body: new URLSearchParams({
        ...hiddenFields(html),
        email: 'member@harbor.test',
        password: 'member-pass-1',
      }).toString(),
    });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toContain('to access Sitefile?');
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

  it('asks the first-party add-in no consent: the sign-in sends the person back with a code, every time', async () => {
    const addinUrl = () =>
      authorizeUrl({
        client_id: ADDIN_CLIENT_ID,
        redirect_uri: addinRedirect,
        code_challenge: pkce().challenge,
        state: 'pane',
      });
    for (let attempt = 0; attempt < 2; attempt++) {
      const browser = createBrowser(server);
      const form = await browser.get(addinUrl());
      expect(form.html).toContain('Sitefile for Outlook wants to connect to your Sitefile account.');
      const done = await browser.post(form, { email: 'member@harbor.test', password: 'member-pass-1' });
      expect(done.status).toBe(302);
      expect(done.html).not.toContain('Allow');
      const back = new URL(done.location!);
      expect(back.origin + back.pathname).toBe(addinRedirect);
      expect(back.searchParams.get('code')).toBeTruthy();
      expect(back.searchParams.get('state')).toBe('pane');
    }
    // A wrong password still gets no code.
    const browser = createBrowser(server);
    const wrong = await browser.post(await browser.get(addinUrl()), { email: 'member@harbor.test', password: 'x' });
    expect(wrong.status).toBe(401);
    expect(wrong.location).toBeNull();
  });

  it('asks a self-registered client for consent on every sign-in, marked unverified', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const browser = createBrowser(server);
      const form = await browser.get(agentAuthorizeUrl());
      const consent = await browser.post(form, { email: 'member@harbor.test', password: 'member-pass-1' });
      expect(consent.status).toBe(200);
      expect(consent.html).toContain('Allow an unverified application to access Sitefile?');
      expect((await browser.post(consent, { decision: 'allow' })).status).toBe(302);
    }
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

describe('sign-in throttling protects, it does not punish', () => {
  // Each case signs in to an account of its own, from addresses of its own.
  let accounts = 0;
  const newAccount = async () => {
    accounts += 1;
    const email = `owner-${accounts}@harbor.test`;
    await createUser(server.database.db, { email, name: `Owner ${accounts}`, password: 'owner-pass-1' });
    return email;
  };
  const attempt = async (from: string, email: string, password: string) => {
    const browser = createBrowser(server, { from });
    return browser.post(await browser.get(agentAuthorizeUrl()), { email, password });
  };
  const wrong = async (from: string, email: string) =>
    expect((await attempt(from, email, 'wrong-guess')).status).toBe(401);

  it('wrong passwords from other addresses never keep the owner out', async () => {
    const email = await newAccount();
    // Five strangers, five wrong passwords each: the old rule locked the owner out after five in all.
    for (let stranger = 1; stranger <= 5; stranger++) {
      for (let i = 0; i < PAIR_FREE_FAILURES; i++) await wrong(`198.51.100.${stranger}`, email);
    }
    const owner = await attempt('203.0.113.7', email, 'owner-pass-1');
    expect(owner.status).toBe(200);
    expect(owner.html).toContain('to access Sitefile?');
  });

  it(`one address guessing one account waits after ${PAIR_FREE_FAILURES} failures, longer each time, right password or not`, async () => {
    const email = await newAccount();
    const guesser = '198.51.100.20';
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) await wrong(guesser, email);
    const held = await attempt(guesser, email, 'owner-pass-1');
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toBe('1');
    expect(held.html).toContain('Too many sign-in attempts. Try again in 1 second.');
    server.clock.advance(1000);
    await wrong(guesser, email);
    expect((await attempt(guesser, email, 'owner-pass-1')).headers.get('retry-after')).toBe('2');
    server.clock.advance(2000);
    await wrong(guesser, email);
    expect((await attempt(guesser, email, 'owner-pass-1')).headers.get('retry-after')).toBe('4');
    // Meanwhile the owner, from their own address, signs in at once.
    expect((await attempt('203.0.113.8', email, 'owner-pass-1')).status).toBe(200);
    // A quiet day forgets the failures.
    server.clock.advance(SIGN_IN_QUIET_SECONDS * 1000);
    expect((await attempt(guesser, email, 'owner-pass-1')).status).toBe(200);
  });

  it(`past ${ACCOUNT_CEILING} failures of one account, new addresses wait; one that signed in before does not`, async () => {
    const email = await newAccount();
    const home = '203.0.113.9';
    expect((await attempt(home, email, 'owner-pass-1')).status).toBe(200);
    const strangers = ACCOUNT_CEILING / PAIR_FREE_FAILURES;
    for (let stranger = 1; stranger <= strangers; stranger++) {
      for (let i = 0; i < PAIR_FREE_FAILURES; i++) await wrong(`192.0.2.${stranger}`, email);
    }
    const newcomer = await attempt('203.0.113.10', email, 'owner-pass-1');
    expect(newcomer.status).toBe(429);
    expect(Number(newcomer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await attempt(home, email, 'owner-pass-1')).status).toBe(200);
  }, 120_000);

  it(`slows an address after ${ADDRESS_CEILING} failures across accounts`, async () => {
    const sprayer = '198.51.100.40';
    for (let i = 0; i < ADDRESS_CEILING; i++) await wrong(sprayer, `spray-${i}@harbor.test`);
    const blocked = await attempt(sprayer, 'member@harbor.test', 'member-pass-1');
    expect(blocked.status).toBe(429);
    expect((await attempt('198.51.100.41', 'member@harbor.test', 'member-pass-1')).status).toBe(200);
  });
});
