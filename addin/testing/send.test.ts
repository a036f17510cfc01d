import { expect, it } from 'vitest';
import {
  describeInBrowser,
  expectAccessible,
  officeHostState,
  openEmail,
  pageWaitMs,
  raiseOnSend,
  shot,
} from './chromium.js';
import { useBrowserSuite } from './suite.js';

/** File on send (Outlook raises the send event in commands.html), shared mailboxes, and the Filed category. */

describeInBrowser('file on send, shared mailboxes and categories', () => {
  const suite = useBrowserSuite();

  it('files a marked draft as it is sent, with nothing internal in its internet headers', async () => {
    const { server, f } = suite;
    const draft = {
      ...openEmail,
      mode: 'compose',
      internetMessageId: undefined,
      subject: 'Dockside handrail RFI',
      from: { address: 'member@harbor.test', name: 'Mia Member' },
      to: [{ address: 'ops@steel.example' }],
      bodyText: 'Please confirm the handrail post spacing.',
      attachments: [openEmail.attachments[0]],
      customProperties: {
        sitefileFileWhenSent: JSON.stringify({ organizationId: f.orgA.id, projectId: f.projectA2.id }),
      },
    };
    const { context, page } = await suite.openPane({ item: draft }, { at: '/addin/commands.html' });
    await expect.poll(() => raiseOnSend(page), { timeout: pageWaitMs }).toEqual({ allowEvent: true });
    const filed = await suite.filedIn(f.projectA2.id, 'handrail post spacing');
    expect(filed.map((e) => e.subject)).toEqual(['Dockside handrail RFI']);
    const detail = await server.call(`/v1/organization/${f.orgA.id}/project/${f.projectA2.id}/emails/${filed[0]!.id}`, {
      token: f.admin.token,
    });
    expect(detail.body.attachments.map((a: { name: string }) => a.name)).toEqual(['anchor-detail.txt']);
    // Recipients get no header at all from Sitefile; the sent copy remembers that it is filed.
    expect(await officeHostState(page, 'headersSet')).toBeUndefined();
    const mark = JSON.parse(
      (await officeHostState<Record<string, string>>(page, 'customProperties')).sitefileFileWhenSent!,
    );
    expect(mark).toEqual({ organizationId: f.orgA.id, projectId: f.projectA2.id, filedEmailId: filed[0]!.id });
    // Sent again (a second send event for the same item) it is not filed twice.
    expect(await raiseOnSend(page)).toEqual({ allowEvent: true });
    expect(await suite.filedIn(f.projectA2.id, 'handrail post spacing')).toHaveLength(1);
    await context.close();
  });

  it('lets a draft without a mark go at once, and asks before sending when filing fails', async () => {
    const plain = { ...openEmail, mode: 'compose', internetMessageId: undefined, attachments: [] };
    const { context, page } = await suite.openPane({ item: plain }, { at: '/addin/commands.html' });
    await expect.poll(() => raiseOnSend(page), { timeout: pageWaitMs }).toEqual({ allowEvent: true });
    await context.close();

    const other = {
      ...plain,
      customProperties: {
        sitefileFileWhenSent: JSON.stringify({ organizationId: suite.f.orgB.id, projectId: suite.f.projectB1.id }),
      },
    };
    const refused = await suite.openPane({ item: other }, { at: '/addin/commands.html' });
    await expect
      .poll(() => raiseOnSend(refused.page), { timeout: pageWaitMs })
      .toMatchObject({
        allowEvent: false,
        errorMessage: expect.stringMatching(/^Sitefile could not file this e-mail: You cannot file into this project/),
      });
    await refused.context.close();
  });

  it('files from a shared mailbox and marks the message “Filed: project” in Outlook', async () => {
    const shared = {
      ...openEmail,
      internetMessageId: '<shared-1@steel.example>',
      sharedMailbox: { owner: 'projects@harbor.test', permissions: 3 },
    };
    const { context, page } = await suite.openPane({ item: shared });
    await page.getByText('In the shared mailbox projects@harbor.test').waitFor();
    await page.getByRole('combobox', { name: 'Or choose a project' }).click();
    await page.getByRole('option', { name: 'Pier 9 Terminal' }).click();
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page
      .getByText(/Filed in Pier 9 Terminal with 2 attachments\. Marked “Filed: Pier 9 Terminal” in Outlook\./)
      .waitFor();
    // Focus lands on the result.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('filing-outcome');
    expect(await officeHostState(page, 'categories')).toEqual(['Filed: Pier 9 Terminal']);
    expect(await officeHostState(page, 'masterCategories')).toEqual([
      { displayName: 'Filed: Pier 9 Terminal', color: 'Preset4' },
    ]);
    expect(await officeHostState<string[]>(page, 'calls')).toContain('getSharedPropertiesAsync');
    expect((await suite.filedIn(suite.f.projectA1.id, 'anchor')).length).toBe(1);
    await shot(page, '26-shared-mailbox-filed');
    await expectAccessible(page);
    // "Open it in Sitefile": the record opened in the Filed e-mails tab.
    await page.getByRole('button', { name: 'Open it in Sitefile' }).click();
    await page.getByRole('heading', { name: openEmail.subject }).waitFor();
    await page.getByRole('button', { name: '← Back to the list' }).click();
    await page.getByText('1 filed e-mail', { exact: true }).waitFor();
    await context.close();
  });

  it('files from a shared mailbox read-only for this person, without touching its categories', async () => {
    const readOnly = {
      ...openEmail,
      internetMessageId: '<shared-2@steel.example>',
      subject: 'Read-only delegate copy',
      sharedMailbox: { owner: 'projects@harbor.test', permissions: 1 },
    };
    const { context, page } = await suite.openPane({ item: readOnly });
    await page.getByRole('combobox', { name: 'Or choose a project' }).click();
    await page.getByRole('option', { name: 'Dockside Offices' }).click();
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByText('Filed in Dockside Offices with 2 attachments.').waitFor();
    expect(await officeHostState(page, 'categories')).toEqual([]);
    await context.close();
  });
});
