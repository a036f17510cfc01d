import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/users/service.js';
import { describeInBrowser, expectAccessible, origin, shot, signInToAdmin } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/** The admin console in Chromium: the aiSuggest switch, people, API keys (create, rotate), the runbook, narrow widths. */

/** The element lies wholly inside the window (scrolled into view). */
const inViewport = (target: Locator) =>
  target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth;
  });

describeInBrowser('the admin console in Chromium', () => {
  const suite = useBrowserSuite({ fakeAi: true });
  let admin: BrowserContext;
  let adminPage: Page;
  /** The secret of the key staff create, and what exchanging a secret of that key answers. */
  let secretText: string;
  let clientId: string;
  const exchange = async (secret: string) =>
    (
      await suite.server.call('/v1/oauth/token', {
        method: 'POST',
        json: { client_id: clientId, client_secret: secret },
      })
    ).status;

  beforeAll(async () => {
    // Short enough that the create form sits below the fold once a few keys are listed.
    ({ context: admin, page: adminPage } = await suite.openAdmin({ height: 700 }));
  });
  afterAll(() => admin?.close());

  it('signs staff in with a redirect and switches aiSuggest on; the add-in sees it at its next request', async () => {
    const { server, f } = suite;
    await adminPage.getByRole('button', { name: 'Sign in to Sitefile' }).waitFor();
    await shot(adminPage, '10-admin-signed-out');
    await expectAccessible(adminPage);
    await signInToAdmin(adminPage, 'staff@sitefile.test', 'staff-pass-1');
    const aiSwitch = adminPage.getByRole('switch', { name: 'AI suggestions are off' });
    await aiSwitch.waitFor();
    // Where the admin decides, exactly what would be sent: the candidates the add-in suggests, never the project list.
    await adminPage
      .getByText(/sends exactly: the subject; the first 1,000 characters of the body, e-mail addresses reduced/)
      .waitFor();
    await adminPage.getByText(/for the candidate projects only \(at most 5, those the add-in suggests\)/).waitFor();
    await adminPage.getByText(/Never the list of your other projects, their aliases, IDs/).waitFor();
    await shot(adminPage, '10-admin-ai-off');
    await expectAccessible(adminPage);
    // The switch asks first: Cancel changes nothing, OK turns it on.
    const asked: string[] = [];
    adminPage.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await aiSwitch.click();
    await expect.poll(() => asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Turn on AI project suggestions for Harbor Construction\? Summaries of e-mails/);
    expect(await aiSwitch.isChecked()).toBe(false);
    const unchanged = await server.call(`/v1/organization/${f.orgA.id}/email-filing-settings`, {
      token: f.admin.token,
    });
    expect(unchanged.body.data.aiSuggest).toBe(false);
    adminPage.once('dialog', (dialog) => void dialog.accept());
    await aiSwitch.click();
    await adminPage.getByRole('switch', { name: 'AI suggestions are on' }).waitFor();
    await shot(adminPage, '11-admin-ai-on');
    await expectAccessible(adminPage);
    const settings = await server.call(`/v1/organization/${f.orgA.id}/email-filing-settings`, {
      token: f.admin.token,
    });
    expect(settings.body.data.aiSuggest).toBe(true);

    const pane = await suite.signedIn.newPage();
    await pane.goto(`${origin}/addin/taskpane.html`);
    await pane.getByText('AI suggestions on').waitFor();
    await pane.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    // This e-mail names its project: local evidence is sure, so the provider is not asked even with the switch on
    // (asked only below the documented threshold: server/filing and test/suggestion-corpus tests).
    expect(suite.aiRequests).toBe(0);
    await shot(pane, '12-suggestions-ai-on');
    await expectAccessible(pane);
    await pane.close();
    // A sign-in, four screens checked with axe and a pane opened: allow for a busy machine.
  });

  it("manages the organization's people: role, disable (asked first) and enable, removal", async () => {
    const { server, f } = suite;
    const pat = await createUser(server.database.db, {
      email: 'pat@harbor.test',
      name: 'Pat People',
      memberships: [{ orgId: f.orgA.id, role: 'member' }],
    });
    const patToken = f.userToken(pat.id);
    await adminPage.reload();
    const row = () => adminPage.getByRole('row', { name: /Pat People/ });
    await row().waitFor();
    await adminPage.getByText('People of Harbor Construction').waitFor();
    expect(await row().getByRole('cell').nth(1).textContent()).toBe('member');

    await row().getByRole('button', { name: 'Make admin' }).click();
    await row().getByRole('button', { name: 'Make member' }).waitFor();
    expect(await row().getByRole('cell').nth(1).textContent()).toBe('admin');
    const settings = `/v1/organization/${f.orgA.id}/email-filing-settings`;
    expect((await server.call(settings, { method: 'PATCH', token: patToken, json: { aiSuggest: true } })).status).toBe(
      200,
    );
    adminPage.once('dialog', (dialog) => void dialog.accept());
    await row().getByRole('button', { name: 'Make member' }).click();
    await row().getByRole('button', { name: 'Make admin' }).waitFor();

    const asked: string[] = [];
    adminPage.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await row().getByRole('button', { name: 'Disable' }).click();
    await expect
      .poll(() => asked)
      .toEqual(['Disable Pat People (pat@harbor.test) everywhere? They are signed out at once and cannot sign in.']);
    expect((await server.call('/v1/me', { token: patToken })).status).toBe(200);
    adminPage.once('dialog', (dialog) => void dialog.accept());
    await row().getByRole('button', { name: 'Disable' }).click();
    await row().getByText('disabled', { exact: true }).waitFor();
    expect((await server.call('/v1/me', { token: patToken })).status).toBe(401);
    await shot(adminPage, '13-admin-people');
    await expectAccessible(adminPage);
    await row().getByRole('button', { name: 'Enable' }).click();
    await row().getByRole('button', { name: 'Disable' }).waitFor();
    expect((await server.call('/v1/me', { token: patToken })).status).toBe(200);

    adminPage.once('dialog', (dialog) => void dialog.accept());
    await row().getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => row().count()).toBe(0);
    expect((await server.call(`/v1/organization/${f.orgA.id}`, { token: patToken })).status).toBe(403);
  });

  it('creates an API key, brings its secret into view with the focus, shows it once, and empties the form', async () => {
    const { server, f } = suite;
    await adminPage.getByLabel('Name').fill('Scheduling export');
    await adminPage.getByRole('checkbox', { name: 'email:read' }).check();
    const scope = adminPage.getByRole('combobox', { name: /^Projects/ });
    await scope.click();
    await scope.pressSequentially('dockside');
    // The multiselect list: its options are menu item checkboxes.
    await adminPage.getByRole('menuitemcheckbox', { name: 'Dockside Offices' }).click();
    await adminPage.keyboard.press('Escape');
    await adminPage.getByRole('button', { name: 'Remove Dockside Offices' }).waitFor();
    const create = adminPage.getByRole('button', { name: 'Create key' });
    await create.click();
    const secret = adminPage.getByTestId('client-secret');
    await secret.waitFor();
    secretText = (await secret.textContent())!;
    expect(secretText.length).toBeGreaterThan(20);
    await adminPage.getByRole('button', { name: 'Copy secret' }).waitFor();
    // The page is taller than the window and the form was at its foot: the secret was scrolled to, and focused.
    expect(await adminPage.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);
    expect(await inViewport(secret)).toBe(true);
    expect(await secret.evaluate((element) => document.activeElement?.contains(element))).toBe(true);
    // The form is as it was before: no name, the default permissions, no project.
    expect(await adminPage.getByLabel('Name').inputValue()).toBe('');
    expect(await adminPage.getByRole('checkbox', { name: 'email:read' }).isChecked()).toBe(false);
    expect(await adminPage.getByRole('checkbox', { name: 'project:read' }).isChecked()).toBe(true);
    expect(await adminPage.getByRole('button', { name: 'Remove Dockside Offices' }).count()).toBe(0);
    expect(await create.isDisabled()).toBe(true);
    await shot(adminPage, '13-admin-key-secret');
    await expectAccessible(adminPage);

    const keys = await server.call('/v1/admin/clients', { token: f.staff.token });
    const created = keys.body.data.find((k: { name: string }) => k.name === 'Scheduling export');
    expect(created.scopes.projects.map((p: { projectId: string }) => p.projectId)).toEqual([f.projectA2.id]);
    expect(created.permissions['email:read']).toBe(true);
    clientId = created.clientId;
    expect(await exchange(secretText)).toBe(200);

    await adminPage.getByRole('button', { name: 'I have stored it' }).click();
    await adminPage.reload();
    await adminPage
      .getByRole('table', { name: 'API keys' })
      .getByRole('cell', { name: /Scheduling export/ })
      .waitFor();
    expect(await adminPage.content()).not.toContain(secretText);
    await shot(adminPage, '14-admin-keys');
    await expectAccessible(adminPage);
  });

  it('asks before rotating a secret: Cancel keeps the old one working, OK shows a new one and ends the old', async () => {
    const rotate = adminPage
      .getByRole('table', { name: 'API keys' })
      .getByRole('row', { name: /Scheduling export/ })
      .getByRole('button', { name: 'Rotate secret' });
    const asked: string[] = [];
    adminPage.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await rotate.click();
    await expect.poll(() => asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Rotate the secret of “Scheduling export”\? The current secret stops working at once/);
    expect(await adminPage.getByTestId('client-secret').count()).toBe(0);
    expect(await exchange(secretText)).toBe(200);

    adminPage.once('dialog', (dialog) => void dialog.accept());
    await rotate.click();
    const secret = adminPage.getByTestId('client-secret');
    await secret.waitFor();
    const rotated = (await secret.textContent())!;
    expect(rotated).not.toBe(secretText);
    await adminPage.getByText('Secret for “Scheduling export” — shown only this once').waitFor();
    expect(await inViewport(secret)).toBe(true);
    expect(await secret.evaluate((element) => document.activeElement?.contains(element))).toBe(true);
    expect(await exchange(secretText)).toBe(401);
    expect(await exchange(rotated)).toBe(200);
    secretText = rotated;
    await adminPage.getByRole('button', { name: 'I have stored it' }).click();
  });

  it('lets staff add a support issue that the runbook shows and finds', async () => {
    await adminPage.getByText('The runbook is empty: add the first support issue below.').waitFor();
    await adminPage.getByLabel('Title').fill('Add-in shows "signed out" after password change');
    await adminPage.getByLabel('What goes wrong').fill('Refresh tokens of the old session are revoked.');
    await adminPage.getByLabel('How to resolve it').fill('Ask the user to press Sign in again in the task pane.');
    await adminPage.getByRole('button', { name: 'Add to the runbook' }).click();
    await adminPage.getByText('is in the runbook.').waitFor();
    await adminPage.getByText('1 entry', { exact: true }).waitFor();
    await adminPage.getByRole('searchbox', { name: 'Search the runbook' }).fill('refresh tokens');
    await adminPage.getByRole('searchbox', { name: 'Search the runbook' }).press('Enter');
    await adminPage.getByText('Approach:').waitFor();
    await shot(adminPage, '17-admin-runbook');
    await expectAccessible(adminPage);
    await adminPage.getByRole('searchbox', { name: 'Search the runbook' }).fill('nothing like this');
    await adminPage.getByRole('searchbox', { name: 'Search the runbook' }).press('Enter');
    await adminPage.getByText('No entry matches.').waitFor();
  });

  it('lets an organization admin toggle aiSuggest and create a key whose secret is shown once', async () => {
    const { server, f } = suite;
    const { context: orgAdmin, page: adminOnly } = await suite.openAdmin({
      height: 1000,
      signInAs: ['admin@harbor.test', 'admin-pass-1'],
    });
    // The switch staff turned on: the organization's admin turns it off through the organization route.
    adminOnly.once('dialog', (dialog) => void dialog.accept());
    await adminOnly.getByRole('switch', { name: 'AI suggestions are on' }).click();
    await adminOnly.getByRole('switch', { name: 'AI suggestions are off' }).waitFor();
    const settings = await server.call(`/v1/organization/${f.orgA.id}/email-filing-settings`, {
      token: f.member.token,
    });
    expect(settings.body.data.aiSuggest).toBe(false);
    // The organization's keys (the one staff made for Dockside Offices included), but no staff runbook.
    await adminOnly
      .getByRole('table', { name: 'API keys' })
      .getByRole('cell', { name: /Scheduling export/ })
      .waitFor();
    expect(await adminOnly.getByText('Support issues and runbook').count()).toBe(0);

    await adminOnly.getByLabel('Name').fill('Site diary sync');
    await adminOnly.getByRole('combobox', { name: /^Projects/ }).focus();
    await adminOnly.keyboard.type('pier9');
    await adminOnly.getByRole('menuitemcheckbox', { name: 'Pier 9 Terminal' }).waitFor();
    await adminOnly.keyboard.press('ArrowDown');
    await adminOnly.keyboard.press('Enter');
    await adminOnly.keyboard.press('Escape');
    await adminOnly.getByRole('button', { name: 'Remove Pier 9 Terminal' }).waitFor();
    await adminOnly.getByRole('button', { name: 'Create key' }).click();
    const secret = adminOnly.getByTestId('client-secret');
    await secret.waitFor();
    const orgSecret = (await secret.textContent())!;
    expect(orgSecret.length).toBeGreaterThan(20);
    await shot(adminOnly, '18-admin-org-admin-key-secret');
    await expectAccessible(adminOnly);

    const keys = await server.call(`/v1/organization/${f.orgA.id}/clients`, { token: f.admin.token });
    const created = keys.body.data.find((k: { name: string }) => k.name === 'Site diary sync');
    expect(created).toMatchObject({ createdBy: 'admin@harbor.test', orgIds: [f.orgA.id], superadmin: false });
    expect(created.scopes.projects.map((p: { projectId: string }) => p.projectId)).toEqual([f.projectA1.id]);
    const token = await server.call('/v1/oauth/token', {
      method: 'POST',
      json: { client_id: created.clientId, client_secret: orgSecret },
    });
    expect(token.status).toBe(200);

    await adminOnly.getByRole('button', { name: 'I have stored it' }).click();
    await adminOnly.reload();
    await adminOnly
      .getByRole('table', { name: 'API keys' })
      .getByRole('cell', { name: /Site diary sync/ })
      .waitFor();
    expect(await adminOnly.content()).not.toContain(orgSecret);
    await shot(adminOnly, '19-admin-org-admin-keys');
    await expectAccessible(adminOnly);
    await orgAdmin.close();
    suite.page = adminPage;
  });

  describe('at 320 and 350 px', () => {
    beforeAll(async () => {
      const { server, f } = suite;
      // Usage to show: the key lists e-mails a few times (the counters are written in batches: flushed here).
      const token = await server.call('/v1/oauth/token', {
        method: 'POST',
        json: { client_id: clientId, client_secret: secretText },
      });
      for (let i = 0; i < 3; i++) {
        const listed = await server.call(`/v1/organization/${f.orgA.id}/project/${f.projectA2.id}/emails`, {
          token: token.body.access_token,
        });
        expect(listed.status).toBe(200);
      }
      await server.app.context.usage.flush();
    });

    for (const width of [320, 350]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        it(`in ${colorScheme}, ${width} px: every key's text, its usage included, wraps inside its own box`, async () => {
          const { context: narrow, page } = await suite.openAdmin({ width, colorScheme, signedIn: admin });
          await page.getByText(/^GET \/v1\/organization\/.+: 3 × \d+ ms$/).waitFor();
          // Nothing sticks out sideways: not the page, no text out of its cell into the next.
          const overflowing = await page
            .getByRole('table', { name: 'API keys' })
            .evaluate((table) =>
              [...table.querySelectorAll('td, th')]
                .filter((cell) => cell.scrollWidth > cell.clientWidth)
                .map((cell) => cell.textContent),
            );
          expect(overflowing).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
          await shot(page, `admin-usage-${width}-${colorScheme}`);
          await expectAccessible(page);
          await narrow.close();
          suite.page = adminPage;
        });
      }
    }
  });
});
