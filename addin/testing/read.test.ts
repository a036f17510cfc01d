import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkce } from '../../server/oauth/browser.fixtures.js';
import { repoRoot } from '../tools/manifest.js';
import {
  describeInBrowser,
  expectAccessible,
  openEmail,
  origin,
  requestsInFlight,
  shot,
  signInToAdmin,
} from './chromium.js';
import { useBrowserSuite } from './suite.js';

/**
 * Opening what was filed (from "Already filed" and from search), search by any subject text, filing again onto an
 * RFI, the result in view after File, a delegate's category, the offline bar's promise, and the consent page of a
 * self-registered client in Outlook's 300 px dialog; axe on every screen at 320 and 450 px, light and dark.
 */

const widths = [320, 450] as const;
/** A screenshot of the window only (not the full page): what is in view. */
const artifact = (name: string) => path.join(repoRoot, 'test/artifacts/addin', `${name}.png`);
const themes = ['light', 'dark'] as const;
type Theme = (typeof themes)[number];

/** An e-mail filed earlier by Ada Admin into Pier 9 Terminal (no RFI), with its two attachments. */
const filedEarlier = {
  ...openEmail,
  internetMessageId: '<read-view-1@steel.example>',
  subject: 'RE: <Pier 9> anchor bolts, revision D',
  bodyText: 'Mia,\n\nrevision D moves the anchors to 250 centres.\n\nLee',
};

describeInBrowser('opening what was filed', () => {
  const suite = useBrowserSuite();
  const emailsPath = () => `/v1/organization/${suite.f.orgA.id}/project/${suite.f.projectA1.id}/emails`;

  const fileByApi = async (email: typeof filedEarlier) => {
    const res = await suite.server.call(emailsPath(), {
      method: 'POST',
      token: suite.f.admin.token,
      json: {
        subject: email.subject,
        from: email.from,
        to: email.to.map((p) => p.address),
        internetMessageId: email.internetMessageId,
        sentAt: email.sentAt,
        bodyText: email.bodyText,
        attachments: email.attachments.map((a) => ({
          name: a.name,
          contentType: a.contentType,
          contentBase64: a.content,
        })),
      },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  // Filed before the tests: each one that opens it needs no other to have run first.
  beforeAll(() => fileByApi(filedEarlier));

  const openPane = async (item: object, width: number, theme: Theme, host: Record<string, unknown> = {}) => {
    const { context, page } = await suite.openPane(
      { item, dark: theme === 'dark', ...host },
      { width, colorScheme: theme },
    );
    return { context, page };
  };

  /** The read view of `filedEarlier`: headers, body, attachments whose signed links give the bytes filed. */
  const expectReadView = async (page: Page) => {
    const heading = page.getByRole('heading', { name: filedEarlier.subject });
    await heading.waitFor();
    expect(await heading.evaluate((h) => h === document.activeElement)).toBe(true);
    await page.getByText('Lee Chen <lee@steel.example>').waitFor();
    await page.getByText('revision D moves the anchors to 250 centres.').waitFor();
    await page.getByText(/^by Ada Admin on /).waitFor();
    const link = page.getByRole('link', { name: 'anchor-detail.txt' });
    // The signed link, fetched as the browser would follow it (no token).
    const download = await page.evaluate(
      async (url) => {
        const res = await fetch(url, { credentials: 'omit' });
        return { status: res.status, disposition: res.headers.get('content-disposition'), text: await res.text() };
      },
      (await link.getAttribute('href'))!,
    );
    expect(download).toEqual({
      status: 200,
      disposition: expect.stringMatching(/^attachment/),
      text: 'Anchor detail rev C: M12 at 300 centres',
    });
    expect(await page.getByRole('link', { name: 'site-photo.jpg' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Download the original e-mail (.eml)' }).count()).toBe(1);
  };

  // One test a layout: each loads the pane and three views of it, a browser test's budget (vitest.config.ts).
  for (const width of widths) {
    for (const theme of themes) {
      it(`opens the filed e-mail from "Already filed" by mouse, and from search by keyboard (${width} px, ${theme})`, async () => {
        const { context, page } = await openPane(filedEarlier, width, theme);
        await page.getByText(/Already filed in Pier 9 Terminal by Ada Admin on/).waitFor();
        await expectAccessible(page);
        await page.getByRole('button', { name: 'Open it as filed in Pier 9 Terminal' }).click();
        await expectReadView(page);
        await shot(page, `read-view-${width}-${theme}`);
        await expectAccessible(page);
        // No text wider than the pane.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

        // Back to the list (the project's e-mails with this subject), then open it again by keyboard.
        await page.getByRole('button', { name: '← Back to the list' }).click();
        const found = page.getByRole('button', { name: filedEarlier.subject });
        await found.waitFor();
        await shot(page, `read-list-${width}-${theme}`);
        await expectAccessible(page);
        await found.focus();
        await page.keyboard.press('Enter');
        await expectReadView(page);
        await context.close();
      });
    }
  }

  it('finds a subject with <…> in the Filed e-mails tab and opens it', async () => {
    const { context, page } = await openPane(openEmail, 320, 'light');
    await page.getByRole('tab', { name: 'Filed e-mails' }).click();
    const picker = page.getByRole('combobox', { name: 'Project' });
    await picker.click();
    await picker.pressSequentially('Pier');
    await page.getByRole('option', { name: 'Pier 9 Terminal' }).click();
    const search = page.getByRole('searchbox', { name: 'Search filed e-mails' });
    await search.fill('<Pier 9>');
    await search.press('Enter');
    // Its words find it (and the other e-mails about Pier 9).
    await page.getByRole('button', { name: filedEarlier.subject }).waitFor();
    await shot(page, 'read-search-brackets');
    await page.getByRole('button', { name: filedEarlier.subject }).click();
    await expectReadView(page);
    await context.close();
  });

  it('filing an already filed e-mail again with an RFI chosen links it to the RFI', async () => {
    const { context, page } = await openPane(filedEarlier, 450, 'light');
    await page.getByText(/Already filed in Pier 9 Terminal by Ada Admin on/).waitFor();
    const documentPicker = page.getByRole('combobox', { name: 'RFI or submittal (optional)' });
    await documentPicker.click();
    await documentPicker.pressSequentially('anchor');
    await page.getByRole('option', { name: 'RFI-014 · Curtain wall anchor spacing' }).click();
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByText('Linked to RFI-014').waitFor();
    await page
      .getByText(
        /Ada Admin had filed this e-mail in Pier 9 Terminal on .*; it is now on RFI-014 · Curtain wall anchor spacing too\./,
      )
      .waitFor();
    expect(await page.getByText('Nothing was changed').count()).toBe(0);
    await shot(page, 'read-linked-to-rfi');
    await expectAccessible(page);
    const list = await suite.server.call(`${emailsPath()}?documentId=doc_rfi014`, { token: suite.f.admin.token });
    expect(list.body.data.map((e: { subject: string }) => e.subject)).toContain(filedEarlier.subject);
    await context.close();
  });

  it('after File at 350×800 the result is in view, and the focus on it', async () => {
    const { context, page } = await suite.openPane({ item: openEmail }, { height: 800 });
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    const requests = requestsInFlight(page);
    await page.getByRole('button', { name: 'File', exact: true }).click();
    const outcome = page.getByTestId('filing-outcome');
    await page.getByText(/Filed in Pier 9 Terminal with 2 attachments/).waitFor();
    // Whatever loads after File must not push the result away: wait until the requests that follow it have ended.
    await requests.quiet();
    const box = (await outcome.boundingBox())!;
    const scrollY = await page.evaluate(() => window.scrollY);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    expect(await outcome.evaluate((o) => o === document.activeElement)).toBe(true);
    expect(scrollY).toBeGreaterThanOrEqual(0);
    await page.screenshot({ path: artifact('read-filed-350x800') });
    await context.close();
  });

  it('tells a delegate when the category cannot be added to the owner’s list', async () => {
    const delegated = {
      ...openEmail,
      internetMessageId: '<delegate-category@steel.example>',
      subject: 'Delegate copy: crane schedule',
      sharedMailbox: { owner: 'projects@harbor.test', permissions: 3 },
    };
    const { context, page } = await openPane(delegated, 320, 'dark', { masterCategoriesLocked: true });
    await page.getByText('In the shared mailbox projects@harbor.test').waitFor();
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page
      .getByText(
        /Not marked in Outlook: “Filed: Pier 9 Terminal” is not in the categories of projects@harbor\.test’s mailbox yet/,
      )
      .waitFor();
    await shot(page, 'read-delegate-category');
    await expectAccessible(page);
    await context.close();
  });

  it('after an outage, the search the outage stopped runs again by itself, as the offline bar says', async () => {
    // Its own filed e-mail, so that the test needs no other test to have run first.
    await fileByApi({
      ...filedEarlier,
      internetMessageId: '<read-outage@steel.example>',
      subject: 'Grout curing log, week 12',
      bodyText: 'Mia,\n\nthe grout curing log for week 12 is attached.\n\nLee',
    });
    const { context, page } = await openPane(openEmail, 450, 'dark');
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    await page.getByRole('tab', { name: 'Filed e-mails' }).click();
    const picker = page.getByRole('combobox', { name: 'Project' });
    await picker.click();
    await picker.pressSequentially('Pier');
    await page.getByRole('option', { name: 'Pier 9 Terminal' }).click();
    // Pier 9's list has loaded (its count, not the search box's label "Search filed e-mails").
    await page.getByText(/^\d+ filed e-mails?$/).waitFor();
    await context.route(`${origin}/v1/**`, (route) => route.abort('internetdisconnected'));
    const search = page.getByRole('searchbox', { name: 'Search filed e-mails' });
    await search.fill('grout curing');
    await search.press('Enter');
    await page.getByText('Offline', { exact: true }).waitFor();
    await page.getByText(/loads again what could not load; an e-mail that was not filed waits for you/).waitFor();
    await shot(page, 'read-offline-search');
    await expectAccessible(page);
    await context.unroute(`${origin}/v1/**`);
    // No click: the bar's check finds the server, and the search runs again.
    await page.getByText('1 filed e-mail', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByText('Offline', { exact: true }).waitFor({ state: 'hidden' });
    await context.close();
  });

  it('the consent page of a self-registered client fits Outlook’s 300 px dialog: Allow in view, focus on the question', async () => {
    const redirect = 'http://127.0.0.1:33418/callback';
    const client = await suite.server.call('/oauth/register', {
      method: 'POST',
      json: { client_name: 'Site Diary Agent', redirect_uris: [redirect] },
    });
    expect(client.status).toBe(201);
    for (const theme of themes) {
      const context = await suite.browser.newContext({ viewport: { width: 300, height: 480 }, colorScheme: theme });
      const page = await context.newPage();
      suite.page = page;
      const url = new URL(`${origin}/oauth/authorize`);
      for (const [k, v] of Object.entries({
        response_type: 'code',
        client_id: client.body.client_id,
        redirect_uri: redirect,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      })) {
        url.searchParams.set(k, v);
      }
      await page.goto(url.href);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
      await page.keyboard.type('member@harbor.test');
      await page.getByLabel('Password').fill('member-pass-1');
      await page.keyboard.press('Enter');
      const question = page.getByRole('heading', { name: 'Allow an unverified application to access Sitefile?' });
      await question.waitFor();
      expect(await question.evaluate((h) => h === document.activeElement)).toBe(true);
      const allow = (await page.getByRole('button', { name: 'Allow' }).boundingBox())!;
      const deny = (await page.getByRole('button', { name: 'Deny' }).boundingBox())!;
      for (const button of [allow, deny]) {
        expect(button.y).toBeGreaterThanOrEqual(0);
        expect(button.y + button.height).toBeLessThanOrEqual(480);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(300);
      await page.screenshot({ path: artifact(`read-consent-300-${theme}`) });
      await expectAccessible(page);
      // By keyboard: one Tab from the question reaches Allow.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Allow');
      const back = page.waitForRequest((request) => request.url().startsWith(`${redirect}?code=`));
      await page.keyboard.press('Enter');
      await back;
      await context.close();
    }
  });

  const compose = { ...openEmail, mode: 'compose', internetMessageId: undefined, attachments: [] };
  const screens: {
    name: string;
    host: Record<string, unknown>;
    signedIn: boolean;
    shows: (page: Page) => unknown;
  }[] = [
    {
      name: 'signed-out',
      host: { item: openEmail },
      signedIn: false,
      shows: (page) => page.getByRole('button', { name: 'Sign in to Sitefile' }).waitFor(),
    },
    {
      name: 'no-host',
      host: {},
      signedIn: true,
      shows: (page) => page.getByRole('heading', { name: 'Sitefile for Outlook' }).waitFor(),
    },
    {
      name: 'no-item',
      host: { noItemSelected: true },
      signedIn: true,
      shows: (page) => page.getByText('Select an e-mail to see where it belongs and file it.').waitFor(),
    },
    {
      name: 'compose',
      host: { item: compose },
      signedIn: true,
      shows: (page) => page.getByRole('button', { name: 'File this when sent' }).waitFor(),
    },
  ];
  // One test a layout: each loads the four screens, a browser test's budget (vitest.config.ts).
  for (const width of widths) {
    for (const theme of themes) {
      it(`axe finds nothing serious on the pane’s other screens (${width} px, ${theme})`, async () => {
        for (const screen of screens) {
          const { context, page } = await suite.openPane(
            { ...screen.host, dark: theme === 'dark' },
            { signedIn: screen.signedIn && suite.signedIn, width, colorScheme: theme },
          );
          await screen.shows(page);
          await shot(page, `read-screen-${screen.name}-${width}-${theme}`);
          await expectAccessible(page);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          await context.close();
        }
      });
    }
  }

  describe('the admin console', () => {
    let signedIn: BrowserContext;
    beforeAll(async () => {
      signedIn = await suite.browser.newContext();
      await signInToAdmin(await signedIn.newPage(), 'staff@sitefile.test', 'staff-pass-1');
    });
    afterAll(() => signedIn?.close());

    // One test a layout: each loads the console signed in and signed out.
    for (const width of widths) {
      for (const theme of themes) {
        it(`axe finds nothing serious on it signed in and out (${width} px, ${theme})`, async () => {
          const context = await suite.browser.newContext({
            viewport: { width, height: 900 },
            colorScheme: theme,
            storageState: await signedIn.storageState(),
          });
          const page = await context.newPage();
          suite.page = page;
          await page.goto(`${origin}/admin`);
          await page.getByText('AI project suggestions').waitFor();
          await page.getByText('Support issues and runbook').waitFor();
          await shot(page, `read-admin-${width}-${theme}`);
          await expectAccessible(page);
          const signedOut = await suite.browser.newContext({ viewport: { width, height: 900 }, colorScheme: theme });
          const outPage = await signedOut.newPage();
          await outPage.goto(`${origin}/admin`);
          await outPage.getByRole('button', { name: 'Sign in to Sitefile' }).waitFor();
          await expectAccessible(outPage);
          await signedOut.close();
          await context.close();
        });
      }
    }
  });
});
