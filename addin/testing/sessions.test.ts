import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  describeInBrowser,
  expectAccessible,
  officeJsUrl,
  openEmail,
  origin,
  shot,
  signInThroughDialog,
} from './chromium.js';
import { useBrowserSuite } from './suite.js';

/** The pane outside Outlook, without an e-mail, offline, after its sign-in ended, and when things fail. */

type StoredSession = { accessToken: string; refreshToken: string; expiresAt: number };
const readSession = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('sitefile.session') ?? 'null')) as Promise<StoredSession | null>;
/** Makes the stored access token due for renewal, so the next request renews it with the refresh token. */
const makeDue = (page: Page) =>
  page.evaluate(() => {
    const session = JSON.parse(localStorage.getItem('sitefile.session')!);
    localStorage.setItem('sitefile.session', JSON.stringify({ ...session, expiresAt: Date.now() - 1 }));
  });

describeInBrowser('sessions and errors in the pane', () => {
  const suite = useBrowserSuite();

  const refreshWith = (refreshToken: string) =>
    suite.server.call('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: 'sitefile-addin',
      }),
    });

  it('outside Outlook says what this is and how to sideload it, also when office.js cannot load', async () => {
    const { context, page } = await suite.openPane({});
    await page.getByRole('heading', { name: 'Sitefile for Outlook' }).waitFor();
    await page.getByText(/Add a custom add-in/).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in to Sitefile' }).count()).toBe(0);
    const help = await suite.server.request(
      (await page.getByRole('link', { name: 'Sitefile add-in documentation' }).getAttribute('href'))!,
    );
    expect(help.status).toBe(200);
    expect(await help.text()).toContain('# Sitefile for Outlook');
    await shot(page, '20-no-host');
    await expectAccessible(page);
    await context.unroute(officeJsUrl);
    await context.route(officeJsUrl, (route) => route.abort('internetdisconnected'));
    await page.reload();
    await page.getByRole('heading', { name: 'Sitefile for Outlook' }).waitFor();
    // The sign-in's return page, opened on its own, says where to sign in instead of "Finishing sign-in…" for ever.
    await page.goto(`${origin}/addin/auth-callback.html?code=x&state=y`);
    await page.getByText('Open Sitefile from Outlook to sign in.').waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it('a pinned pane with no e-mail selected says so, without an error', async () => {
    const { context, page } = await suite.openPane({ noItemSelected: true });
    await page.getByText('Select an e-mail to see where it belongs and file it.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await shot(page, '21-no-item');
    await expectAccessible(page);
    await context.close();
  });

  it('offline, keeps the session, shows one bar, and recovers by itself', async () => {
    const { context, page } = await suite.openPane({ item: openEmail });
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    await makeDue(page);
    await context.route(`${origin}/**`, (route) =>
      route.request().url().includes('/addin/') ? route.continue() : route.abort('internetdisconnected'),
    );
    await page.reload();
    await page.getByText('Offline', { exact: true }).waitFor();
    await page.getByText(/Projects could not be loaded/).waitFor();
    // One bar for the whole pane (the project field says why it is empty), no error per request.
    expect(await page.locator('.fui-MessageBar').count()).toBe(1);
    expect(await page.getByText(/signed out/i).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await readSession(page)).not.toBeNull();
    await shot(page, '22-offline');
    await expectAccessible(page);
    await context.unroute(`${origin}/**`);
    // No click: the pane asks again by itself and the suggestions arrive.
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor({ timeout: 20_000 });
    await page.getByText('Offline', { exact: true }).waitFor({ state: 'hidden' });
    expect((await readSession(page))!.expiresAt).toBeGreaterThan(Date.now());
    await context.close();
    // Up to 20 s of waiting for the pane's own retry, on top of the setup.
  });

  it('when the sign-in has ended, explains it and keeps the project, attachments and note across the new sign-in', async () => {
    // A sign-in of its own: ending it ends every token of that sign-in, and the other tests share theirs.
    const { context, page } = await suite.openPane({ item: openEmail }, { signedIn: false });
    await signInThroughDialog(page, 'member@harbor.test', 'member-pass-1');
    await page.getByRole('radio', { name: /Dockside Offices/ }).check();
    await page.getByRole('checkbox', { name: /site-photo\.jpg/ }).uncheck();
    await page.getByLabel('Note (optional)').fill('Handrail query');
    // The session ends at the server (as when a password changes); the pane finds out at its next request.
    const ended = await readSession(page);
    await suite.server.call('/oauth/revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: ended!.refreshToken, client_id: 'sitefile-addin' }),
    });
    await makeDue(page);
    await page.getByRole('combobox', { name: 'RFI or submittal (optional)' }).fill('hand');
    await page.getByText(/Your Sitefile sign-in has ended/).waitFor();
    await shot(page, '23-sign-in-ended');
    await expectAccessible(page);
    await signInThroughDialog(page, 'member@harbor.test', 'member-pass-1');
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Or choose a project' }).inputValue()).toBe('Dockside Offices');
    expect(await page.getByRole('checkbox', { name: /site-photo\.jpg/ }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: /anchor-detail\.txt/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('Note (optional)').inputValue()).toBe('Handrail query');
    await context.close();
  });

  it('names an attachment Outlook cannot hand over and offers no useless Retry', async () => {
    const broken = { ...openEmail.attachments[1]!, unreadable: true };
    const { context, page } = await suite.openPane({
      item: { ...openEmail, attachments: [openEmail.attachments[0], broken] },
    });
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByText(/Outlook could not hand over the attachment “site-photo\.jpg”\. Untick it/).waitFor();
    expect(await page.getByText(/getAttachmentContentAsync/).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await shot(page, '24-attachment-unreadable');
    await expectAccessible(page);
    await context.close();
  });

  it('Sign out revokes the refresh token at the server: it is refused afterwards', async () => {
    // A sign-in of its own: the tests above renewed and ended the shared one.
    const { context, page } = await suite.openPane({ item: openEmail }, { signedIn: false });
    await signInThroughDialog(page, 'member@harbor.test', 'member-pass-1');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // A refresh token that works (the stored one, renewed once here), handed to the pane.
    const renewed = await refreshWith((await readSession(page))!.refreshToken);
    expect(renewed.status).toBe(200);
    const refreshToken: string = renewed.body.refresh_token;
    await page.evaluate((s) => localStorage.setItem('sitefile.session', JSON.stringify(s)), {
      accessToken: renewed.body.access_token,
      refreshToken,
      expiresAt: Date.now() + 3_600_000,
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in to Sitefile' }).waitFor();
    expect(await readSession(page)).toBeNull();
    await expect.poll(async () => (await refreshWith(refreshToken)).status).toBe(400);
    await context.close();
  });
});
