import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, officeHostState, openEmail, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * Sizes told before File, on a host that hands over the whole message (Mailbox 1.14): the size shown is the size
 * that will be sent, a message Sitefile would refuse is warned about before File, and the offer to leave out the
 * largest attachments files the rest. (The stand-in's attachment sizes are Outlook's figures; their content is
 * small, so no test uploads tens of megabytes.)
 */

const MB = 1024 * 1024;
const attachment = (id: string, name: string, size: number) => ({
  id,
  name,
  contentType: 'application/octet-stream',
  size,
  isInline: false,
  content: Buffer.from(`content of ${name}`).toString('base64'),
});

/** 30 MB in three attachments. */
const heavy = {
  ...openEmail,
  internetMessageId: '<tower-model-30mb@steel.example>',
  subject: 'Pier 9 tower model and site video',
  attachments: [
    attachment('att-model', 'tower-model.ifc', 22 * MB),
    attachment('att-video', 'site-video.mp4', 6 * MB),
    attachment('att-minutes', 'minutes.pdf', 2 * MB),
  ],
};

const sizeText = async (page: import('playwright-core').Page) =>
  ((await page.getByText(/ of \d+ chosen · /).textContent()) ?? '').replace(/\u00a0/g, ' ');

describeInBrowser('sizes told before File', () => {
  const suite = useBrowserSuite();

  for (const { width, theme } of [
    { width: 320, theme: 'light' },
    { width: 450, theme: 'dark' },
  ] as const) {
    it(`warns about a 30 MB message before File and files it without the largest (${width} px, ${theme})`, async () => {
      const { context, page } = await suite.openPane(
        {
          item: { ...heavy, internetMessageId: `<tower-${width}@steel.example>` },
          mailboxMinor: 14,
          dark: theme === 'dark',
        },
        { width, colorScheme: theme },
      );
      await page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
      expect(await sizeText(page)).toBe('3 of 3 chosen · 30 MB');
      await page.getByText(/^Together these are over the 25\u00a0MB Sitefile accepts/).waitFor();
      const file = page.getByRole('button', { name: 'File', exact: true });
      expect(await file.isDisabled()).toBe(true);
      await shot(page, `size-30mb-${width}-${theme}`);
      await expectAccessible(page);

      await page.getByRole('button', { name: 'Leave out the largest (22 MB)' }).click();
      expect(await page.getByRole('checkbox', { name: /tower-model\.ifc/ }).isChecked()).toBe(false);
      expect(await sizeText(page)).toBe('2 of 3 chosen · 8 MB');
      expect(await page.getByText(/^Together these are over/).count()).toBe(0);
      await file.click();
      await page.getByText('Filed in Pier 9 Terminal with 2 attachments.').waitFor();
      const calls = await officeHostState<string[]>(page, 'calls');
      expect(calls).not.toContain('getAsFileAsync');
      expect(calls).not.toContain('getAttachmentContentAsync:att-model');
      await context.close();
    });
  }

  it('shows the encoded size when the whole message goes, and sends a 19 MB attachment the way that fits', async () => {
    const small = {
      ...openEmail,
      internetMessageId: '<small-3mb@steel.example>',
      subject: 'Small drawing',
      attachments: [attachment('att-s', 'drawing.pdf', 3 * MB)],
    };
    const { context, page } = await suite.openPane({ item: small, mailboxMinor: 14 });
    await page.getByRole('radio').first().waitFor();
    // 3 MB in base64 lines of 76 is 4.1 MB; with the bodies and room for the headers, 4.2 MB: what the whole message
    // sends.
    await expect.poll(() => sizeText(page)).toBe('1 of 1 chosen · 4.2 MB');
    await page.getByText('Sent as the whole message, attachments encoded.').waitFor();
    await context.close();

    // 19 MB would be 26 MB encoded, over the limit: sent as the JSON form (19 MB of attachments), no warning.
    const nineteen = {
      ...small,
      internetMessageId: '<big-19mb@steel.example>',
      subject: 'Survey scans',
      attachments: [attachment('att-19', 'scans.zip', 19 * MB)],
    };
    const { context: big, page: bigPage } = await suite.openPane({ item: nineteen, mailboxMinor: 14 });
    await bigPage.getByRole('radio').first().waitFor();
    expect(await sizeText(bigPage)).toBe('1 of 1 chosen · 19 MB');
    expect(await bigPage.getByText('Sent as the whole message, attachments encoded.').count()).toBe(0);
    expect(await bigPage.getByText(/^Together these are over/).count()).toBe(0);
    await bigPage.getByRole('button', { name: 'File', exact: true }).click();
    await bigPage.getByText('Filed in Pier 9 Terminal with 1 attachment.').waitFor();
    const calls = await officeHostState<string[]>(bigPage, 'calls');
    expect(calls).not.toContain('getAsFileAsync');
    expect(calls).toContain('getAttachmentContentAsync:att-19');
    await big.close();
  });

  it('counts the body and headers in the whole message, and files an 18 MB attachment with a 600 KB body as the form', async () => {
    // 18 MB encoded is 24.6 MB; with the 600 KB HTML body (encoded) and the headers the whole message is over 25 MB.
    const html = `<p>${'Pier 9 daily report, level 3 slab pour. '.repeat(15_000)}</p>`;
    const withBody = {
      ...openEmail,
      internetMessageId: '<survey-18mb-body@steel.example>',
      subject: 'Survey scans with a long report',
      bodyHtml: html,
      rawBase64: Buffer.from('Subject: Survey scans\r\n\r\nsmall stand-in').toString('base64'),
      attachments: [attachment('att-18', 'scans.zip', 18 * MB)],
    };
    const { context, page } = await suite.openPane({ item: withBody, mailboxMinor: 14 }, { width: 320 });
    await page.getByRole('radio').first().waitFor();
    await expect.poll(() => sizeText(page)).toBe('1 of 1 chosen · 18 MB');
    expect(await page.getByText('Sent as the whole message, attachments encoded.').count()).toBe(0);
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByText('Filed in Pier 9 Terminal with 1 attachment.').waitFor();
    const calls = await officeHostState<string[]>(page, 'calls');
    expect(calls).not.toContain('getAsFileAsync');
    expect(calls).toContain('getAttachmentContentAsync:att-18');
    await context.close();
  });

  it('falls back to the form when the whole message, once read, is larger than its parts told', async () => {
    const padded = {
      ...openEmail,
      internetMessageId: '<padded-headers@steel.example>',
      subject: 'Long headers',
      rawBase64: Buffer.from('Subject: Long headers\r\n\r\nsmall stand-in').toString('base64'),
      rawPaddingBytes: 26 * MB,
      attachments: [attachment('att-p', 'drawing.pdf', 1 * MB)],
    };
    const { context, page } = await suite.openPane(
      { item: padded, mailboxMinor: 14 },
      { width: 450, colorScheme: 'dark' },
    );
    await page.getByRole('radio').first().waitFor();
    await page.getByText('Sent as the whole message, attachments encoded.').waitFor();
    await page.getByRole('button', { name: 'File', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Filed in Pier 9 Terminal with 1 attachment.').waitFor();
    const calls = await officeHostState<string[]>(page, 'calls');
    expect(calls).toContain('getAsFileAsync');
    expect(calls).toContain('getAttachmentContentAsync:att-p');
    await shot(page, 'size-fallback-450-dark');
    await expectAccessible(page);
    await context.close();
  });
});
