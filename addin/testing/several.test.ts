import { expect, it } from 'vitest';
import { chooseByKeyboard, describeInBrowser, expectAccessible, openEmail, origin, pressBy, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * Several e-mails selected in Outlook's message list (Mailbox 1.13 multi-select, each read through 1.15's
 * loadItemByIdAsync): filed into one project in one action, with progress, each e-mail's outcome, and a retry of
 * the one that failed.
 */

const fiveEmails = (tag: string) =>
  [1, 2, 3, 4, 5].map((n) => ({
    ...openEmail,
    itemId: `item-${tag}-${n}`,
    internetMessageId: `<batch-${tag}-${n}@steel.example>`,
    conversationId: `conv-${tag}-${n}`,
    subject: `Pier 9 site report ${tag} no. ${n}`,
    rawBase64: Buffer.from(
      [
        `Message-ID: <batch-${tag}-${n}@steel.example>`,
        'From: Lee Chen <lee@steel.example>',
        'To: member@harbor.test',
        `Subject: Pier 9 site report ${tag} no. ${n}`,
        'Date: Mon, 02 Mar 2026 08:15:00 +0000',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        '',
        `Site report ${n}.`,
        '',
      ].join('\r\n'),
    ).toString('base64'),
    attachments: [],
    // The fourth fails to load once (Outlook busy), then loads on the retry.
    ...(n === 4 ? { failLoads: 1 } : {}),
  }));

describeInBrowser('filing several e-mails at once', () => {
  const suite = useBrowserSuite();

  // Outlook on the web answers the selection in lower case ("message"), Outlook on Mac as Microsoft documents it
  // ("Message"): the stand-in answers as each does.
  for (const { input, width, theme, platform } of [
    { input: 'mouse', width: 320, theme: 'light', platform: 'OfficeOnline' },
    { input: 'keyboard', width: 450, theme: 'dark', platform: 'OfficeOnline' },
    { input: 'keyboard', width: 320, theme: 'light', platform: 'Mac' },
    { input: 'mouse', width: 450, theme: 'dark', platform: 'Mac' },
  ] as const) {
    it(`files five selected e-mails in one action, one already filed, one filed elsewhere left alone, one failing and retried (${platform}, ${input}, ${width} px, ${theme})`, async () => {
      const { server, f } = suite;
      const tag = `${platform === 'Mac' ? 'mac' : 'web'}${input}${width}`;
      const emails = fiveEmails(tag);
      // The second one is in Pier 9 already.
      const already = await server.call(`/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails`, {
        method: 'POST',
        token: f.admin.token,
        json: {
          subject: emails[1]!.subject,
          from: 'lee@steel.example',
          to: ['member@harbor.test'],
          internetMessageId: emails[1]!.internetMessageId,
          sentAt: '2026-03-01T10:00:00Z',
          bodyText: 'Filed before.',
        },
      });
      expect(already.status).toBe(201);
      // The third is in Dockside Offices: it is shown, and not filed into Pier 9 as well.
      const elsewhere = await server.call(`/v1/organization/${f.orgA.id}/project/${f.projectA2.id}/emails`, {
        method: 'POST',
        token: f.admin.token,
        json: {
          subject: emails[2]!.subject,
          from: 'lee@steel.example',
          to: ['member@harbor.test'],
          internetMessageId: emails[2]!.internetMessageId,
          sentAt: '2026-03-01T10:00:00Z',
          bodyText: 'Filed before, elsewhere.',
        },
      });
      expect(elsewhere.status).toBe(201);

      const { context, page } = await suite.openPane(
        { noItemSelected: true, selected: emails, mailboxMinor: 15, dark: theme === 'dark', platform },
        { width, colorScheme: theme },
      );
      await page.getByRole('heading', { name: '5 e-mails selected' }).waitFor();
      const picker = page.getByRole('combobox', { name: 'Project for all of them' });
      const fileAll = page.getByRole('button', { name: 'File 5 e-mails' });
      if (input === 'mouse') {
        await picker.click();
        await picker.pressSequentially('pier');
        await page.getByRole('option', { name: 'Pier 9 Terminal' }).click();
        await fileAll.click();
      } else {
        await chooseByKeyboard(picker, 'pier', 'Pier 9 Terminal');
        expect(await picker.inputValue()).toBe('Pier 9 Terminal');
        await fileAll.focus();
        await page.keyboard.press('Enter');
      }
      await page
        .getByText('2 filed, 1 already filed there, 1 failed. 1 filed in another project already: not filed again.')
        .waitFor();
      const rows = page.getByRole('list', { name: 'Selected e-mails' }).getByRole('listitem');
      const outcomes = async () => (await rows.allTextContents()).map((t) => t.replace(/^.* no\. \d/, ''));
      expect(await outcomes()).toEqual([
        'Filed',
        'Already filed there: nothing changed',
        'Not filed: it is filed in Dockside Offices already. Open it alone to move it or file it here too.',
        'Failed: Outlook could not open this e-mail just now. Try again.',
        'Filed',
      ]);
      await shot(page, `several-${tag}-${theme}-failed`);
      await expectAccessible(page);

      const retry = page.getByRole('button', { name: 'Retry the 1 failed' });
      await pressBy(retry, input);
      await page.getByText(/^3 filed, 1 already filed there, 0 failed\./).waitFor();
      expect(await outcomes()).toEqual([
        'Filed',
        'Already filed there: nothing changed',
        'Not filed: it is filed in Dockside Offices already. Open it alone to move it or file it here too.',
        'Filed',
        'Filed',
      ]);
      await shot(page, `several-${tag}-${theme}-done`);
      await expectAccessible(page);

      // Each of the five but the one in Dockside is in Pier 9 once.
      const list = await server.call(
        `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails?limit=50&search=${encodeURIComponent(tag)}`,
        { token: f.admin.token },
      );
      expect(list.body.data.map((e: { subject: string }) => e.subject).sort()).toEqual(
        emails
          .filter((_, i) => i !== 2)
          .map((e) => e.subject)
          .sort(),
      );
      await context.close();
    });
  }

  it('keeps what is typed into the project picker before the projects have loaded (keyboard, 320 px, light)', async () => {
    const { context, page } = await suite.openPane(
      { noItemSelected: true, selected: fiveEmails('early'), mailboxMinor: 15 },
      { width: 320 },
    );
    // The person's organizations (whose projects the picker searches) answer late, as on a slow network.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await context.route(`${origin}/v1/me`, async (route) => {
      await answered;
      await route.continue();
    });
    await page.reload();
    await page.getByRole('heading', { name: '5 e-mails selected' }).waitFor();
    const picker = page.getByRole('combobox', { name: 'Project for all of them' });
    await picker.focus();
    await page.keyboard.type('pier');
    await page.getByRole('option', { name: 'Finding projects…' }).waitFor();
    await shot(page, 'several-early-320-light-loading');
    answer();
    await page.getByRole('option', { name: 'Pier 9 Terminal' }).waitFor();
    expect(await picker.inputValue()).toBe('pier');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await picker.inputValue()).toBe('Pier 9 Terminal');
    expect(await page.getByRole('button', { name: 'File 5 e-mails' }).isEnabled()).toBe(true);
    await context.close();
  });
});
