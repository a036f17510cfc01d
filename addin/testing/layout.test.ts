import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, openEmail, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * The pane at the narrowest widths Outlook gives it (320 and 350 px), in Office's light and dark themes: the
 * attachment list, the theme edge to edge, what screen readers hear with a suggestion, and where focus goes after
 * File. Sizes are what Outlook reports for each attachment; the content behind them is small.
 */

const MB = 1024 * 1024;
const longName = 'Pier-9-Terminal-curtain-wall-anchor-detail-revision-C-with-structural-engineer-comments-final.pdf';
const heavyEmail = {
  ...openEmail,
  internetMessageId: '<heavy-1@steel.example>',
  attachments: [
    { ...openEmail.attachments[0]!, id: 'att-long', name: longName, contentType: 'application/pdf', size: 18 * MB },
    { ...openEmail.attachments[1]!, size: 9 * MB },
    { ...openEmail.attachments[0]!, id: 'att-3', size: 38 },
  ],
};

/** The colour painted at a point of the window (the element there, or its nearest painted ancestor). */
const paintAt = (page: Page, x: number, y: number) =>
  page.evaluate(
    ([px, py]) => {
      for (let element = document.elementFromPoint(px!, py!); element; element = element.parentElement) {
        const colour = getComputedStyle(element).backgroundColor;
        if (colour !== 'rgba(0, 0, 0, 0)') return colour;
      }
      return 'none';
    },
    [x, y],
  );

describeInBrowser('the narrow pane', () => {
  const suite = useBrowserSuite();

  const openPane = async (item: object, width: number, theme: 'light' | 'dark') => {
    // The system's scheme is the opposite of Office's theme: the pane must follow Office.
    const { context, page } = await suite.openPane(
      { item, dark: theme === 'dark' },
      { width, colorScheme: theme === 'dark' ? 'light' : 'dark' },
    );
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    // The page's clock starts at its navigation.
    return { context, page, msToSuggestions: Math.round(await page.evaluate(() => performance.now())) };
  };

  for (const width of [320, 350]) {
    for (const theme of ['light', 'dark'] as const) {
      it(`at ${width} px in Office's ${theme} theme: edge to edge, one attachment a line, long names cut`, async () => {
        const { context, page } = await openPane(heavyEmail, width, theme);
        // No frame of another colour: every corner is the theme's background, the page has no margin.
        const background = theme === 'dark' ? 'rgb(41, 41, 41)' : 'rgb(255, 255, 255)';
        for (const [x, y] of [
          [0, 0],
          [width - 1, 0],
          [0, 899],
          [width - 1, 899],
        ] as const)
          expect(await paintAt(page, x, y), `corner ${x},${y}`).toBe(background);
        expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');

        const boxes = await page.getByRole('group', { name: 'Attachments to include' }).evaluate((group) =>
          [...group.querySelectorAll('label')].map((label) => {
            const box = label.getBoundingClientRect();
            const name = label.firstElementChild!;
            return {
              top: box.top,
              right: box.right,
              cut: name.scrollWidth > name.clientWidth,
              sizeRight: label.lastElementChild!.getBoundingClientRect().right,
              sizeText: label.lastElementChild!.textContent,
            };
          }),
        );
        expect(boxes).toHaveLength(3);
        // One per line, each below the one before.
        expect(boxes[1]!.top).toBeGreaterThan(boxes[0]!.top);
        expect(boxes[2]!.top).toBeGreaterThan(boxes[1]!.top);
        // The long name is cut inside the pane (its full name is the label's title); the pane never scrolls sideways.
        expect(boxes.map((b) => b.cut)).toEqual([true, false, false]);
        // The size stays in view after a cut name.
        expect(boxes[0]!.sizeText).toBe('(18\u00a0MB)');
        expect(boxes[0]!.sizeRight).toBeLessThanOrEqual(width);
        expect(Math.max(...boxes.map((b) => b.right))).toBeLessThanOrEqual(width);
        expect(await page.getByTitle(longName).count()).toBe(1);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
        await shot(page, `layout-${width}-${theme}`);
        await expectAccessible(page);
        await context.close();
      });
    }
  }

  it('selects all or none, shows the total size, and warns before filing more than 25 MB', async () => {
    const { context, page } = await openPane(heavyEmail, 320, 'light');
    const total = page.getByText(/^\d of 3 chosen · /);
    // Sizes keep number and unit together (a no-break space).
    const totalText = async () => (await total.textContent())!.replace('\u00a0', ' ');
    const warning = page.getByText(/^Together these are over the 25\u00a0MB Sitefile accepts for one e-mail\./);
    const boxes = page.getByRole('group', { name: 'Attachments to include' }).getByRole('checkbox');
    expect(await totalText()).toBe('3 of 3 chosen · 27 MB');
    await warning.waitFor();
    await page.getByRole('button', { name: 'Select none' }).click();
    expect(await totalText()).toBe('0 of 3 chosen · 0 B');
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(false);
    expect(await warning.count()).toBe(0);
    await page.getByRole('button', { name: 'Select all' }).click();
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(true);
    await warning.waitFor();
    await shot(page, '27-attachments-over-limit');
    await expectAccessible(page);
    // Leaving out the long drawing brings the e-mail under the limit: the warning goes.
    await page.getByRole('checkbox', { name: /curtain-wall-anchor/ }).uncheck();
    expect(await totalText()).toBe('2 of 3 chosen · 9 MB');
    expect(await warning.count()).toBe(0);
    await page.getByRole('button', { name: 'Select all' }).waitFor();
    await context.close();
  });

  it('reads each suggestion’s reasons as its radio button’s description', async () => {
    const { context, page } = await openPane(openEmail, 350, 'light');
    const radios = await page.getByRole('radiogroup', { name: 'Suggested projects' }).getByRole('radio').all();
    expect(radios.length).toBeGreaterThan(1);
    for (const radio of radios) {
      const description = await radio.evaluate((input) =>
        (input.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
          .trim(),
      );
      // The reasons shown under the radio button, e.g. "3 e-mails from steel.example filed here".
      expect(description).not.toBe('');
      expect(await radio.evaluate((input) => input.closest('div')!.textContent)).toContain(description);
    }
    await context.close();
  });

  it('puts the focus on the result after File, so keyboard and screen-reader users land on it', async () => {
    const { context, page } = await openPane(
      { ...openEmail, internetMessageId: '<focus-1@steel.example>' },
      320,
      'dark',
    );
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByText('Filed in Pier 9 Terminal with 2 attachments.').waitFor();
    const focused = await page.evaluate(() => ({
      id: document.activeElement?.getAttribute('data-testid'),
      text: document.activeElement?.textContent,
    }));
    expect(focused.id).toBe('filing-outcome');
    expect(focused.text).toMatch(/^FiledFiled in Pier 9 Terminal with 2 attachments\./);
    await shot(page, '05-filed-320-dark');
    await expectAccessible(page);
    await context.close();
  });

  it('follows Office’s dark theme by keyboard too', async () => {
    const { context, page, msToSuggestions } = await openPane(openEmail, 350, 'dark');
    // A figure for the docs (docs/addin.md), not an assertion: machines are noisy.
    console.log(`task pane opened to first suggestions: ${msToSuggestions} ms`);
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: /Dockside Offices/ }).isChecked()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Or choose a project' }).inputValue()).toBe('Dockside Offices');
    // The focus ring (around the focused radio button) covers none of the reasons above or below it.
    const covered = await page.evaluate(() => {
      const ring = document.activeElement!.closest('.fui-Radio')!.getBoundingClientRect();
      return [...document.querySelectorAll('input[type="radio"][aria-describedby]')]
        .map((radio) => document.getElementById(radio.getAttribute('aria-describedby')!)!)
        .filter((reasons) => {
          const box = reasons.getBoundingClientRect();
          return box.top < ring.bottom && box.bottom > ring.top;
        })
        .map((reasons) => reasons.textContent);
    });
    expect(covered).toEqual([]);
    await shot(page, '09-dark-mode');
    await expectAccessible(page);
    await context.close();
  });
});
