import type { Locator } from 'playwright-core';
import { expect, it } from 'vitest';
import { documents } from '../../server/db/schema.js';
import { describeInBrowser, expectAccessible, openEmail, paneLayouts, pressBy, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * Filing onto an RFI or submittal: the document the server suggests is chosen already (and can be cleared), a typed
 * number picks the document whose own number it is (RFI-080 for "080", not the newer SUB-080 nor SUB-1080), the
 * result names the document, and RFI-014 of two projects is told apart by its title. By mouse and keyboard, at 320
 * and 450 px, light and dark.
 */

/**
 * Picks `option` after typing `typed`: by keyboard, the option typing made the active one is taken with Enter (the
 * best match comes first); by mouse, a click on it.
 */
async function choose(picker: Locator, input: 'mouse' | 'keyboard', typed: string, option: string) {
  const page = picker.page();
  if (input === 'keyboard') {
    await picker.focus();
    await page.keyboard.type(typed);
    await expect.poll(() => activeOptionText(picker)).toBe(option);
    return page.keyboard.press('Enter');
  }
  await picker.click();
  await picker.pressSequentially(typed);
  await page.getByRole('option', { name: option }).click();
}

async function activeOptionText(picker: Locator) {
  const active = await picker.getAttribute('aria-activedescendant');
  return active ? picker.page().locator(`[id="${active}"]`).textContent() : null;
}

describeInBrowser('filing onto an RFI or submittal', () => {
  const suite = useBrowserSuite();

  it('sets up documents whose numbers repeat', async () => {
    const { f } = suite;
    const doc = (id: string, projectId: string, number: string, format: string, title: string, updated: string) => ({
      id,
      organizationId: f.orgA.id,
      projectId,
      number,
      format,
      type: format === 'rfi' ? 'RFI' : 'Submittal',
      title,
      status: 'pending',
      updatedAt: new Date(updated),
    });
    await suite.server.database.db
      .insert(documents)
      .values([
        doc('doc_rfi080', f.projectA1.id, 'RFI-080', 'rfi', 'Embed plate tolerance', '2026-01-01T00:00:00Z'),
        doc('doc_sub080', f.projectA1.id, 'SUB-080', 'submittal', 'Anchor bolt product data', '2026-03-01T00:00:00Z'),
        doc('doc_sub1080', f.projectA1.id, 'SUB-1080', 'submittal', 'Glazing samples', '2026-03-02T00:00:00Z'),
        doc('doc_dock014', f.projectA2.id, 'RFI-014', 'rfi', 'Handrail post spacing', '2026-01-05T00:00:00Z'),
      ]);
  });

  for (const { input, width, theme } of paneLayouts) {
    const tag = `${input}-${width}-${theme}`;
    const open = (item: object) =>
      suite.openPane({ item, dark: theme === 'dark' }, { width, height: 720, colorScheme: theme });

    it(`preselects the suggested RFI, names it with its title, and files onto it (${tag})`, async () => {
      const { context, page } = await open({
        ...openEmail,
        itemId: `item-rfi-${tag}`,
        internetMessageId: `<rfi-014-${tag}@steel.example>`,
        conversationId: `conv-rfi-014-${tag}`,
        subject: `Pier 9 Terminal: RFI-014 anchor spacing ${tag}`,
      });
      const picker = page.getByRole('combobox', { name: 'RFI or submittal (optional)' });
      await expect.poll(() => picker.inputValue()).toBe('RFI-014 · Curtain wall anchor spacing');
      await page.getByText('Suggested.').waitFor();
      // The suggestion says which RFI-014 it means: Pier 9's, by its title.
      await page
        .getByText(/On RFI-014 · Curtain wall anchor spacing\./)
        .first()
        .waitFor();
      await shot(page, `rfi-suggested-${tag}`);
      await expectAccessible(page);
      await pressBy(page.getByRole('button', { name: 'File', exact: true }), input);
      await page
        .getByText('Filed in Pier 9 Terminal on RFI-014 · Curtain wall anchor spacing with 2 attachments.')
        .waitFor();
      await shot(page, `rfi-filed-${tag}`);
      await expectAccessible(page);
      const [filed] = await suite.filedIn(suite.f.projectA1.id, `"RFI-014 anchor spacing ${tag}"`);
      expect((await suite.filedEmail(suite.f.projectA1.id, filed!.id)).documentId).toBe('doc_rfi014');
      await context.close();
    });

    it(`"080" picks RFI-080, not SUB-080 nor SUB-1080 (${tag})`, async () => {
      const { context, page } = await open({
        ...openEmail,
        itemId: `item-080-${tag}`,
        internetMessageId: `<rfi-080-${tag}@steel.example>`,
        conversationId: `conv-rfi-080-${tag}`,
        subject: `Pier 9 Terminal: embed plates ${tag}`,
      });
      await page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
      const picker = page.getByRole('combobox', { name: 'RFI or submittal (optional)' });
      await picker.waitFor();
      // The list as the person sees it: the RFI whose own number is 80 first, the newer submittals after it.
      const options = page.getByRole('option');
      await picker.click();
      await picker.pressSequentially('080');
      await expect
        .poll(() => options.allTextContents())
        .toEqual([
          'RFI-080 · Embed plate tolerance',
          'SUB-080 · Anchor bolt product data',
          'SUB-1080 · Glazing samples',
        ]);
      await shot(page, `rfi-080-list-${tag}`);
      await expectAccessible(page);
      await page.keyboard.press('Escape');
      await choose(picker, input, '080', 'RFI-080 · Embed plate tolerance');
      await expect.poll(() => picker.inputValue()).toBe('RFI-080 · Embed plate tolerance');
      // "sub 80" is the submittal.
      await choose(picker, input, 'sub 80', 'SUB-080 · Anchor bolt product data');
      await expect.poll(() => picker.inputValue()).toBe('SUB-080 · Anchor bolt product data');
      await pressBy(page.getByRole('button', { name: 'File', exact: true }), input);
      await page
        .getByText('Filed in Pier 9 Terminal on SUB-080 · Anchor bolt product data with 2 attachments.')
        .waitFor();
      await shot(page, `rfi-080-filed-${tag}`);
      await context.close();
    });
  }

  it('a cleared suggestion stays cleared and the e-mail is filed into the project only', async () => {
    const { context, page } = await suite.openPane(
      {
        item: {
          ...openEmail,
          itemId: 'item-rfi-cleared',
          internetMessageId: '<rfi-014-cleared@steel.example>',
          conversationId: 'conv-rfi-014-cleared',
          subject: 'Pier 9 Terminal: RFI-014 anchor spacing, cleared',
        },
      },
      { width: 320, height: 720 },
    );
    const picker = page.getByRole('combobox', { name: 'RFI or submittal (optional)' });
    await expect.poll(() => picker.inputValue()).toBe('RFI-014 · Curtain wall anchor spacing');
    await pressBy(page.getByRole('button', { name: 'File into the project only' }), 'keyboard');
    await expect.poll(() => picker.inputValue()).toBe('');
    await page.getByText('Leave empty to file into the project only.').waitFor();
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByText('Filed in Pier 9 Terminal with 2 attachments.').waitFor();
    await context.close();
  });
});
