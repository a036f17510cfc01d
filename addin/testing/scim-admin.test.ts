import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, paneLayouts, pressBy, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * The admin console's SCIM card, as an organization admin uses it to connect Entra ID or Okta: make a token (shown
 * once), make a new one (the old stops at once), revoke (provisioning stops) — by mouse and by keyboard, at 320 and
 * 450 px, light and dark. Each token is tried against the real /scim/v2 endpoint.
 */
describeInBrowser('SCIM provisioning in the admin console', () => {
  const suite = useBrowserSuite({ signIn: false });
  let admin: BrowserContext;

  /** What the SCIM endpoint answers this token. */
  const scimStatus = async (token: string) =>
    (
      await fetch(`${suite.server.url}/scim/v2/ServiceProviderConfig`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/scim+json' },
      })
    ).status;

  /** The token the card shows once, then put away with "I have stored it". */
  async function tokenShown(page: Page, by: 'mouse' | 'keyboard', screenshot?: string) {
    const shown = page.getByTestId('scim-token');
    await shown.waitFor();
    const token = (await shown.textContent()) ?? '';
    if (screenshot) {
      await shot(page, screenshot);
      await expectAccessible(page);
    }
    await pressBy(page.getByRole('button', { name: 'I have stored it' }), by);
    await expect.poll(() => shown.count()).toBe(0);
    return token;
  }

  beforeAll(async () => {
    ({ context: admin } = await suite.openAdmin({ signInAs: ['admin@harbor.test', 'admin-pass-1'] }));
  });
  afterAll(async () => {
    await admin?.close();
  });

  for (const { input, width, theme } of paneLayouts) {
    it(`makes, replaces and revokes the token by ${input} at ${width} px in ${theme}`, async () => {
      const { context, page } = await suite.openAdmin({ width, colorScheme: theme, signedIn: admin });
      const name = `scim-${input}-${width}-${theme}`;
      await page.getByText('No SCIM token: provisioning is off.').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);

      await pressBy(page.getByRole('button', { name: 'Make a SCIM token' }), input);
      const first = await tokenShown(page, input, `50-admin-${name}-token`);
      expect(await scimStatus(first)).toBe(200);
      await page.getByText(/never used yet/).waitFor();
      // Shown once: a reload shows when it was made, never the token.
      await page.reload();
      await page.getByText(/Token made/).waitFor();
      expect(await page.getByTestId('scim-token').count()).toBe(0);
      expect(await page.content()).not.toContain(first);

      await pressBy(page.getByRole('button', { name: 'Make a new token (stops the old one)' }), input);
      const second = await tokenShown(page, input);
      expect(second).not.toBe(first);
      expect([await scimStatus(first), await scimStatus(second)]).toEqual([401, 200]);

      await pressBy(page.getByRole('button', { name: 'Revoke (stop provisioning)' }), input);
      await page.getByText('No SCIM token: provisioning is off.').waitFor();
      expect(await scimStatus(second)).toBe(401);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      await shot(page, `51-admin-${name}-revoked`);
      await expectAccessible(page);
      await context.close();
    });
  }
});
