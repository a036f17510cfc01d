import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { documents } from '../../server/db/schema.js';
import { describeInBrowser, expectAccessible, openEmail, origin, paneLayouts, pressBy, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * Nothing prepared is lost: an e-mail prepared but not filed (project, RFI, note, an attachment unticked) keeps its
 * form when the person looks at another e-mail and comes back, offline too, and after the pane reloads; and a filing
 * whose answer was lost after the server stored it is never shown as "Not filed". By mouse and keyboard, at 320 and
 * 450 px, light and dark.
 */

const other = {
  ...openEmail,
  itemId: 'item-other',
  internetMessageId: '<handrail-other@steel.example>',
  conversationId: 'conv-other',
  subject: 'Dockside handrail fixings',
  from: { address: 'ops@steel.example', name: 'Ops Desk' },
  attachments: [],
};

const select = (page: Page, spec: unknown) =>
  page.evaluate(
    (next) => (window as unknown as { __officeHost: { select(s: unknown): void } }).__officeHost.select(next),
    spec,
  );

/** The form as the person sees it. */
async function formOf(page: Page) {
  return {
    project: await page.getByRole('combobox', { name: 'Or choose a project' }).inputValue(),
    rfi: await page.getByRole('combobox', { name: 'RFI or submittal (optional)' }).inputValue(),
    note: await page.getByRole('textbox', { name: 'Note (optional)' }).inputValue(),
    photo: await page.getByRole('checkbox', { name: /site-photo\.jpg/ }).isChecked(),
  };
}

describeInBrowser('nothing prepared is lost', () => {
  const suite = useBrowserSuite();

  it('sets up an RFI of Dockside Offices', async () => {
    await suite.server.database.db.insert(documents).values({
      id: 'doc_dock003',
      organizationId: suite.f.orgA.id,
      projectId: suite.f.projectA2.id,
      number: 'RFI-003',
      format: 'rfi',
      type: 'RFI',
      title: 'Handrail post spacing',
      status: 'pending',
    });
  });

  for (const { input, width, theme } of paneLayouts) {
    const tag = `${input}-${width}-${theme}`;
    it(`keeps an unfiled e-mail's form across another e-mail, offline, and a reload (${tag})`, async () => {
      const email = {
        ...openEmail,
        itemId: `item-prepared-${tag}`,
        internetMessageId: `<prepared-${tag}@steel.example>`,
        conversationId: `conv-prepared-${tag}`,
        subject: `Pier 9 Terminal: prepared ${tag}`,
      };
      const { context, page } = await suite.openPane(
        { item: email, dark: theme === 'dark' },
        { width, height: 720, colorScheme: theme },
      );
      await page.getByRole('radio').first().waitFor();
      const project = page.getByRole('combobox', { name: 'Or choose a project' });
      const rfi = page.getByRole('combobox', { name: 'RFI or submittal (optional)' });
      const note = page.getByRole('textbox', { name: 'Note (optional)' });
      const photo = page.getByRole('checkbox', { name: /site-photo\.jpg/ });
      if (input === 'mouse') {
        await project.click();
        await project.pressSequentially('dockside');
        await page.getByRole('option', { name: 'Dockside Offices' }).click();
        await rfi.click();
        await rfi.pressSequentially('3');
        await page.getByRole('option', { name: 'RFI-003 · Handrail post spacing' }).click();
        await photo.click();
        await note.click();
        await note.pressSequentially('east stair');
      } else {
        const pick = async (box: typeof rfi, typed: string, option: string) => {
          await box.focus();
          await page.keyboard.type(typed);
          await page.getByRole('option', { name: option }).waitFor();
          await expect
            .poll(async () => {
              const id = await box.getAttribute('aria-activedescendant');
              return id ? page.locator(`[id="${id}"]`).textContent() : null;
            })
            .toBe(option);
          await page.keyboard.press('Enter');
        };
        await pick(project, 'dockside', 'Dockside Offices');
        await pick(rfi, '3', 'RFI-003 · Handrail post spacing');
        await photo.focus();
        await page.keyboard.press('Space');
        await note.focus();
        await page.keyboard.type('east stair');
      }
      const prepared = {
        project: 'Dockside Offices',
        rfi: 'RFI-003 · Handrail post spacing',
        note: 'east stair',
        photo: false,
      };
      await expect.poll(() => formOf(page)).toEqual(prepared);
      await shot(page, `prepared-1-${tag}`);

      // Another e-mail: a form of its own.
      await select(page, other);
      await page.getByRole('heading', { name: other.subject }).waitFor();
      expect(await note.inputValue()).toBe('');

      // Offline, back to the first one: the form as it was left.
      await context.setOffline(true);
      await select(page, email);
      await page.getByRole('heading', { name: email.subject }).waitFor();
      await expect.poll(() => formOf(page)).toEqual(prepared);
      await shot(page, `prepared-2-offline-${tag}`);
      await expectAccessible(page);

      // Online again, the pane reloaded (as Outlook does when it is reopened): still as it was, and File files it so.
      await context.setOffline(false);
      await page.reload();
      await page.getByRole('heading', { name: email.subject }).waitFor();
      await expect.poll(() => formOf(page)).toEqual(prepared);
      await pressBy(page.getByRole('button', { name: 'File', exact: true }), input);
      await page.getByText('Filed in Dockside Offices on RFI-003 · Handrail post spacing with 1 attachment.').waitFor();
      const [filed] = await suite.filedIn(suite.f.projectA2.id, `"prepared ${tag}"`);
      const detail = await suite.filedEmail(suite.f.projectA2.id, filed!.id);
      expect(detail.note).toBe('east stair');
      expect(detail.documentId).toBe('doc_dock003');
      expect(detail.attachments.map((a) => a.name)).toEqual(['anchor-detail.txt']);
      await context.close();
    });

    it(`a filing stored though its answer was lost is shown filed, not "Not filed" (${tag})`, async () => {
      const email = {
        ...openEmail,
        itemId: `item-lost-${tag}`,
        internetMessageId: `<lost-answer-${tag}@steel.example>`,
        conversationId: `conv-lost-${tag}`,
        subject: `Pier 9 Terminal: lost answer ${tag}`,
      };
      const { context, page } = await suite.openPane(
        { item: email, dark: theme === 'dark' },
        { width, height: 720, colorScheme: theme },
      );
      // The server stores the filing; its answer never reaches the pane. The first look-up after it is lost too.
      let lookupsToLose = 1;
      await context.route(`${origin}/v1/organization/*/project/*/emails*`, async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        // Node resolves no sitefile.test (the browser maps it): the request goes to the server's own address.
        await route.fetch({ url: route.request().url().replace(origin, suite.server.url) });
        await route.abort('connectionreset');
      });
      // Earlier tests filed this sender's mail elsewhere too: the person picks Pier 9 among the suggestions.
      const pier = page.getByRole('radio', { name: /Pier 9 Terminal/ });
      if (input === 'mouse') await pier.click();
      else {
        await pier.focus();
        await page.keyboard.press('Space');
      }
      await page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
      await context.route(`${origin}/v1/filed-emails/lookup*`, async (route) => {
        if (lookupsToLose-- > 0) return route.abort('connectionreset');
        return route.continue();
      });
      await pressBy(page.getByRole('button', { name: 'File', exact: true }), input);
      await page.getByText('Filing not confirmed').waitFor();
      expect(await page.getByText('Not filed', { exact: true }).count()).toBe(0);
      await shot(page, `lost-answer-1-${tag}`);
      await expectAccessible(page);
      await pressBy(page.getByRole('button', { name: 'Retry' }), input);
      await page.getByText(/Filed in Pier 9 Terminal with 2 attachments\. \(Its answer was lost on the way/).waitFor();
      await shot(page, `lost-answer-2-${tag}`);
      await expectAccessible(page);
      // Stored once, by the first File: the retry found it and did not file again.
      expect(await suite.filedIn(suite.f.projectA1.id, `"lost answer ${tag}"`)).toHaveLength(1);
      await context.close();
    });
  }
});
