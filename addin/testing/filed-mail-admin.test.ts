import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  chooseByKeyboard,
  describeInBrowser,
  expectAccessible,
  fileByApi,
  paneLayouts,
  pressBy,
  shot,
} from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * The admin console's filed e-mail, as an organization admin uses it by mouse and by keyboard at 320 and 450 px,
 * light and dark: find filings by subject or sender, unfile one and move another, each after a confirmation; the
 * list and the server follow.
 */
describeInBrowser('filed e-mail in the admin console', () => {
  const suite = useBrowserSuite({ signIn: false });
  let admin: BrowserContext;

  beforeAll(async () => {
    ({ context: admin } = await suite.openAdmin({ signInAs: ['admin@harbor.test', 'admin-pass-1'] }));
  });
  afterAll(() => admin?.close());

  /** Files an e-mail into Pier 9 Terminal (Harbor's project A1) as Ada Admin. */
  const fileIntoPier9 = (subject: string, from: string) =>
    fileByApi(suite.server, suite.f, suite.f.projectA1.id, {
      subject,
      from,
      internetMessageId: `<${subject.replace(/\W+/g, '-')}@steel.example>`,
      bodyText: 'Filed for the console test.',
    });

  /** Picks `option` in a project picker after typing `typed`, by mouse or keyboard. */
  async function choose(picker: Locator, input: 'mouse' | 'keyboard', typed: string, option: string) {
    if (input === 'keyboard') return chooseByKeyboard(picker, typed, option);
    await picker.click();
    await picker.pressSequentially(typed);
    await picker.page().getByRole('option', { name: option }).click();
  }

  /** The filed e-mail card alone, beside the whole page's shot: the page is long. */
  const cardShot = (page: Page, name: string) =>
    page
      .locator('.fui-Card')
      .filter({ hasText: 'E-mail filed in the projects you may read' })
      .screenshot({ path: `test/artifacts/addin/${name}-card.png` });

  /** Answers the next confirmation with OK and returns its question. */
  const confirmNext = (page: Page) => {
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    return asked;
  };

  const senders = ['alpha', 'bravo', 'charlie', 'delta'].map((name) => `rhea@railworks-${name}.example`);
  for (const [i, { input, width, theme }] of paneLayouts.entries()) {
    it(`finds, unfiles and moves filed e-mail (${input}, ${width} px, ${theme})`, async () => {
      const { f } = suite;
      const tag = `${input}-${width}-${theme}`;
      const unfiled = `Console ${tag} crane lift plan`;
      const moved = `Console ${tag} handrail shop drawings`;
      await fileIntoPier9(unfiled, 'lee@steel.example');
      await fileIntoPier9(moved, senders[i]!);
      const { context, page } = await suite.openAdmin({ width, colorScheme: theme, signedIn: admin });
      const table = page.getByRole('table', { name: 'Filed e-mail' });

      // Search by subject words.
      const search = page.getByRole('searchbox', { name: 'Search by subject, sender or words' });
      if (input === 'keyboard') {
        await search.focus();
        await page.keyboard.type(`Console ${tag}`);
        await page.keyboard.press('Enter');
      } else {
        await search.fill(`Console ${tag}`);
        await page.getByRole('button', { name: 'Search', exact: true }).click();
      }
      await table.getByText(unfiled).waitFor();
      await table.getByText(moved).waitFor();
      const rows = table.getByRole('row').filter({ hasText: 'Console ' });
      expect(await rows.count()).toBe(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      await shot(page, `60-admin-filed-${tag}-found`);
      await cardShot(page, `60-admin-filed-${tag}-found`);
      await expectAccessible(page);

      // Unfile, after saying what it does.
      const askedUnfile = confirmNext(page);
      await pressBy(page.getByRole('button', { name: `Unfile “${unfiled}” from Pier 9 Terminal` }), input);
      await page.getByRole('status').getByText(`Unfiled “${unfiled}” from Pier 9 Terminal.`).waitFor();
      expect(askedUnfile[0]).toMatch(/^Unfile “.*” from Pier 9 Terminal\?/);
      await expect.poll(() => table.getByText(unfiled).count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('status');
      expect(await suite.filedIn(f.projectA1.id, `"${unfiled}"`)).toEqual([]);

      // Search by sender, then move with the project picker (words typed loosely), after a confirmation.
      await search.fill(senders[i]!);
      await pressBy(page.getByRole('button', { name: 'Search', exact: true }), input);
      await expect.poll(() => rows.count()).toBe(1);
      await pressBy(page.getByRole('button', { name: `Move “${moved}” to another project` }), input);
      await choose(
        page.getByRole('combobox', { name: 'Move from Pier 9 Terminal to' }),
        input,
        'dock offic',
        'Dockside Offices',
      );
      await shot(page, `61-admin-filed-${tag}-move`);
      await cardShot(page, `61-admin-filed-${tag}-move`);
      await expectAccessible(page);
      const askedMove = confirmNext(page);
      await pressBy(page.getByRole('button', { name: 'Move to Dockside Offices' }), input);
      await page.getByRole('status').getByText(`Moved “${moved}” from Pier 9 Terminal to Dockside Offices.`).waitFor();
      expect(askedMove).toEqual([`Move “${moved}” from Pier 9 Terminal to Dockside Offices?`]);
      await expect.poll(() => rows.filter({ hasText: 'Dockside Offices' }).count()).toBe(1);
      expect(await rows.filter({ hasText: 'Pier 9 Terminal' }).count()).toBe(0);
      expect(await suite.filedIn(f.projectA1.id, `"${moved}"`)).toEqual([]);
      expect((await suite.filedIn(f.projectA2.id, `"${moved}"`)).map((e) => e.subject)).toEqual([moved]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      await shot(page, `62-admin-filed-${tag}-moved`);
      await cardShot(page, `62-admin-filed-${tag}-moved`);
      await expectAccessible(page);
      await context.close();
    });
  }

  it('asks before unfiling: Cancel leaves the filing where it is', async () => {
    const { f } = suite;
    const subject = 'Console cancelled unfile of the pour record';
    await fileIntoPier9(subject, 'lee@steel.example');
    const { context, page } = await suite.openAdmin({ signedIn: admin });
    await page.getByRole('searchbox', { name: 'Search by subject, sender or words' }).fill('cancelled unfile');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: `Unfile “${subject}” from Pier 9 Terminal` }).click();
    await page.getByRole('table', { name: 'Filed e-mail' }).getByText(subject).waitFor();
    expect((await suite.filedIn(f.projectA1.id, `"${subject}"`)).map((e) => e.subject)).toEqual([subject]);
    await context.close();
  });
});
