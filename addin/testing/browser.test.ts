import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { repoRoot } from '../tools/manifest.js';
import {
  describeInBrowser,
  expectAccessible,
  launchChromium,
  officeHostState,
  openEmail,
  openPaneContext,
  origin,
  seedFilingHistory,
  shot,
  shotOnFailure,
  signInThroughDialog,
} from './chromium.js';

/** The main flow in Chromium (see ./chromium.ts for the stand-in Outlook), and the admin console. */

describeInBrowser('the add-in in Chromium', () => {
  let server: TestServer;
  let f: Fixtures;
  let browser: Browser;
  let pane: BrowserContext;
  let page: Page;
  let aiRequests = 0;
  let aiProvider: http.Server;

  beforeAll(async () => {
    aiProvider = http.createServer((req, res) => {
      aiRequests++;
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk;
      });
      req.on('end', () => {
        const messages = (JSON.parse(body) as { messages: { content: string }[] }).messages;
        const payload = JSON.parse(messages.at(-1)!.content) as { candidates: { ref: string }[] };
        const ranking = payload.candidates.map((c, i) => ({ ref: c.ref, score: 0.9 - i * 0.1 }));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ ranking }) } }] }),
        );
      });
    });
    await new Promise<void>((resolve) => aiProvider.listen(0, '127.0.0.1', resolve));
    const aiPort = (aiProvider.address() as AddressInfo).port;
    server = await startTestServer({
      env: { AI_BASE_URL: `http://127.0.0.1:${aiPort}/v1`, AI_API_KEY: 'fake', AI_MODEL: 'fake-model' },
    });
    f = await createFixtures(server);
    await seedFilingHistory(server, f);

    browser = await launchChromium(server);
    pane = await openPaneContext(browser, { item: openEmail, mailboxMinor: 8 });
    page = await pane.newPage();
  }, 180_000);

  // What the pane showed when a step failed.
  afterEach(({ task }) => shotOnFailure(page, task));

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    aiProvider?.close();
  });

  it('serves the pages and every icon the manifest names', async () => {
    const manifest = readFileSync(path.join(repoRoot, 'manifest.xml'), 'utf8');
    const icons = [...manifest.matchAll(/https:\/\/localhost:3000(\/addin\/icon-\d+\.png)/g)].map((m) => m[1]!);
    expect(icons.length).toBeGreaterThan(3);
    for (const icon of new Set(icons)) {
      const res = await server.request(icon);
      expect(res.status, icon).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
    }
    for (const page of ['/addin/', '/addin/taskpane.html', '/admin', '/addin/auth-callback.html']) {
      const res = await server.request(page);
      expect(res.status, page).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('signs in through the Office dialog with the authorization-code flow', async () => {
    await page.goto(`${origin}/addin/taskpane.html`);
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
    await page.getByText('Filed in Pier 9 Terminal with 1 attachment.').waitFor();
    await shot(page, '05-filed');

    const list = await server.call(
      `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails?search=${encodeURIComponent('curtain wall')}`,
      { token: f.admin.token },
    );
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { subject: string }) => e.subject)).toEqual([openEmail.subject]);
    const detail = await server.call(
      `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails/${list.body.data[0].id}`,
      { token: f.admin.token },
    );
    expect(detail.body.attachments.map((a: { name: string }) => a.name)).toEqual(['anchor-detail.txt']);
    expect(detail.body.filedBy.name).toBe('Mia Member');
    expect(detail.body.documentId).toBe('doc_rfi014');
  });

  it('says where the e-mail is already filed, and filing it again changes nothing', async () => {
    await page.reload();
    await page.getByText(/Already filed in Pier 9 Terminal \(RFI-014\) by Mia Member on/).waitFor();
    await shot(page, '06-already-filed');
    await expectAccessible(page);
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByText('Already in this project').waitFor();
    await page.getByText(/Mia Member already filed this e-mail in Pier 9 Terminal on/).waitFor();
    await shot(page, '07-duplicate');
    const list = await server.call(`/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails?search=anchor`, {
      token: f.admin.token,
    });
    expect(list.body.data).toHaveLength(1);
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
    const compose = await openPaneContext(
      browser,
      { item: { ...openEmail, mode: 'compose', internetMessageId: undefined, attachments: [] }, mailboxMinor: 8 },
      { signedInFrom: pane },
    );
    const composePage = await compose.newPage();
    await composePage.goto(`${origin}/addin/taskpane.html`);
    await composePage.getByRole('radio', { name: /Dockside Offices/ }).check();
    await composePage.getByRole('button', { name: 'File this when sent' }).click();
    await composePage.getByText('Will be filed when sent').waitFor();
    await shot(composePage, '15-compose');
    await expectAccessible(composePage);
    // The choice stays in the add-in's custom properties of the draft; no internet header goes to recipients.
    expect(await officeHostState(composePage, 'customProperties')).toEqual({
      sitefileFileWhenSent: JSON.stringify({ organizationId: f.orgA.id, projectId: f.projectA2.id }),
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
        sitefileFileWhenSent: JSON.stringify({ organizationId: f.orgA.id, projectId: f.projectA2.id }),
      },
      rawBase64: Buffer.from(mime).toString('base64'),
    };
    const raw = await openPaneContext(browser, { item: sent, mailboxMinor: 14 }, { signedInFrom: pane });
    const rawPage = await raw.newPage();
    await rawPage.goto(`${origin}/addin/taskpane.html`);
    await rawPage.getByText('You chose Dockside Offices for this e-mail while writing it.').waitFor();
    await rawPage.getByRole('button', { name: 'File', exact: true }).click();
    await rawPage.getByText('Filed in Dockside Offices with 1 attachment.').waitFor();
    await shot(rawPage, '16-raw-message');
    const calls = await rawPage.evaluate(
      () => (window as unknown as { __officeHost: { calls: string[] } }).__officeHost.calls,
    );
    expect(calls).toContain('getAsFileAsync');
    expect(calls.some((c) => c.startsWith('getAttachmentContentAsync'))).toBe(false);
    const list = await server.call(
      `/v1/organization/${f.orgA.id}/project/${f.projectA2.id}/emails?search=${encodeURIComponent('shop drawings')}`,
      {
        token: f.admin.token,
      },
    );
    expect(list.body.data.map((e: { subject: string }) => e.subject)).toEqual(['Handrail shop drawings']);
    const detail = await server.call(
      `/v1/organization/${f.orgA.id}/project/${f.projectA2.id}/emails/${list.body.data[0].id}`,
      { token: f.admin.token },
    );
    expect(detail.body.original).not.toBeNull();
    expect(detail.body.attachments.map((a: { name: string }) => a.name)).toEqual(['handrail-notes.txt']);
    await raw.close();
  });

  it('sent nothing to the AI provider while aiSuggest is off', () => {
    expect(aiRequests).toBe(0);
  });

  it('follows Office’s dark theme (not the light system) edge to edge, and works by keyboard', async () => {
    const dark = await openPaneContext(
      browser,
      { item: openEmail, mailboxMinor: 8, dark: true },
      { signedInFrom: pane, colorScheme: 'light' },
    );
    const darkPage = await dark.newPage();
    const opened = Date.now();
    await darkPage.goto(`${origin}/addin/taskpane.html`);
    await darkPage.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    // A figure for the docs, not an assertion: machines are noisy.
    console.log(`task pane opened to first suggestions: ${Date.now() - opened} ms`);
    await darkPage.getByRole('radio', { name: /Pier 9 Terminal/ }).focus();
    await darkPage.keyboard.press('ArrowDown');
    expect(await darkPage.getByRole('radio', { name: /Dockside Offices/ }).isChecked()).toBe(true);
    expect(await darkPage.getByRole('combobox', { name: 'Or choose a project' }).inputValue()).toBe('Dockside Offices');
    // No white frame: the very corner of the pane is the theme's background.
    const corner = await darkPage.evaluate(() => getComputedStyle(document.elementFromPoint(0, 0)!).backgroundColor);
    expect(corner).toBe('rgb(41, 41, 41)');
    await shot(darkPage, '09-dark-mode');
    await expectAccessible(darkPage);
    await dark.close();
  });

  describe('admin console', () => {
    let admin: BrowserContext;
    let adminPage: Page;

    beforeAll(async () => {
      admin = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      admin.setDefaultTimeout(10_000);
      adminPage = await admin.newPage();
    });
    afterEach(async ({ task }) => {
      if (task.result?.state === 'fail' && adminPage)
        await shot(adminPage, `failed-admin-${task.name.slice(0, 30).replace(/\W+/g, '-')}`);
    });
    afterAll(() => admin?.close());

    it('signs staff in with a redirect and switches aiSuggest on; the add-in sees it at its next request', async () => {
      await adminPage.goto(`${origin}/admin`);
      await adminPage.getByRole('button', { name: 'Sign in to Sitefile' }).click();
      await adminPage.getByLabel('Email').fill('staff@sitefile.test');
      await adminPage.getByLabel('Password').fill('staff-pass-1');
      await adminPage.getByRole('button', { name: 'Sign in' }).click();
      await adminPage.getByRole('button', { name: 'Allow' }).click();
      await adminPage.waitForURL(`${origin}/admin`);
      const aiSwitch = adminPage.getByRole('switch', { name: 'AI suggestions are off' });
      await aiSwitch.waitFor();
      await shot(adminPage, '10-admin-ai-off');
      await expectAccessible(adminPage);
      await aiSwitch.click();
      await adminPage.getByRole('switch', { name: 'AI suggestions are on' }).waitFor();
      await shot(adminPage, '11-admin-ai-on');
      const settings = await server.call(`/v1/organization/${f.orgA.id}/email-filing-settings`, {
        token: f.admin.token,
      });
      expect(settings.body.data.aiSuggest).toBe(true);

      await page.getByRole('tab', { name: 'File', exact: true }).click();
      await page.reload();
      await page.getByText('AI suggestions on').waitFor();
      await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
      expect(aiRequests).toBeGreaterThan(0);
      await shot(page, '12-suggestions-ai-on');
    });

    it('creates an API key and shows its secret exactly once', async () => {
      await adminPage.getByLabel('Name').fill('Scheduling export');
      await adminPage.getByRole('checkbox', { name: 'email:read' }).check();
      await adminPage.getByRole('checkbox', { name: 'Dockside Offices' }).check();
      await adminPage.getByRole('button', { name: 'Create key' }).click();
      const secret = adminPage.getByTestId('client-secret');
      await secret.waitFor();
      const secretText = (await secret.textContent())!;
      expect(secretText.length).toBeGreaterThan(20);
      await adminPage.getByRole('button', { name: 'Copy secret' }).waitFor();
      // The secret takes the focus (scrolled into view); the form is empty again for the next key.
      expect(await secret.evaluate((element) => document.activeElement?.contains(element))).toBe(true);
      expect(await adminPage.getByLabel('Name').inputValue()).toBe('');
      await shot(adminPage, '13-admin-key-secret');
      await expectAccessible(adminPage);

      const keys = await server.call('/v1/admin/clients', { token: f.staff.token });
      const created = keys.body.data.find((k: { name: string }) => k.name === 'Scheduling export');
      expect(created.scopes.projects.map((p: { projectId: string }) => p.projectId)).toEqual([f.projectA2.id]);
      expect(created.permissions['email:read']).toBe(true);
      const token = await server.call('/v1/oauth/token', {
        method: 'POST',
        json: { client_id: created.clientId, client_secret: secretText },
      });
      expect(token.status).toBe(200);

      await adminPage.getByRole('button', { name: 'I have stored it' }).click();
      await adminPage.reload();
      await adminPage.getByRole('cell', { name: /Scheduling export/ }).waitFor();
      expect(await adminPage.content()).not.toContain(secretText);
      await shot(adminPage, '14-admin-keys');
    });

    it('lets staff add a support issue that the runbook shows and finds', async () => {
      await adminPage.getByLabel('Title').fill('Add-in shows "signed out" after password change');
      await adminPage.getByLabel('What goes wrong').fill('Refresh tokens of the old session are revoked.');
      await adminPage.getByLabel('How to resolve it').fill('Ask the user to press Sign in again in the task pane.');
      await adminPage.getByRole('button', { name: 'Add to the runbook' }).click();
      await adminPage.getByText('is in the runbook.').waitFor();
      await adminPage.getByText('1 entry', { exact: true }).waitFor();
      await adminPage.getByRole('searchbox', { name: 'Search the runbook' }).fill('refresh tokens');
      await adminPage.getByRole('searchbox', { name: 'Search the runbook' }).press('Enter');
      await adminPage.getByText('Approach:').waitFor();
      await shot(adminPage, '17-admin-runbook');
      await expectAccessible(adminPage);
      await adminPage.getByRole('searchbox', { name: 'Search the runbook' }).fill('nothing like this');
      await adminPage.getByRole('searchbox', { name: 'Search the runbook' }).press('Enter');
      await adminPage.getByText('No entry matches.').waitFor();
    });

    it('lets an organization admin toggle aiSuggest and create a key whose secret is shown once', async () => {
      const orgAdmin = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      orgAdmin.setDefaultTimeout(10_000);
      const adminOnly = await orgAdmin.newPage();
      await adminOnly.goto(`${origin}/admin`);
      await adminOnly.getByRole('button', { name: 'Sign in to Sitefile' }).click();
      await adminOnly.getByLabel('Email').fill('admin@harbor.test');
      await adminOnly.getByLabel('Password').fill('admin-pass-1');
      await adminOnly.getByRole('button', { name: 'Sign in' }).click();
      await adminOnly.getByRole('button', { name: 'Allow' }).click();
      // The switch staff turned on: the organization's admin turns it off through the organization route.
      await adminOnly.getByRole('switch', { name: 'AI suggestions are on' }).click();
      await adminOnly.getByRole('switch', { name: 'AI suggestions are off' }).waitFor();
      const settings = await server.call(`/v1/organization/${f.orgA.id}/email-filing-settings`, {
        token: f.member.token,
      });
      expect(settings.body.data.aiSuggest).toBe(false);
      // The organization's keys (the one staff made for Dockside Offices included), but no staff runbook.
      await adminOnly.getByRole('cell', { name: /Scheduling export/ }).waitFor();
      expect(await adminOnly.getByText('Support issues and runbook').count()).toBe(0);

      await adminOnly.getByLabel('Name').fill('Site diary sync');
      await adminOnly.getByRole('checkbox', { name: 'Pier 9 Terminal' }).check();
      await adminOnly.getByRole('button', { name: 'Create key' }).click();
      const secret = adminOnly.getByTestId('client-secret');
      await secret.waitFor();
      const secretText = (await secret.textContent())!;
      expect(secretText.length).toBeGreaterThan(20);
      await shot(adminOnly, '18-admin-org-admin-key-secret');
      await expectAccessible(adminOnly);

      const keys = await server.call(`/v1/organization/${f.orgA.id}/clients`, { token: f.admin.token });
      const created = keys.body.data.find((k: { name: string }) => k.name === 'Site diary sync');
      expect(created).toMatchObject({ createdBy: 'admin@harbor.test', orgIds: [f.orgA.id], superadmin: false });
      expect(created.scopes.projects.map((p: { projectId: string }) => p.projectId)).toEqual([f.projectA1.id]);
      const token = await server.call('/v1/oauth/token', {
        method: 'POST',
        json: { client_id: created.clientId, client_secret: secretText },
      });
      expect(token.status).toBe(200);

      await adminOnly.getByRole('button', { name: 'I have stored it' }).click();
      await adminOnly.reload();
      await adminOnly.getByRole('cell', { name: /Site diary sync/ }).waitFor();
      expect(await adminOnly.content()).not.toContain(secretText);
      await shot(adminOnly, '19-admin-org-admin-keys');
      await orgAdmin.close();
    });
  });
});
