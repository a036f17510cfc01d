import type { Locator } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  chooseByKeyboard,
  describeInBrowser,
  expectAccessible,
  officeHostState,
  openEmail,
  pressBy,
  shot,
} from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * Putting a filing right from the pane: file an e-mail, move it to another project, unfile it from there. The
 * server, the "Already filed" list and Outlook's "Filed: …" category (Mailbox 1.8 categories.addAsync /
 * removeAsync) follow each step.
 */

/** Picks `option` in a project picker after typing `typed`, by mouse or keyboard. */
async function choose(picker: Locator, input: 'mouse' | 'keyboard', typed: string, option: string) {
  if (input === 'keyboard') return chooseByKeyboard(picker, typed, option);
  await picker.click();
  await picker.pressSequentially(typed);
  await picker.page().getByRole('option', { name: option }).click();
}

describeInBrowser('unfiling and moving a filing from the pane', () => {
  const suite = useBrowserSuite();

  for (const { input, width, theme } of [
    { input: 'mouse', width: 320, theme: 'light' },
    { input: 'keyboard', width: 450, theme: 'dark' },
    { input: 'keyboard', width: 320, theme: 'dark' },
    { input: 'mouse', width: 450, theme: 'light' },
  ] as const) {
    it(`files, moves and unfiles an e-mail (${input}, ${width} px, ${theme})`, async () => {
      const tag = `${input}-${width}-${theme}`;
      const email = {
        ...openEmail,
        itemId: `item-refile-${tag}`,
        internetMessageId: `<refile-${tag}@steel.example>`,
        conversationId: `conv-refile-${tag}`,
        subject: `Refile ${tag}: curtain wall anchor detail`,
      };
      const { context, page } = await suite.openPane(
        { item: email, mailboxMinor: 8, dark: theme === 'dark' },
        { width, colorScheme: theme },
      );
      const { f } = suite;
      const picker = page.getByRole('combobox', { name: 'Or choose a project' });
      await picker.waitFor();
      await choose(picker, input, 'pier', 'Pier 9 Terminal');
      await pressBy(page.getByRole('button', { name: 'File', exact: true }), input);
      await page.getByText('Filed in Pier 9 Terminal with 2 attachments.').waitFor();
      expect(await officeHostState(page, 'categories')).toEqual(['Filed: Pier 9 Terminal']);

      // Move, from the result of filing.
      await pressBy(page.getByRole('button', { name: 'Move it from Pier 9 Terminal to another project' }), input);
      const moveTo = page.getByRole('combobox', { name: 'Move from Pier 9 Terminal to' });
      await choose(moveTo, input, 'dock', 'Dockside Offices');
      expect(await page.getByRole('button', { name: 'Move to Dockside Offices' }).isEnabled()).toBe(true);
      await shot(page, `refile-${tag}-move`);
      await expectAccessible(page);
      await pressBy(page.getByRole('button', { name: 'Move to Dockside Offices' }), input);
      await page
        .getByText(
          'Moved from Pier 9 Terminal to Dockside Offices. Outlook shows “Filed: Dockside Offices” instead of “Filed: Pier 9 Terminal”.',
        )
        .waitFor();
      await page.getByText(/Already filed in Dockside Offices by Mia Member on/).waitFor();
      expect(await officeHostState(page, 'categories')).toEqual(['Filed: Dockside Offices']);
      expect(await suite.filedIn(f.projectA1.id, `"Refile ${tag}"`)).toEqual([]);
      expect((await suite.filedIn(f.projectA2.id, `"Refile ${tag}"`)).map((e) => e.subject)).toEqual([email.subject]);
      await shot(page, `refile-${tag}-moved`);
      await expectAccessible(page);

      // Unfile, from the list of where it is filed.
      await pressBy(page.getByRole('button', { name: 'Unfile it from Dockside Offices' }), input);
      await page.getByText('Unfiled from Dockside Offices. Removed “Filed: Dockside Offices” in Outlook.').waitFor();
      // The button pressed went with the filing: the focus is on what happened.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
        'Unfiled from Dockside Offices. Removed “Filed: Dockside Offices” in Outlook.',
      );
      expect(await page.getByText(/Already filed in/).count()).toBe(0);
      expect(await officeHostState(page, 'categories')).toEqual([]);
      expect(await suite.filedIn(f.projectA2.id, `"Refile ${tag}"`)).toEqual([]);
      await shot(page, `refile-${tag}-unfiled`);
      await expectAccessible(page);
      await context.close();
    });
  }

  for (const { input, width, theme } of [
    { input: 'keyboard', width: 320, theme: 'light' },
    { input: 'mouse', width: 450, theme: 'dark' },
  ] as const) {
    it(`moves and unfiles a filing found under Filed e-mails (${input}, ${width} px, ${theme})`, async () => {
      const { f, server } = suite;
      const tag = `found-${input}-${width}-${theme}`;
      const filed = await server.call(`/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails`, {
        method: 'POST',
        token: f.admin.token,
        json: {
          subject: `Crane ${tag} lift plan`,
          from: 'lee@steel.example',
          to: ['member@harbor.test'],
          internetMessageId: `<${tag}@steel.example>`,
          bodyText: 'The lift plan for the tower crane.',
        },
      });
      expect(filed.status).toBe(201);
      const { context, page } = await suite.openPane(
        { item: openEmail, mailboxMinor: 8, dark: theme === 'dark' },
        { width, colorScheme: theme },
      );
      /** Opens the e-mail found in `project`, or searched in all projects when none is given. */
      const openFound = async (project?: { name: string; typed: string }) => {
        await pressBy(page.getByRole('tab', { name: 'Filed e-mails' }), input);
        if (project) await choose(page.getByRole('combobox', { name: 'Project' }), input, project.typed, project.name);
        else await pressBy(page.getByRole('button', { name: 'All projects instead' }), input);
        await page.getByRole('searchbox', { name: 'Search filed e-mails' }).fill(`"${tag}"`);
        await pressBy(page.getByRole('button', { name: 'Search' }), input);
        await pressBy(page.getByText(`Crane ${tag} lift plan`), input);
        await page.getByRole('heading', { name: `Crane ${tag} lift plan` }).waitFor();
      };

      await openFound({ name: 'Pier 9 Terminal', typed: 'pier' });
      await pressBy(page.getByRole('button', { name: 'Move it from Pier 9 Terminal to another project' }), input);
      const moveTo = page.getByRole('combobox', { name: 'Move from Pier 9 Terminal to' });
      await choose(moveTo, input, 'dock', 'Dockside Offices');
      await pressBy(page.getByRole('button', { name: 'Move to Dockside Offices' }), input);
      await page.getByText(/^Moved from Pier 9 Terminal to Dockside Offices\./).waitFor();
      await shot(page, `refile-${tag}-moved`);
      await expectAccessible(page);
      await pressBy(page.getByRole('button', { name: '← Back to the list' }), input);
      await page.getByText('No filed e-mail matches.').waitFor();
      expect((await suite.filedIn(f.projectA2.id, `"${tag}"`)).map((e) => e.subject)).toEqual([
        `Crane ${tag} lift plan`,
      ]);

      // Searched in all projects, the e-mail names its project, and so do its buttons.
      await openFound();
      await pressBy(page.getByRole('button', { name: 'Unfile it from Dockside Offices' }), input);
      await page.getByText(/^Unfiled from Dockside Offices\./).waitFor();
      await shot(page, `refile-${tag}-unfiled`);
      await expectAccessible(page);
      expect(await suite.filedIn(f.projectA2.id, `"${tag}"`)).toEqual([]);
      // The e-mail open in Outlook is another one: its categories are left alone.
      expect(await officeHostState(page, 'calls')).not.toContainEqual(
        expect.stringMatching(/^categories\.removeAsync/),
      );
      await context.close();
    });
  }
});
