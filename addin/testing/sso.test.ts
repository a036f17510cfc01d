import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AgentOAuth } from '../../server/oauth/agent.fixtures.js';
import { viaServer } from '../../server/oauth/browser.fixtures.js';
import { type DnsServer, startDnsServer } from '../../server/sso/dns-server.fixtures.js';
import { type IdentityProvider, startIdentityProvider } from '../../server/sso/identity-provider.fixtures.js';
import { describeInBrowser, expectAccessible, openEmail, origin, pageWaitMs, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/** Single sign-on in Chromium through a real OpenID provider: the console, the add-in's dialog, an MCP agent. */

/** On our sign-in page: "Sign in with your organization", then the provider's login and consent pages. */
async function signInWithOrganization(page: Page, email: string, accountId: string, screenshot?: string) {
  await page.getByLabel('Work e-mail').fill(email);
  if (screenshot) {
    await shot(page, screenshot);
    await expectAccessible(page);
  }
  await page.getByRole('button', { name: 'Sign in with your organization' }).click();
  await page.locator('input[name=login]').fill(accountId);
  await page.locator('input[name=password]').fill('any');
  await page.locator('button[type=submit]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The DNS server that answers the domain's TXT record when the admin publishes it (SSO_DNS_SERVERS). */
const dns: DnsServer = await startDnsServer();

describeInBrowser('single sign-on in Chromium', () => {
  const suite = useBrowserSuite({ signIn: false, env: { SSO_ALLOW_HTTP_ISSUERS: '1', SSO_DNS_SERVERS: dns.address } });
  let idp: IdentityProvider;

  beforeAll(async () => {
    idp = await startIdentityProvider(suite.server);
    idp.accounts.set('ada', { email: 'admin@harbor.test', email_verified: true, name: 'Ada Admin' });
    idp.accounts.set('mia', { email: 'member@harbor.test', email_verified: true, name: 'Mia Member' });
    const res = await suite.server.call(`/v1/organization/${suite.f.orgA.id}/sso`, {
      method: 'PUT',
      token: suite.f.admin.token,
      json: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, domains: ['harbor.test'] },
    });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await idp?.close();
    await dns.close();
  });

  it("shows the pending domain's TXT record at 320 px, light and dark, and verifies it with the mouse", async () => {
    const { context: admin } = await suite.openAdmin({ signInAs: ['admin@harbor.test', 'admin-pass-1'] });
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await suite.openAdmin({ width: 320, colorScheme: theme, signedIn: admin });
      const domain = page.getByRole('region', { name: 'Domain verification' }).getByRole('listitem', {
        name: 'harbor.test',
      });
      await domain.getByText('Pending').waitFor();
      const txtName = await domain.getByLabel('TXT record name for harbor.test').inputValue();
      const txtValue = await domain.getByLabel('TXT record value for harbor.test').inputValue();
      expect(txtName).toBe('_sitefile-challenge.harbor.test');
      expect(txtValue).toMatch(/^sitefile-verification=[0-9a-f]{32}$/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
      await domain.scrollIntoViewIfNeeded();
      await shot(page, `66-sso-domain-pending-${theme}`);
      await expectAccessible(page);
      // Not published yet: the card says what is missing, and the domain stays pending.
      await domain.getByRole('button', { name: 'Verify harbor.test' }).click();
      await page.getByText(`No TXT record "${txtValue}" was found at ${txtName}.`, { exact: false }).waitFor();
      await shot(page, `67-sso-domain-not-found-${theme}`);
      await expectAccessible(page);
      if (theme === 'dark') {
        dns.txt.set(txtName, [txtValue]);
        await domain.getByRole('button', { name: 'Verify harbor.test' }).click();
        await domain.getByText('Verified').waitFor();
        await domain.getByText(/By its DNS record/).waitFor();
        expect(await domain.getByRole('button', { name: 'Verify harbor.test' }).count()).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
        await shot(page, '68-sso-domain-verified-dark');
        await expectAccessible(page);
      }
      await context.close();
    }
    await admin.close();
  }, 180_000);

  it('signs an admin in to the console through the identity provider', async () => {
    const { context, page } = await suite.openAdmin();
    await page.getByRole('button', { name: 'Sign in to Sitefile' }).click();
    await signInWithOrganization(page, 'admin@harbor.test', 'ada', '60-sso-sign-in-page');
    await page.waitForURL(`${origin}/admin`);
    await page.getByRole('switch', { name: /AI suggestions are/ }).waitFor();
    await shot(page, '61-sso-console-signed-in');
    await context.close();
  });

  it("signs a member in through the add-in's sign-in dialog", async () => {
    const { context, page } = await suite.openPane({ item: openEmail }, { signedIn: false });
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Sign in to Sitefile' }).click();
    const dialog = await popupOpened;
    const closed = dialog.waitForEvent('close');
    await signInWithOrganization(dialog, 'member@harbor.test', 'mia');
    await closed;
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    await shot(page, '62-sso-pane-signed-in');
    await context.close();
  });

  it('signs an MCP agent (the SDK client) in, with the person consenting in the browser', async () => {
    const oauth = new AgentOAuth('SSO Agent', 'sso-agent-state');
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      authProvider: oauth,
      fetch: viaServer(suite.server),
    });
    await expect(new Client({ name: 'sso-agent', version: '1.0.0' }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    const context = await suite.browser.newContext();
    context.setDefaultTimeout(pageWaitMs);
    let redirected: URL | undefined;
    // The agent's loopback redirect: caught here, as the agent's own listener would.
    await context.route(`${oauth.redirectUrl}**`, (route) => {
      redirected = new URL(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/plain', body: 'Signed in; you can close this window.' });
    });
    const page = await context.newPage();
    suite.page = page;
    await page.goto(oauth.authorizationUrl!.href);
    await signInWithOrganization(page, 'member@harbor.test', 'mia');
    await page.getByRole('heading', { name: /Allow an unverified application to access Sitefile/ }).waitFor();
    await shot(page, '63-sso-mcp-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByText('Signed in; you can close this window.').waitFor();
    expect(redirected?.searchParams.get('state')).toBe('sso-agent-state');
    await transport.finishAuth(redirected!.searchParams.get('code')!);
    const agent = new Client({ name: 'sso-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
        authProvider: oauth,
        fetch: viaServer(suite.server),
      }),
    );
    const result = await agent.callTool({ name: 'organizations_list', arguments: {} });
    expect(JSON.stringify(result)).toContain('Harbor Construction');
    await agent.close();
    await context.close();
  });

  it("the console's single sign-on card shows the connection and turns passwords off for the organization's people", async () => {
    const { server, f } = suite;
    const { context, page } = await suite.openAdmin({ signInAs: ['admin@harbor.test', 'admin-pass-1'] });
    const card = page.getByRole('form', { name: 'Single sign-on' });
    await card.getByText('http://sitefile.test/oauth/sso/callback').waitFor();
    expect(await card.getByLabel('Issuer URL').inputValue()).toBe(idp.issuer);
    expect(await card.getByLabel('Client secret').inputValue()).toBe('');
    await card.getByRole('checkbox', { name: /Require single sign-on/ }).check();
    await card.getByRole('button', { name: 'Save single sign-on' }).click();
    await expect
      .poll(
        async () =>
          (await server.call(`/v1/organization/${f.orgA.id}/sso`, { token: f.admin.token })).body.data.requireSso,
      )
      .toBe(true);
    await card.scrollIntoViewIfNeeded();
    await shot(page, '64-sso-console-card');
    await expectAccessible(page);
    // The stored secret was kept: single sign-on still works, passwords of harbor.test no longer do.
    const signIn = await suite.browser.newContext();
    const signInPage = await signIn.newPage();
    suite.page = signInPage;
    await signInPage.goto(`${origin}/admin`);
    await signInPage.getByRole('button', { name: 'Sign in to Sitefile' }).click();
    await signInPage.getByLabel('Email', { exact: true }).fill('member@harbor.test');
    await signInPage.getByLabel('Password').fill('member-pass-1');
    await signInPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await signInPage
      .getByText(
        'Your organization signs you in through its identity provider: use “Sign in with your organization” below.',
      )
      .waitFor();
    await shot(signInPage, '65-sso-password-refused');
    await signInWithOrganization(signInPage, 'member@harbor.test', 'mia');
    await signInPage.waitForURL(`${origin}/admin`);
    await signIn.close();
    await context.close();
  });
});
