import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { repoRoot } from '../tools/manifest.js';
import {
  describeInBrowser,
  expectAccessible,
  officeHostState,
  openEmail,
  shot,
  signInThroughDialog,
} from './chromium.js';
import { useBrowserSuite } from './suite.js';

/** The File and Filed e-mails tabs in Chromium, one e-mail through its whole flow (see ./chromium.ts). */

describeInBrowser('the task pane in Chromium', () => {
  const suite = useBrowserSuite({ fakeAi: true, signIn: false });
  /** The pane this file signs in to, on Mailbox 1.8 (no raw message): the other panes copy its sign-in. */
  let pane: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context: pane, page } = await suite.openPane({ item: openEmail, mailboxMinor: 8 }, { signedIn: false }));
  });

  it('serves the pages and every icon the manifest names', async () => {
    const manifest = readFileSync(path.join(repoRoot, 'manifest.xml'), 'utf8');
    const icons = [...manifest.matchAll(/https:\/\/localhost:3000(\/addin\/icon-\d+\.png)/g)].map((m) => m[1]!);
    expect(icons.length).toBeGreaterThan(3);
    for (const icon of new Set(icons)) {
      const res = await suite.server.request(icon);
      expect(res.status, icon).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
    }
    for (const page of ['/addin/', '/addin/taskpane.html', '/admin', '/addin/auth-callback.html']) {
      const res = await suite.server.request(page);
      expect(res.status, page).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('signs in through the Office dialog with the authorization-code flow', async () => {
    await page.getByRole('button', { name: 'Sign in to Sitefile' }).waitFor();
    await shot(page, '01-signed-out');
    await expectAccessible(page);
    await signInThroughDialog(page, 'member@harbor.test', 'member-pass-1', '02-sign-in-dialog');
    await page.getByRole('tab', { name: 'File', exact: true }).waitFor();
    await page.getByText('Signed in as Mia Member').waitFor();
  });

  it('shows the top suggestions with their reasons, and that AI suggestions are off', async () => {
    const first = page.getByRole('radio', { name: /Pier 9 Terminal/ });
    await first.waitFor();
    expect(await first.isChecked()).toBe(true);
    expect(await page.getByText(/filed|Pier 9|steel\.example/i).count()).toBeGreaterThan(1);
    await page.getByText('AI suggestions off').waitFor();
    await page.getByText('Nothing from this e-mail is sent to an AI service.').waitFor();
    await shot(page, '03-suggestions');
    await expectAccessible(page);
  });

  it('files the e-mail onto the RFI chosen, with only the attachments chosen, and shows the result', async () => {
    const documentPicker = page.getByRole('combobox', { name: 'RFI or submittal (optional)' });
    await documentPicker.click();
    await documentPicker.pressSequentially('anchor');
    await page.getByRole('option', { name: 'RFI-014 · Curtain wall anchor spacing' }).waitFor();
    await documentPicker.press('ArrowDown');
    await documentPicker.press('Enter');
    expect(await documentPicker.inputValue()).toBe('RFI-014 · Curtain wall anchor spacing');
    // On to the next control by keyboard, as a person would.
    await documentPicker.press('Tab');
    await page.getByRole('checkbox', { name: /site-photo\.jpg/ }).uncheck();
    await shot(page, '04-attachment-choice');
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page
      .getByText('Filed in Pier 9 Terminal on RFI-014 · Curtain wall anchor spacing with 1 attachment.')
      .waitFor();
    await shot(page, '05-filed');
    await expectAccessible(page);

    const list = await suite.filedIn(suite.f.projectA1.id, 'curtain wall');
    expect(list.map((e) => e.subject)).toEqual([openEmail.subject]);
    const detail = await suite.filedEmail(suite.f.projectA1.id, list[0]!.id);
    expect(detail.attachments.map((a) => a.name)).toEqual(['anchor-detail.txt']);
    expect(detail.filedBy.name).toBe('Mia Member');
    expect(detail.documentId).toBe('doc_rfi014');
  });

  it('says where the e-mail is already filed, and filing it again changes nothing', async () => {
    await page.reload();
    await page
      .getByText(/Already filed in Pier 9 Terminal \(RFI-014 · Curtain wall anchor spacing\) by Mia Member on/)
      .waitFor();
    await shot(page, '06-already-filed');
    await expectAccessible(page);
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByText('Already in this project').waitFor();
    await page.getByText(/Mia Member already filed this e-mail in Pier 9 Terminal on/).waitFor();
    await shot(page, '07-duplicate');
    await expectAccessible(page);
    expect(await suite.filedIn(suite.f.projectA1.id, 'anchor')).toHaveLength(1);
  });

  it('searches the e-mails the team filed in a project', async () => {
    await page.getByRole('tab', { name: 'Filed e-mails' }).click();
    const picker = page.getByRole('combobox', { name: 'Project' });
    await picker.click();
    await picker.pressSequentially('Pier');
    await page.getByRole('option', { name: 'Pier 9 Terminal' }).click();
    await page.getByRole('searchbox', { name: 'Search filed e-mails' }).fill('anchor');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 filed e-mail', { exact: true }).waitFor();
    await page.getByText(openEmail.subject).waitFor();
    await shot(page, '08-filed-emails-search');
    await expectAccessible(page);
    await page.getByRole('searchbox', { name: 'Search filed e-mails' }).fill('no-such-words-anywhere');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No filed e-mail matches.').waitFor();
  });

  it('in compose mode, marks the draft to be filed when sent', async () => {
    const { context: compose, page: composePage } = await suite.openPane(
      { item: { ...openEmail, mode: 'compose', internetMessageId: undefined, attachments: [] }, mailboxMinor: 8 },
      { signedIn: pane },
    );
    await composePage.getByRole('radio', { name: /Dockside Offices/ }).check();
    await composePage.getByRole('button', { name: 'File this when sent' }).click();
    await composePage.getByText('Will be filed when sent').waitFor();
    await shot(composePage, '15-compose');
    await expectAccessible(composePage);
    // The choice stays in the add-in's custom properties of the draft; no internet header goes to recipients.
    expect(await officeHostState(composePage, 'customProperties')).toEqual({
      sitefileFileWhenSent: JSON.stringify({
        organizationId: suite.f.orgA.id,
        projectId: suite.f.projectA2.id,
        projectName: 'Dockside Offices',
      }),
    });
    expect(await officeHostState(composePage, 'headersSet')).toBeUndefined();
    await compose.close();
  });

  it('files the sent e-mail as raw MIME where Mailbox 1.14 allows, into the project chosen while writing it', async () => {
    const mime = [
      'Message-ID: <handrail-9@harbor.test>',
      'From: Mia Member <member@harbor.test>',
      'To: ops@steel.example',
      'Subject: Handrail shop drawings',
      'Date: Tue, 03 Mar 2026 09:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Please find the handrail shop drawings attached.',
      '--b1',
      'Content-Type: text/plain; name="handrail-notes.txt"',
      'Content-Disposition: attachment; filename="handrail-notes.txt"',
      '',
      'Posts at 1200 centres.',
      '--b1--',
      '',
    ].join('\r\n');
    const sent = {
      ...openEmail,
      internetMessageId: '<handrail-9@harbor.test>',
      subject: 'Handrail shop drawings',
      from: { address: 'member@harbor.test', name: 'Mia Member' },
      to: [{ address: 'ops@steel.example' }],
      attachments: [openEmail.attachments[0]!].map((a) => ({ ...a, id: 'att-h', name: 'handrail-notes.txt' })),
      customProperties: {
        sitefileFileWhenSent: JSON.stringify({ organizationId: suite.f.orgA.id, projectId: suite.f.projectA2.id }),
      },
      rawBase64: Buffer.from(mime).toString('base64'),
    };
    const { context: raw, page: rawPage } = await suite.openPane({ item: sent, mailboxMinor: 14 }, { signedIn: pane });
    await rawPage.getByText('You chose Dockside Offices for this e-mail while writing it.').waitFor();
    await rawPage.getByRole('button', { name: 'File', exact: true }).click();
    await rawPage.getByText('Filed in Dockside Offices with 1 attachment.').waitFor();
    await shot(rawPage, '16-raw-message');
    await expectAccessible(rawPage);
    const calls = await rawPage.evaluate(
      () => (window as unknown as { __officeHost: { calls: string[] } }).__officeHost.calls,
    );
    expect(calls).toContain('getAsFileAsync');
    expect(calls.some((c) => c.startsWith('getAttachmentContentAsync'))).toBe(false);
    const list = await suite.filedIn(suite.f.projectA2.id, 'shop drawings');
    expect(list.map((e) => e.subject)).toEqual(['Handrail shop drawings']);
    const detail = await suite.filedEmail(suite.f.projectA2.id, list[0]!.id);
    expect(detail.original).not.toBeNull();
    expect(detail.attachments.map((a) => a.name)).toEqual(['handrail-notes.txt']);
    await raw.close();
  });

  it('sent nothing to the AI provider while aiSuggest is off', () => {
    expect(suite.aiRequests).toBe(0);
  });
});
