import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, openEmail, paneLayouts, pressBy, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * In view at 320×720 (and 450×720): File is on screen without scrolling for a typical e-mail (two suggestions, an
 * RFI suggested, two attachments), its result is on screen after filing, and the reasons are short (two lines at
 * most) and never name the person reading them. By mouse and keyboard, light and dark.
 */

/** Whether the element lies wholly inside the window, as it is scrolled now. */
const inView = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });

const scrolled = (page: Page) => page.evaluate(() => document.scrollingElement?.scrollTop ?? 0);

describeInBrowser('in view at 720 px', () => {
  const suite = useBrowserSuite();

  for (const { input, width, theme } of paneLayouts) {
    const tag = `${input}-${width}-${theme}`;
    it(`File and its result are in view, reasons short and not about the reader (${tag})`, async () => {
      const { context, page } = await suite.openPane(
        {
          item: {
            ...openEmail,
            itemId: `item-view-${tag}`,
            internetMessageId: `<in-view-${tag}@steel.example>`,
            conversationId: `conv-view-${tag}`,
            subject: `Pier 9 Terminal: RFI-014 anchors ${tag}`,
          },
          dark: theme === 'dark',
        },
        { width, height: 720, colorScheme: theme },
      );
      await page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
      const rfi = page.getByRole('combobox', { name: 'RFI or submittal (optional)' });
      await expect.poll(() => rfi.inputValue()).toBe('RFI-014 · Curtain wall anchor spacing');
      const file = page.getByRole('button', { name: 'File', exact: true });
      expect(await scrolled(page)).toBe(0);
      expect(await inView(file)).toBe(true);
      // Reasons: at most two lines each, none naming Mia Member or her address.
      const texts = await page.getByRole('radiogroup').locator('.fui-Caption1').allTextContents();
      expect(texts.length).toBeGreaterThan(0);
      for (const t of texts) expect(t).not.toMatch(/\bmia\b|member@harbor\.test/i);
      const heights = await page
        .getByRole('radiogroup')
        .locator('.fui-Caption1')
        .evaluateAll((els) =>
          els.map((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
        );
      for (const lines of heights) expect(lines).toBeLessThanOrEqual(2.05);
      await shot(page, `in-view-before-${tag}`);
      await expectAccessible(page);
      await pressBy(file, input);
      const outcome = page.getByTestId('filing-outcome');
      await page.getByText(/Filed in Pier 9 Terminal on RFI-014/).waitFor();
      await expect.poll(() => inView(outcome)).toBe(true);
      await page.screenshot({ path: `test/artifacts/addin/in-view-after-${tag}.png` });
      await expectAccessible(page);
      await context.close();
    });
  }
});
