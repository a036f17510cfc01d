import type { Browser, ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addinSignInPath } from '../../server/oauth/browser.fixtures.js';
import { ctx } from '../../test/fixture-server.js';
import { describeInBrowser, launchChromium, origin } from './chromium.js';

// The pages' Content-Security-Policy (server/http/security-headers.ts) as a browser applies it.

describeInBrowser('security headers in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium(ctx().server);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens a page, collecting the console's CSP complaints. */
  const open = async (url: string) => {
    const page = await browser.newPage();
    const refusals: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      if (/Content Security Policy|frame-ancestors|Refused to/.test(message.text())) refusals.push(message.text());
    });
    await page.goto(url);
    return { page, refusals };
  };

  it('no page can frame the admin console or the consent page, not even one of our own', async () => {
    const server = ctx().server;
    const page = await browser.newPage();
    // A page at our own origin (the browser would also refuse other sites, but it refuses their frames of a
    // local address for another reason too): 'none' refuses every ancestor, the add-in allows 'self'.
    const refused = ['/admin', addinSignInPath(server)];
    const allowed = ['/addin/taskpane.html', '/healthz'];
    await page.route(`${origin}/framer.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: [...refused, ...allowed].map((path) => `<iframe src="${origin}${path}"></iframe>`).join(''),
      }),
    );
    await page.goto(`${origin}/framer.html`);
    const frames = () => page.frames().slice(1);
    await expect.poll(() => frames().every((frame) => frame.url() !== 'about:blank')).toBe(true);
    // A refused frame shows Chromium's error page instead.
    expect(frames().map((frame) => frame.url())).toEqual([
      ...refused.map(() => 'chrome-error://chromewebdata/'),
      ...allowed.map((path) => `${origin}${path}`),
    ]);
    await page.close();
  });

  it('the API reference and the sign-in page work under their policies', async () => {
    const docs = await open(`${origin}/docs`);
    await docs.page.getByText('/v1/me').first().waitFor();
    expect(docs.refusals).toEqual([]);
    await docs.page.close();

    const signIn = await open(`${origin}${addinSignInPath(ctx().server)}`);
    await signIn.page.getByLabel('Email').waitFor();
    // The page's own inline style applies.
    expect(await signIn.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgb(245, 245, 245)',
    );
    expect(signIn.refusals).toEqual([]);
    await signIn.page.close();
  });
});
