import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import {
  chooseByKeyboard,
  describeInBrowser,
  expectAccessible,
  officeHostState,
  openEmail,
  origin,
  pressBy,
  shot,
} from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * A pinned pane over a day of mail: the stand-in host selects one e-mail after another (Outlook's ItemChanged),
 * and each e-mail gets a form of its own, derived from that e-mail alone. Nothing the person chose for one e-mail
 * (project, RFI, note, attachment ticks) is carried to the next, with the mouse or with the keyboard; coming back
 * to an e-mail not filed, its form is as the person left it.
 */

/** A second e-mail from the sender whose mail goes to Dockside Offices, with one attachment of its own. */
const dockside = {
  ...openEmail,
  internetMessageId: '<handrail-fixings-3@steel.example>',
  conversationId: 'AAQkADAwATM0MDAAMS1hYjQ4',
  subject: 'Dockside handrail fixings',
  from: { address: 'ops@steel.example', name: 'Ops Desk' },
  bodyText: 'The handrail fixings for Dockside are attached.',
  attachments: [
    {
      id: 'att-d1',
      name: 'fixings.txt',
      contentType: 'text/plain',
      size: 21,
      isInline: false,
      content: Buffer.from('M10 anchors, 4 per post').toString('base64'),
    },
  ],
};

const select = (page: Page, spec: unknown) =>
  page.evaluate(
    (next) => (window as unknown as { __officeHost: { select(s: unknown): void } }).__officeHost.select(next),
    spec,
  );

/** What a person sees of the form: the project chosen, the note, the attachment counter. */
async function formOf(page: Page) {
  const project = page.getByRole('combobox', { name: 'Or choose a project' });
  await page.getByRole('radio').first().waitFor();
  return {
    picker: await project.inputValue(),
    checkedRadio: await page
      .getByRole('radio', { checked: true })
      .evaluate((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent ?? ''),
    rfi: await page.getByRole('combobox', { name: 'RFI or submittal (optional)' }).inputValue(),
    note: await page.getByRole('textbox', { name: 'Note (optional)' }).inputValue(),
    counter: ((await page.getByText(/ of \d+ chosen · /).textContent()) ?? '').replace(/\u00a0/g, ' '),
  };
}

describeInBrowser('a pinned pane switching e-mails', () => {
  const suite = useBrowserSuite();

  beforeAll(async () => {
    const { server, f } = suite;
    const res = await server.call(`/v1/organization/${f.orgA.id}/project`, {
      method: 'POST',
      token: f.admin.token,
      json: { name: 'Quay Wall Repairs' },
    });
    expect(res.status).toBe(201);
  });

  const cases = [
    { input: 'mouse', width: 320, theme: 'light' },
    { input: 'keyboard', width: 450, theme: 'dark' },
    { input: 'mouse', width: 450, theme: 'dark' },
    { input: 'keyboard', width: 320, theme: 'light' },
  ] as const;

  for (const { input, width, theme } of cases) {
    it(`never carries a choice over to the next e-mail (${input}, ${width} px, ${theme})`, async () => {
      const { context, page } = await suite.openPane(
        { item: openEmail, dark: theme === 'dark' },
        { width, colorScheme: theme },
      );
      await page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
      const tag = `switch-${input}-${width}-${theme}`;

      // Choices on the first e-mail: its RFI, a note, one attachment unticked.
      const note = page.getByRole('textbox', { name: 'Note (optional)' });
      const rfi = page.getByRole('combobox', { name: 'RFI or submittal (optional)' });
      const project = page.getByRole('combobox', { name: 'Or choose a project' });
      if (input === 'mouse') {
        await rfi.click();
        await page.getByRole('option', { name: 'RFI-014 · Curtain wall anchor spacing' }).click();
        await note.click();
        await note.pressSequentially('for the east wall');
        await page.getByRole('checkbox', { name: /site-photo\.jpg/ }).click();
      } else {
        await chooseByKeyboard(rfi, 'anchor', 'RFI-014 · Curtain wall anchor spacing');
        await page.keyboard.press('Tab');
        await page.getByRole('checkbox', { name: /site-photo\.jpg/ }).focus();
        await page.keyboard.press('Space');
        await note.focus();
        await page.keyboard.type('for the east wall');
      }
      expect(await rfi.inputValue()).toBe('RFI-014 · Curtain wall anchor spacing');
      expect(await page.getByRole('checkbox', { name: /site-photo\.jpg/ }).isChecked()).toBe(false);
      await shot(page, `${tag}-1-chosen`);

      // The next e-mail: its own top suggestion, no RFI, its own attachment ticked, no note.
      await select(page, dockside);
      await page.getByRole('heading', { name: dockside.subject }).waitFor();
      await page.getByRole('radio', { name: /Dockside Offices/, checked: true }).waitFor();
      expect(await formOf(page)).toEqual({
        picker: 'Dockside Offices',
        checkedRadio: expect.stringMatching(/^Dockside Offices · \d+%$/),
        rfi: '',
        note: '',
        counter: '1 of 1 chosen · 21 B',
      });
      expect(await page.getByRole('checkbox', { name: /fixings\.txt/ }).isChecked()).toBe(true);
      await shot(page, `${tag}-2-next-email`);
      await expectAccessible(page);

      // A project outside the suggestions for it, and a note.
      if (input === 'mouse') {
        await project.click();
        await page.getByRole('option', { name: 'Quay Wall Repairs' }).click();
        await note.click();
        await note.pressSequentially('fixings');
      } else {
        await chooseByKeyboard(project, 'Quay', 'Quay Wall Repairs');
        await note.focus();
        await page.keyboard.type('fixings');
      }
      expect(await project.inputValue()).toBe('Quay Wall Repairs');
      expect(await page.getByRole('radio', { checked: true }).count()).toBe(0);

      // Back to the first e-mail: its form as it was left, unfiled (prepared.test.ts covers offline and reloads).
      await select(page, openEmail);
      await page.getByRole('heading', { name: openEmail.subject }).waitFor();
      await page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
      await expect
        .poll(() => formOf(page))
        .toEqual({
          picker: 'Pier 9 Terminal',
          checkedRadio: expect.stringMatching(/^Pier 9 Terminal · \d+%$/),
          rfi: 'RFI-014 · Curtain wall anchor spacing',
          note: 'for the east wall',
          counter: '1 of 2 chosen · 38 B',
        });
      // And the second one again: the project and note chosen for it a moment ago.
      await select(page, dockside);
      await page.getByRole('heading', { name: dockside.subject }).waitFor();
      await expect.poll(() => project.inputValue()).toBe('Quay Wall Repairs');
      expect(await note.inputValue()).toBe('fixings');
      await context.close();
    });
  }

  it('follows Outlook’s theme live, light to dark and back, while the pane is open', async () => {
    const { context, page } = await suite.openPane({ item: openEmail });
    await page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
    const background = () =>
      page.evaluate(() => getComputedStyle(document.querySelector('main')!.parentElement!).backgroundColor);
    const setTheme = (dark: boolean) =>
      page.evaluate(
        (d) => (window as unknown as { __officeHost: { setTheme(dark: boolean): void } }).__officeHost.setTheme(d),
        dark,
      );
    expect(await background()).toBe('rgb(255, 255, 255)');
    await setTheme(true);
    await expect.poll(background).toBe('rgb(41, 41, 41)');
    await shot(page, 'theme-live-dark');
    await expectAccessible(page);
    await setTheme(false);
    await expect.poll(background).toBe('rgb(255, 255, 255)');
    await context.close();
  });

  it('files the next e-mail into its own suggestion with its own attachment', async () => {
    const { context, page } = await suite.openPane({ item: openEmail });
    await page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
    await page.getByRole('checkbox', { name: /site-photo\.jpg/ }).click();
    await page.getByRole('textbox', { name: 'Note (optional)' }).fill('east wall');
    await select(page, dockside);
    await page.getByRole('radio', { name: /Dockside Offices/, checked: true }).waitFor();
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByText('Filed in Dockside Offices with 1 attachment.').waitFor();
    const list = await suite.filedIn(suite.f.projectA2.id, 'fixings');
    expect(list.map((e) => e.subject)).toEqual([dockside.subject]);
    const detail = await suite.filedEmail(suite.f.projectA2.id, list[0]!.id);
    expect(detail.attachments.map((a) => a.name)).toEqual(['fixings.txt']);
    expect(detail.note ?? null).toBeNull();
    await context.close();
  });

  // Filing a large e-mail takes a while; the person selects the next one meanwhile. The upload is held until then
  // (as a 16 MB upload would be), so the next e-mail is open when the filing finishes.
  for (const { input, width, theme } of cases) {
    it(`marks only the e-mail it filed when the next one is selected during the upload (${input}, ${width} px, ${theme})`, async () => {
      const tag = `left-${input}-${width}-${theme}`;
      const large = {
        ...openEmail,
        itemId: `item-${tag}`,
        internetMessageId: `<${tag}@steel.example>`,
        subject: `Pier 9 tower crane base ${tag}`,
      };
      const next = { ...dockside, itemId: `item-next-${tag}`, internetMessageId: `<next-${tag}@steel.example>` };
      const { context, page } = await suite.openPane(
        { item: large, dark: theme === 'dark' },
        { width, colorScheme: theme },
      );
      let uploading = () => {};
      const upload = new Promise<void>((resolve) => {
        uploading = resolve;
      });
      let finish = () => {};
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      await context.route(`${origin}/v1/organization/*/project/*/emails*`, async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        uploading();
        await finished;
        await route.continue();
      });
      await page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
      await pressBy(page.getByRole('button', { name: 'File', exact: true }), input);
      await upload;
      await page.getByText('Filing…').waitFor();

      await select(page, next);
      await page.getByRole('heading', { name: next.subject }).waitFor();
      finish();
      const notice = page.getByText('The e-mail you left');
      await notice.waitFor();
      expect(await page.getByText(`“${large.subject}” was filed in Pier 9 Terminal.`).count()).toBe(1);
      await page.getByText(/Not marked in Outlook: you selected another e-mail before filing finished/).waitFor();
      await shot(page, `${tag}-notice`);
      await expectAccessible(page);
      // "Filed: Pier 9 Terminal" is on neither e-mail: the one open now was not filed, the filed one was left.
      expect(await officeHostState(page, 'categoriesOf')).toEqual({});
      const filed = await suite.filedIn(suite.f.projectA1.id, tag);
      expect(filed.map((e) => e.subject)).toEqual([large.subject]);

      // Dismissed by the person; the next e-mail's own form was never touched.
      await pressBy(page.getByRole('button', { name: 'Dismiss' }), input);
      expect(await notice.count()).toBe(0);
      await page.getByRole('radio', { name: /Dockside Offices/, checked: true }).waitFor();
      await context.close();
    });
  }
});
