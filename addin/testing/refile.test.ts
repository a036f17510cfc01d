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
      if (input === 'mouse') {
        await picker.click();
        await picker.pressSequentially('pier');
        await page.getByRole('option', { name: 'Pier 9 Terminal' }).click();
      } else {
        await chooseByKeyboard(picker, 'pier', 'Pier 9 Terminal');
      }
      await pressBy(page.getByRole('button', { name: 'File', exact: true }), input);
      await page.getByText('Filed in Pier 9 Terminal with 2 attachments.').waitFor();
      expect(await officeHostState(page, 'categories')).toEqual(['Filed: Pier 9 Terminal']);

      // Move, from the result of filing.
      await pressBy(page.getByRole('button', { name: 'Move it from Pier 9 Terminal to another project' }), input);
      const moveTo = page.getByRole('combobox', { name: 'Move from Pier 9 Terminal to' });
      if (input === 'mouse') {
        await moveTo.click();
        await moveTo.pressSequentially('dock');
        await page.getByRole('option', { name: 'Dockside Offices' }).click();
      } else {
        await chooseByKeyboard(moveTo, 'dock', 'Dockside Offices');
      }
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
      expect(await page.getByText(/Already filed in/).count()).toBe(0);
      expect(await officeHostState(page, 'categories')).toEqual([]);
      expect(await suite.filedIn(f.projectA2.id, `"Refile ${tag}"`)).toEqual([]);
      await shot(page, `refile-${tag}-unfiled`);
      await expectAccessible(page);
      await context.close();
    }, 60_000);
  }
});
