import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, officeHostState, openEmail, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * Follow-ups: a reply in a conversation already filed is filed with its thread in one click (mouse, 320 px, light),
 * and with the person's setting (Outlook roaming settings, chosen by keyboard at 450 px, dark) as it is opened.
 */

describeInBrowser('a reply in a filed conversation', () => {
  const suite = useBrowserSuite();
  const conversationId = 'AAQkADAwATM0MDAAMS1-hoist-schedule';

  beforeAll(async () => {
    const { server, f } = suite;
    // The first message of the conversation, filed into Dockside Offices.
    const first = await server.call(`/v1/organization/${f.orgA.id}/project/${f.projectA2.id}/emails`, {
      method: 'POST',
      token: f.member.token,
      json: {
        subject: 'Hoist schedule for level 4',
        from: { address: 'lee@steel.example', name: 'Lee Chen' },
        to: ['member@harbor.test'],
        internetMessageId: '<hoist-1@steel.example>',
        conversationId,
        bodyText: 'The hoist is booked for level 4 on Monday.',
      },
    });
    expect(first.status).toBe(201);
  });

  const replyOf = (n: number) => ({
    ...openEmail,
    internetMessageId: `<hoist-${n}@steel.example>`,
    conversationId,
    subject: 'RE: Hoist schedule for level 4',
    bodyText: `Reply ${n}: Tuesday works better for the glazing crew.`,
  });

  const filedReplies = async () =>
    (await suite.filedIn(suite.f.projectA2.id, 'glazing')).map((e) => e.internetMessageId);

  it('offers “File with the thread” and files the reply there in one click (mouse, 320 px, light)', async () => {
    const { context, page } = await suite.openPane({ item: replyOf(2) }, { width: 320 });
    await page.getByText('This conversation is filed in Dockside Offices.').waitFor();
    await shot(page, '33-follow-up-320-light');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'File with the thread' }).click();
    await page.getByText(/Filed in Dockside Offices with 2 attachments\./).waitFor();
    expect(await filedReplies()).toEqual(['hoist-2@steel.example']);
    // Filed now: the offer is gone and the result says where (the earlier-filings bar is not reloaded above the
    // result, so that the result keeps its place: read.test.ts "after File at 350×800").
    expect(await page.getByRole('button', { name: 'File with the thread' }).count()).toBe(0);
    expect(await page.getByText('A reply in a filed conversation').count()).toBe(0);
    await context.close();
  });

  it('keeps the choice to file such replies on opening, and files the next one as it opens (keyboard, 450 px, dark)', async () => {
    const { context, page } = await suite.openPane(
      { item: replyOf(3), dark: true },
      { width: 450, colorScheme: 'light' },
    );
    const setting = page.getByRole('checkbox', { name: 'File replies like this one as I open them' });
    await page.getByText('This conversation is filed in Dockside Offices.').waitFor();
    await shot(page, '33-follow-up-450-dark');
    await expectAccessible(page);
    await setting.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => officeHostState(page, 'roaming')).toMatchObject({ sitefileFileFollowUps: true });
    // The checkbox files this one too (it is the setting's first use): the reply lands with its thread.
    await page.getByText(/Filed in Dockside Offices with 2 attachments\./).waitFor();
    await shot(page, '34-follow-up-auto-450-dark');
    await expectAccessible(page);
    const roaming = await officeHostState<Record<string, unknown>>(page, 'roaming');
    await context.close();

    // The next reply, opened in another Outlook of the same person (roaming settings follow them): filed on opening.
    const { context: next, page: nextPage } = await suite.openPane(
      { item: replyOf(4), roaming, dark: true },
      { width: 450 },
    );
    await nextPage.getByText(/Filed in Dockside Offices with 2 attachments\./).waitFor();
    expect((await filedReplies()).sort()).toEqual([
      'hoist-2@steel.example',
      'hoist-3@steel.example',
      'hoist-4@steel.example',
    ]);
    await next.close();
  });
});
