import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, openEmail, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * The score as a person reads it: a likely top suggestion is chosen already; an unsure e-mail shows the top choices
 * with none chosen, and File waits for a pick. By mouse and by keyboard, at 320 and 450 px, light and dark.
 */

/** An e-mail that names no project, from a sender who writes about several. */
const unsureEmail = {
  ...openEmail,
  internetMessageId: '<unsure-1@steel.example>',
  conversationId: 'AAQkADAwATM0MDAAMS1lbnN1cmU',
  subject: 'Quick question',
  bodyText: 'Hello Mia,\n\ncould you check the anchors we talked about?\n\nLee',
  bodyHtml: '<p>Hello Mia,</p><p>could you check the anchors we talked about?</p><p>Lee</p>',
  attachments: [],
};

describeInBrowser('likely and unsure suggestions', () => {
  const suite = useBrowserSuite();

  for (const width of [320, 450]) {
    for (const theme of ['light', 'dark'] as const) {
      const open = (item: object) => suite.openPane({ item, dark: theme === 'dark' }, { width });

      it(`at ${width} px, ${theme}: an unsure e-mail shows the choices, none chosen, and File asks for a pick`, async () => {
        const { context, page } = await open(unsureEmail);
        const group = page.getByRole('radiogroup', { name: 'Suggested projects' });
        await group.getByRole('radio').first().waitFor();
        expect(await group.getByRole('radio').count()).toBeGreaterThan(1);
        expect(await page.getByRole('radio', { checked: true }).count()).toBe(0);
        await page
          .getByText('Sitefile is not sure where this e-mail belongs. Pick one of these, or a project below.')
          .waitFor();
        const file = page.getByRole('button', { name: 'File', exact: true });
        expect(await file.isDisabled()).toBe(true);
        await page.getByText('Pick a project to file this e-mail.').waitFor();
        await shot(page, `unsure-${width}-${theme}`);
        await expectAccessible(page);
        if (theme === 'light') {
          // By mouse: a click on the second choice chooses it.
          await group.getByRole('radio').nth(1).click();
        } else {
          // By keyboard: Tab into the group, an arrow moves to the next choice and chooses it.
          await group.getByRole('radio').first().focus();
          await page.keyboard.press('Space');
          await page.keyboard.press('ArrowDown');
        }
        await group
          .getByRole('radio')
          .nth(1)
          .and(page.getByRole('radio', { checked: true }))
          .waitFor();
        expect(await file.isEnabled()).toBe(true);
        expect(await page.getByText('Pick a project to file this e-mail.').count()).toBe(0);
        await shot(page, `unsure-picked-${width}-${theme}`);
        await context.close();
      });
    }
  }

  // After the unsure ones: filing teaches the sender's history, which makes later e-mails of his likelier.
  for (const width of [320, 450]) {
    for (const theme of ['light', 'dark'] as const) {
      const open = (item: object) => suite.openPane({ item, dark: theme === 'dark' }, { width });
      it(`at ${width} px, ${theme}: a likely project is preselected and File files it`, async () => {
        const { context, page } = await open({ ...openEmail, internetMessageId: `<likely-${width}-${theme}@x>` });
        await page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
        expect(await page.getByText('Pick a project to file this e-mail.').count()).toBe(0);
        await shot(page, `likely-${width}-${theme}`);
        await page.getByRole('button', { name: 'File', exact: true }).click();
        await page.getByText(/Filed in Pier 9 Terminal with/).waitFor();
        await context.close();
      });
    }
  }
});
