import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, openEmail, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * Every drop-down driven with the mouse, as most people use it: at the two narrowest task-pane widths, in Office's
 * light and dark themes. While a list is open, the rest of the pane must stay visible and clickable (nothing may
 * cover it), and picking an option with a click must take.
 */

/** The element at the centre of `target` is `target` (or inside it): nothing covers it. */
async function expectUncovered(target: Locator) {
  await target.waitFor();
  const uncovered = await target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && element.contains(hit);
  });
  expect(uncovered, 'the element is covered while the list is open').toBe(true);
}

/** Opens a picker with a click, checks the pane around it, and clicks `option`. */
async function pickWithMouse(page: Page, picker: Locator, option: string, around: Locator[], screenshot: string) {
  await picker.click();
  const listbox = page.getByRole('listbox');
  await listbox.waitFor();
  await page.getByRole('option', { name: option }).waitFor();
  for (const element of around) await expectUncovered(element);
  await shot(page, screenshot);
  // The open list is a state of its own for screen readers.
  await expectAccessible(page);
  await page.getByRole('option', { name: option }).click();
  await listbox.waitFor({ state: 'hidden' });
}

describeInBrowser('pickers with the mouse', () => {
  const suite = useBrowserSuite();

  for (const width of [320, 350]) {
    for (const theme of ['light', 'dark'] as const) {
      it(`at ${width} px in Office's ${theme} theme: project, RFI and filed-e-mails pickers`, async () => {
        const { context, page } = await suite.openPane(
          { item: openEmail, dark: theme === 'dark' },
          { width, colorScheme: theme === 'dark' ? 'light' : 'dark' },
        );
        await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
        const heading = page.getByRole('heading', { name: openEmail.subject });
        const signOut = page.getByRole('button', { name: 'Sign out' });
        const tag = `${width}-${theme}`;

        const project = page.getByRole('combobox', { name: 'Or choose a project' });
        await pickWithMouse(page, project, 'Dockside Offices', [heading, signOut], `mouse-${tag}-project`);
        expect(await project.inputValue()).toBe('Dockside Offices');
        expect(await page.getByRole('radio', { name: /Dockside Offices/ }).isChecked()).toBe(true);

        await pickWithMouse(page, project, 'Pier 9 Terminal', [heading, signOut], `mouse-${tag}-project-again`);
        const rfi = page.getByRole('combobox', { name: 'RFI or submittal (optional)' });
        await pickWithMouse(
          page,
          rfi,
          'RFI-014 · Curtain wall anchor spacing',
          [heading, page.getByRole('radio', { name: /Pier 9 Terminal/ })],
          `mouse-${tag}-rfi`,
        );
        expect(await rfi.inputValue()).toBe('RFI-014 · Curtain wall anchor spacing');
        await expectUncovered(page.getByRole('button', { name: 'File', exact: true }));
        await expectAccessible(page);

        await page.getByRole('tab', { name: 'Filed e-mails' }).click();
        const filedProject = page.getByRole('combobox', { name: 'Project' });
        await pickWithMouse(
          page,
          filedProject,
          'Pier 9 Terminal',
          [page.getByRole('tab', { name: 'Filed e-mails' }), signOut],
          `mouse-${tag}-filed`,
        );
        await page.getByText(/^\d+\+? filed e-mails?$/).waitFor();
        await expectAccessible(page);
        await context.close();
        // Three lists opened, each checked with axe: allow for a busy machine.
      });
    }
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`the admin console’s Organization field, by mouse, in ${colorScheme}`, async () => {
      const { context, page } = await suite.openAdmin({
        width: 1024,
        height: 800,
        colorScheme,
        signInAs: ['staff@sitefile.test', 'staff-pass-1'],
      });
      const organization = page.getByRole('combobox', { name: 'Organization' });
      await organization.waitFor();
      await pickWithMouse(
        page,
        organization,
        'Ridgeline Builders',
        [page.getByRole('heading', { name: 'Sitefile admin console' }), page.getByRole('button', { name: 'Sign out' })],
        `mouse-admin-organization-${colorScheme}`,
      );
      await page.getByText(/someone in Ridgeline Builders opens/).waitFor();
      await expectAccessible(page);
      await context.close();
    });
  }
});
