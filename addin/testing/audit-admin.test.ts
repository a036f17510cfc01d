import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../../server/users/service.js';
import { describeInBrowser, expectAccessible, pressBy, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/** The admin console's audit log, as an organization admin reads it: newest first, filtered by mouse and keyboard. */
describeInBrowser('the audit log in the admin console', () => {
  const suite = useBrowserSuite({ signIn: false, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' } });
  let admin: BrowserContext;
  let page: Page;
  const log = () => page.getByRole('table', { name: 'Audit log' });
  const actions = () =>
    log()
      .getByRole('row')
      .evaluateAll((rows) =>
        rows.slice(1).map((row) => row.querySelectorAll('td')[2]?.querySelector('span')?.textContent),
      );

  beforeAll(async () => {
    const { server, f } = suite;
    // Three changes a minute apart, by the admin, then one by staff: the log lists them newest first.
    const orgA = `/v1/organization/${f.orgA.id}`;
    const pat = await createUser(server.database.db, {
      email: 'pat@harbor.test',
      name: 'Pat People',
      memberships: [{ orgId: f.orgA.id, role: 'member' }],
    });
    const changes = [
      () =>
        server.call(`${orgA}/email-filing-settings`, {
          method: 'PATCH',
          token: f.admin.token,
          json: { aiSuggest: true },
        }),
      () =>
        server.call(`${orgA}/members/${pat.id}`, { method: 'PATCH', token: f.admin.token, json: { role: 'admin' } }),
      () =>
        server.call(`${orgA}/webhooks`, {
          method: 'POST',
          token: f.staff.token,
          json: { url: 'http://127.0.0.1:9/erp', events: ['audit.event'] },
        }),
    ];
    for (const change of changes) {
      server.clock.advance(60_000);
      expect((await change()).status).toBeLessThan(300);
    }
    server.clock.advance(60_000);
    ({ context: admin, page } = await suite.openAdmin({ signInAs: ['admin@harbor.test', 'admin-pass-1'] }));
  });
  afterAll(() => admin?.close());

  it('lists every change newest first, with who, from where and before → after', async () => {
    await page.getByText('Audit log of Harbor Construction').waitFor();
    await log().waitFor();
    expect(await actions()).toEqual(['signin.succeeded', 'webhook.created', 'member.role_changed', 'settings.updated']);
    const role = log().getByRole('row', { name: /member\.role_changed/ });
    expect(await role.textContent()).toContain('role: member → admin');
    expect(await role.textContent()).toContain('Ada Admin');
    expect(await role.textContent()).toMatch(/from (127\.0\.0\.1|::1)/);
    await log()
      .getByRole('row', { name: /settings\.updated/ })
      .getByText('aiSuggest: false → true')
      .waitFor();
    await shot(page, '50-admin-audit-log');
    await expectAccessible(page);
  });

  it('filters by kind and by person with the mouse', async () => {
    await page.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Webhooks' });
    await expect.poll(actions).toEqual(['webhook.created']);
    await page.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Every change and sign-in' });
    await expect.poll(actions).toHaveLength(4);
    await pressBy(
      log()
        .getByRole('row', { name: /settings\.updated/ })
        .getByRole('button', { name: 'Only Ada Admin' }),
      'mouse',
    );
    await page.getByText('Only changes by Ada Admin').waitFor();
    await expect.poll(actions).toEqual(['signin.succeeded', 'member.role_changed', 'settings.updated']);
    await pressBy(page.getByRole('button', { name: 'Everyone' }), 'mouse');
    await expect.poll(actions).toHaveLength(4);
  });

  it('filters by kind, day and person with the keyboard', async () => {
    const show = page.getByRole('combobox', { name: 'Show' });
    await show.focus();
    await page.keyboard.type('Sign-ins');
    await expect.poll(actions).toEqual(['signin.succeeded']);
    await show.focus();
    await page.keyboard.press('Home');
    await expect.poll(actions).toHaveLength(4);
    await page.getByLabel('To (UTC day)').focus();
    await page.keyboard.type('01012001');
    await page.getByText('Nothing recorded for these filters.').waitFor();
    await page.getByLabel('To (UTC day)').clear();
    await expect.poll(actions).toHaveLength(4);
    await pressBy(
      log()
        .getByRole('row', { name: /member\.role_changed/ })
        .getByRole('button', { name: 'Only Ada Admin' }),
      'keyboard',
    );
    await expect.poll(actions).toHaveLength(3);
    await pressBy(page.getByRole('button', { name: 'Everyone' }), 'keyboard');
    await expect.poll(actions).toHaveLength(4);
  });

  for (const width of [320, 450]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`in ${colorScheme}, ${width} px: every event's text wraps inside its own box`, async () => {
        const { context: narrow, page: small } = await suite.openAdmin({ width, colorScheme, signedIn: admin });
        await small.getByRole('table', { name: 'Audit log' }).getByText('member.role_changed').waitFor();
        const overflowing = await small
          .getByRole('table', { name: 'Audit log' })
          .evaluate((table) =>
            [...table.querySelectorAll('td, th')]
              .filter((cell) => cell.scrollWidth > cell.clientWidth)
              .map((cell) => cell.textContent),
          );
        expect(overflowing).toEqual([]);
        expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
        await small.getByRole('table', { name: 'Audit log' }).scrollIntoViewIfNeeded();
        await shot(small, `51-admin-audit-${width}-${colorScheme}`);
        await expectAccessible(small);
        await narrow.close();
        suite.page = page;
      });
    }
  }
});
