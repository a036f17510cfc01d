import { expect, it } from 'vitest';
import {
  chooseByKeyboard,
  describeInBrowser,
  expectAccessible,
  officeHostState,
  openEmail,
  pageWaitMs,
  pressBy,
  raiseOnSend,
  shot,
} from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * Filed on send means filed: the sender's sent copy (a new Message-ID from the transport) and a CC'd colleague's
 * copy are the one record the send event filed; a draft opened again shows its mark and can drop it. At 320 px
 * light by mouse and 450 px dark by keyboard.
 */

type Host = { sentCopy(id: string): Record<string, unknown> };

describeInBrowser('filed on send means filed', () => {
  const suite = useBrowserSuite();
  const { filedIn } = suite;

  /** A draft marked for Dockside Offices, sent: the send event files it. Answers the sent copy's spec. */
  async function sendMarkedDraft(subject: string, transportId: string) {
    const { f } = suite;
    const draft = {
      ...openEmail,
      mode: 'compose',
      internetMessageId: undefined,
      subject,
      from: { address: 'member@harbor.test', name: 'Mia Member' },
      to: [{ address: 'ops@steel.example' }],
      cc: [{ address: 'admin@harbor.test', name: 'Ada Admin' }],
      bodyText: `${subject}: please confirm by Friday.`,
      attachments: [],
      customProperties: {
        sitefileFileWhenSent: JSON.stringify({
          organizationId: f.orgA.id,
          projectId: f.projectA2.id,
          projectName: 'Dockside Offices',
        }),
      },
    };
    const { context, page } = await suite.openPane({ item: draft }, { at: '/addin/commands.html' });
    await expect.poll(() => raiseOnSend(page), { timeout: pageWaitMs }).toEqual({ allowEvent: true });
    const sent = await page.evaluate(
      (id) => (window as unknown as { __officeHost: Host }).__officeHost.sentCopy(id),
      transportId,
    );
    await context.close();
    return sent;
  }

  /** A pane signed in as Ada Admin, the colleague in Cc (her session put where the add-in keeps it). */
  const colleaguePane = (item: object, width: number, dark: boolean) =>
    suite.openPane({ item, dark }, { width, colorScheme: dark ? 'dark' : 'light', accessToken: suite.f.admin.token });

  const receivedBy = (sent: Record<string, unknown>) => ({
    ...sent,
    customProperties: {},
    sentAt: new Date(Date.now() + 4_000).toISOString(),
  });

  it('shows “Already filed” on the sent copy, adds its category once, and a colleague’s File finds the same record (mouse, 320 px, light)', async () => {
    const sent = await sendMarkedDraft('Dockside stair core pour sequence', '<stair-core-1@harbor.test>');
    const [filed] = await filedIn(suite.f.projectA2.id, 'stair core pour');
    expect(filed).toMatchObject({ subject: 'Dockside stair core pour sequence', sentMessageId: null });

    const { context, page } = await suite.openPane({ item: sent }, { width: 320 });
    await page.getByText(/Already filed in Dockside Offices by Mia Member on/).waitFor();
    await page.getByText('Filed in Dockside Offices when it was sent.').waitFor();
    await expect.poll(() => officeHostState(page, 'categories')).toEqual(['Filed: Dockside Offices']);
    await expect
      .poll(async () =>
        JSON.parse((await officeHostState<Record<string, string>>(page, 'customProperties')).sitefileFileWhenSent!),
      )
      .toMatchObject({ filedEmailId: filed!.id, sentMessageId: '<stair-core-1@harbor.test>' });
    expect((await filedIn(suite.f.projectA2.id, 'stair core pour'))[0]!.sentMessageId).toBe('stair-core-1@harbor.test');
    await shot(page, '30-sent-copy-filed-320-light');
    await expectAccessible(page);
    await context.close();

    // Ada, in Cc, opens her copy: already filed; choosing the project with the mouse and File change nothing.
    const colleague = await colleaguePane(receivedBy(sent), 320, false);
    await colleague.page.getByText(/Already filed in Dockside Offices by Mia Member on/).waitFor();
    await colleague.page.getByRole('combobox', { name: 'Or choose a project' }).click();
    await colleague.page.getByRole('option', { name: 'Dockside Offices' }).click();
    await colleague.page.getByRole('button', { name: 'File', exact: true }).click();
    await colleague.page
      .getByText(/Mia Member already filed this e-mail in Dockside Offices on .*Nothing was changed/)
      .waitFor();
    expect(await filedIn(suite.f.projectA2.id, 'stair core pour')).toHaveLength(1);
    await colleague.context.close();
  });

  it('is recognised by a colleague before the sender opened the sent copy, and filing it keeps one record (keyboard, 450 px, dark)', async () => {
    const sent = await sendMarkedDraft('Dockside loading bay bollards', '<bollards-1@harbor.test>');
    const { context, page } = await colleaguePane(receivedBy(sent), 450, true);
    await page.getByText(/Already filed in Dockside Offices by Mia Member on/).waitFor();
    const combobox = page.getByRole('combobox', { name: 'Or choose a project' });
    await chooseByKeyboard(combobox, 'Dockside', 'Dockside Offices');
    await page.getByRole('button', { name: 'File', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByText(/Mia Member already filed this e-mail in Dockside Offices/).waitFor();
    await shot(page, '31-colleague-already-filed-450-dark');
    await expectAccessible(page);
    const records = await filedIn(suite.f.projectA2.id, 'loading bay bollards');
    expect(records).toHaveLength(1);
    expect(records[0]!.sentMessageId).toBe('bollards-1@harbor.test');
    await context.close();
  });

  for (const { width, dark, by } of [
    { width: 320, dark: false, by: 'mouse' },
    { width: 450, dark: true, by: 'keyboard' },
  ] as const) {
    it(`shows a draft's “file when sent” mark again and drops it (${by}, ${width} px, ${dark ? 'dark' : 'light'})`, async () => {
      const draft = {
        ...openEmail,
        mode: 'compose',
        internetMessageId: undefined,
        attachments: [],
        dark,
        customProperties: {
          sitefileFileWhenSent: JSON.stringify({
            organizationId: suite.f.orgA.id,
            projectId: suite.f.projectA2.id,
            projectName: 'Dockside Offices',
          }),
        },
      };
      const { context, page } = await suite.openPane(
        { item: draft, dark },
        { width, colorScheme: dark ? 'dark' : 'light' },
      );
      await page.getByText('This e-mail will be filed in Dockside Offices as you send it.').waitFor();
      await shot(page, `32-draft-mark-${width}-${dark ? 'dark' : 'light'}`);
      await expectAccessible(page);
      const drop = page.getByRole('button', { name: "Don't file it" });
      await pressBy(drop, by);
      await page.getByText('Not filed when sent: this e-mail will be sent without being filed.').waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('filing-outcome');
      expect(await officeHostState(page, 'customProperties')).toEqual({});
      expect(await page.getByText('This e-mail will be filed in Dockside Offices').count()).toBe(0);
      // The form is back at the top suggestion; marked again, the new mark shows.
      await page.getByRole('button', { name: 'File this when sent' }).click();
      await page.getByText('This e-mail will be filed in Pier 9 Terminal as you send it.').waitFor();
      await context.close();
    });
  }
});
