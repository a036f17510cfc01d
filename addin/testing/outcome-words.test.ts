import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, officeHostState, openEmail, pressBy, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * The words of a result: no "with 0 attachments", inline images (part of the body) not counted as attachments, and
 * every place a conversation is filed named rather than "and 1 other place".
 */

const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');

describeInBrowser('what the pane says after filing', () => {
  const suite = useBrowserSuite();

  for (const { input, width, theme } of [
    { input: 'mouse', width: 320, theme: 'light' },
    { input: 'keyboard', width: 450, theme: 'dark' },
  ] as const) {
    it(`counts the files chosen, not inline images, and says nothing of none (${input}, ${width} px, ${theme})`, async () => {
      const tag = `${input}-${width}-${theme}`;
      // Sent whole (Mailbox 1.14): the MIME carries the signature logo as a related part beside the attached file.
      const withLogo = {
        ...openEmail,
        internetMessageId: `<inline-logo-${tag}@steel.example>`,
        // The subject names the project: the suggestion is likely and preselected.
        subject: `Pier 9 Terminal: Inline logo ${tag}`,
        rawBase64: b64(
          [
            `Message-ID: <inline-logo-${tag}@steel.example>`,
            'From: Lee Chen <lee@steel.example>',
            'To: member@harbor.test',
            `Subject: Pier 9 Terminal: Inline logo ${tag}`,
            'Date: Mon, 02 Mar 2026 08:15:00 +0000',
            'MIME-Version: 1.0',
            'Content-Type: multipart/mixed; boundary="outer"',
            '',
            '--outer',
            'Content-Type: multipart/related; boundary="inner"',
            '',
            '--inner',
            'Content-Type: text/html; charset=utf-8',
            '',
            '<p>Detail attached.</p><img src="cid:logo@steel">',
            '--inner',
            'Content-Type: image/png',
            'Content-ID: <logo@steel>',
            'Content-Disposition: inline; filename="logo.png"',
            'Content-Transfer-Encoding: base64',
            '',
            b64('\x89PNG'),
            '--inner--',
            '--outer',
            'Content-Type: text/plain; name="anchor-detail.txt"',
            'Content-Disposition: attachment; filename="anchor-detail.txt"',
            '',
            'Anchor detail rev C: M12 at 300 centres',
            '--outer--',
            '',
          ].join('\r\n'),
        ),
        attachments: [
          openEmail.attachments[0]!,
          {
            id: 'att-logo',
            name: 'logo.png',
            contentType: 'image/png',
            size: 4,
            isInline: true,
            content: b64('\x89PNG'),
          },
        ],
      };
      const first = await suite.openPane(
        { item: withLogo, mailboxMinor: 14, dark: theme === 'dark' },
        { width, colorScheme: theme },
      );
      await first.page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
      await pressBy(first.page.getByRole('button', { name: 'File', exact: true }), input);
      await first.page.getByText(/Filed in Pier 9 Terminal with 1 attachment\. Marked/).waitFor();
      expect(await officeHostState<string[]>(first.page, 'calls')).toContain('getAsFileAsync');
      // The server keeps the logo too (the HTML shows it): the pane counts what the person sees as attachments.
      const [stored] = await suite.filedIn(suite.f.projectA1.id, `"Inline logo ${tag}"`);
      const detail = await suite.filedEmail(suite.f.projectA1.id, stored!.id);
      expect(detail.attachments.map((a) => a.name).sort()).toEqual(['anchor-detail.txt', 'logo.png']);
      await shot(first.page, `outcome-inline-${tag}`);
      await expectAccessible(first.page);
      await first.context.close();

      const bare = {
        ...openEmail,
        internetMessageId: `<no-files-${tag}@steel.example>`,
        subject: `Pier 9 Terminal: No files ${tag}`,
        attachments: [],
      };
      const second = await suite.openPane(
        { item: bare, mailboxMinor: 8, dark: theme === 'dark' },
        { width, colorScheme: theme },
      );
      await second.page.getByRole('radio', { name: /Pier 9 Terminal/, checked: true }).waitFor();
      await pressBy(second.page.getByRole('button', { name: 'File', exact: true }), input);
      await second.page.getByText(/Filed in Pier 9 Terminal\. Marked “Filed: Pier 9 Terminal” in Outlook\./).waitFor();
      expect(await second.page.getByText(/with 0 attachments/).count()).toBe(0);
      await second.context.close();
    });
  }

  it('names every place a conversation is filed (keyboard, 320 px, dark)', async () => {
    const { server, f } = suite;
    const conversationId = 'AAQkADAwATM0MDAAMS1-two-places';
    for (const [n, projectId] of [
      [1, f.projectA1.id],
      [2, f.projectA2.id],
    ] as const) {
      server.clock.advance(1000);
      const res = await server.call(`/v1/organization/${f.orgA.id}/project/${projectId}/emails`, {
        method: 'POST',
        token: f.member.token,
        json: {
          subject: 'Facade mock-up',
          from: 'lee@steel.example',
          to: ['member@harbor.test'],
          internetMessageId: `<two-places-${n}@steel.example>`,
          conversationId,
          bodyText: 'Mock-up panel on site.',
        },
      });
      expect(res.status).toBe(201);
    }
    const reply = {
      ...openEmail,
      internetMessageId: '<two-places-3@steel.example>',
      conversationId,
      subject: 'RE: Facade mock-up',
    };
    const { context, page } = await suite.openPane({ item: reply, dark: true }, { width: 320, colorScheme: 'dark' });
    await page
      .getByText(
        'This conversation is filed in Dockside Offices and Pier 9 Terminal. “File with the thread” files it in Dockside Offices, where it was filed last.',
      )
      .waitFor();
    expect(await page.getByText(/other place/).count()).toBe(0);
    await shot(page, 'outcome-two-places-320-dark');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'File with the thread' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText(/Filed in Dockside Offices with 2 attachments\./).waitFor();
    await context.close();
  });
});
