import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, openEmail, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * The Filed e-mails tab searches every project the person may read until one is chosen (issue 39, "find
 * anything"): "facade" finds "Façade" in two projects, each result naming its project; choosing a project narrows,
 * and "All projects instead" widens again. By keyboard and mouse, 320 and 450 px, light and dark, axe.
 */

describeInBrowser('searching all filed mail in the pane', () => {
  const suite = useBrowserSuite();

  beforeAll(async () => {
    const { server, f } = suite;
    const filings = [
      { projectId: f.projectA1.id, subject: 'Façade anchors, revision B', id: '<facade-1@steel.example>' },
      { projectId: f.projectA2.id, subject: 'Dockside façade colours', id: '<facade-2@steel.example>' },
    ];
    for (const filing of filings) {
      const res = await server.call(`/v1/organization/${f.orgA.id}/project/${filing.projectId}/emails`, {
        method: 'POST',
        token: f.admin.token,
        json: {
          subject: filing.subject,
          from: { address: 'zoe@glaze.example', name: 'Zoë Glaze' },
          to: ['admin@harbor.test'],
          internetMessageId: filing.id,
          bodyText: 'See the attached elevation.',
        },
      });
      expect(res.status).toBe(201);
    }
  });

  const cases = [
    { width: 320, theme: 'light', input: 'keyboard' },
    { width: 450, theme: 'dark', input: 'mouse' },
  ] as const;

  for (const { width, theme, input } of cases) {
    it(`finds "facade" in every project, then in one (${input}, ${width} px, ${theme})`, async () => {
      const { context, page } = await suite.openPane(
        { item: openEmail, dark: theme === 'dark' },
        { width, colorScheme: theme },
      );
      await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
      await page.getByRole('tab', { name: 'Filed e-mails' }).click();
      const box = page.getByRole('searchbox', { name: 'Search filed e-mails' });
      if (input === 'keyboard') {
        await box.focus();
        await page.keyboard.type('facade');
        await page.keyboard.press('Enter');
      } else {
        await box.click();
        await box.pressSequentially('facade');
        await page.getByRole('button', { name: 'Search', exact: true }).click();
      }
      await page.getByText('2 filed e-mails', { exact: true }).waitFor();
      await page.getByText(/^In Dockside Offices · From Zoë Glaze/).waitFor();
      await page.getByText(/^In Pier 9 Terminal · From Zoë Glaze/).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      await shot(page, `filed-search-all-${width}-${theme}`);
      await expectAccessible(page);

      // One project chosen: only its mail.
      const picker = page.getByRole('combobox', { name: 'Project' });
      await picker.click();
      await picker.pressSequentially('dockside');
      await page.getByRole('option', { name: 'Dockside Offices' }).click();
      await page.getByText('1 filed e-mail', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Dockside façade colours' }).waitFor();
      // And back to every project.
      const widen = page.getByRole('button', { name: 'All projects instead' });
      if (input === 'keyboard') {
        await widen.focus();
        await page.keyboard.press('Enter');
      } else await widen.click();
      await page.getByText('2 filed e-mails', { exact: true }).waitFor();
      expect(await picker.inputValue()).toBe('');
      await context.close();
    });
  }
});
