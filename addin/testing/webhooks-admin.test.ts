import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Receiver, startReceiver, verified } from '../../server/webhooks/webhooks.fixtures.js';
import { describeInBrowser, expectAccessible, shot } from './chromium.js';
import { useBrowserSuite } from './suite.js';

/** The admin console's webhooks, as an organization admin uses them: add (secret once), test, log, delete. */
describeInBrowser('webhooks in the admin console', () => {
  // The receiver listens on 127.0.0.1.
  const suite = useBrowserSuite({ signIn: false, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' } });
  let admin: BrowserContext;
  let page: Page;
  let receiver: Receiver;
  let secret: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    ({ context: admin, page } = await suite.openAdmin({ signInAs: ['admin@harbor.test', 'admin-pass-1'] }));
  });
  afterAll(async () => {
    await admin?.close();
    await receiver?.close();
  });

  it('adds a webhook and shows its signing secret once', async () => {
    const { server, f } = suite;
    await page.getByText('No webhooks yet.').waitFor();
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill(receiver.url);
    await page.getByLabel('Description').fill('ERP sync');
    await page.getByRole('checkbox', { name: 'activity.created' }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await shot(page, '40-admin-webhook-secret');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(() => page.getByTestId('webhook-secret').count()).toBe(0);
    const listed = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem');
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.first().textContent()).toContain('Events: email.filed, activity.created');
    const [hook] = (await server.call(`/v1/organization/${f.orgA.id}/webhooks`, { token: f.admin.token })).body.data;
    expect(hook).toMatchObject({
      url: receiver.url,
      description: 'ERP sync',
      events: ['email.filed', 'activity.created'],
    });
  });

  it('sends a test event the receiver can verify with the secret shown, and shows it in the delivery log', async () => {
    await page.getByRole('button', { name: 'Send test' }).click();
    const [request] = await receiver.waitForRequests(1);
    expect(verified(secret, request!).type).toBe('webhook.test');
    // The log opened with the queued delivery; reopened, it shows the answer.
    await page.getByRole('button', { name: 'Hide deliveries' }).click();
    await page.getByRole('button', { name: 'Deliveries', exact: true }).click();
    await page.getByText('webhook.test — succeeded').waitFor();
    await page.getByText(/attempts: 1: 200/).waitFor();
    await shot(page, '41-admin-webhook-deliveries');
    await expectAccessible(page);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`fits 320 px in ${colorScheme}: nothing sticks out sideways`, async () => {
      const { context: narrow, page: small } = await suite.openAdmin({ width: 320, colorScheme, signedIn: admin });
      await small.getByRole('list', { name: 'Webhooks' }).waitFor();
      expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
      await shot(small, `42-admin-webhooks-320-${colorScheme}`);
      await expectAccessible(small);
      await narrow.close();
      suite.page = page;
    });
  }

  it('deletes the webhook after asking', async () => {
    const { server, f } = suite;
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('list', { name: 'Webhooks' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No webhooks yet.').waitFor();
    expect((await server.call(`/v1/organization/${f.orgA.id}/webhooks`, { token: f.admin.token })).body.data).toEqual(
      [],
    );
  });
});
