import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findTool } from '../../test/system-tools.js';
import { describeInBrowser, expectAccessible } from './chromium.js';

const page = (body: string) =>
  `<html lang="en"><head><title>Check</title></head><body><main>${body}</main></body></html>`;

// The browser tests lean on expectAccessible; it looks twice, so a passing state is forgiven and a lasting one not.
describeInBrowser('the accessibility check', () => {
  let browser: Awaited<ReturnType<typeof chromium.launch>>;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: findTool('chromium'), args: ['--headless', '--no-sandbox'] });
  });
  afterAll(() => browser?.close());

  it('fails on text that stays unreadable, naming the element', async () => {
    const tab = await browser.newPage();
    await tab.setContent(page('<p style="color:#ccc;background:#fff">Filed to Pier 9</p>'));
    const failure = await expectAccessible(tab).then(
      () => undefined,
      (error: { actual?: unknown }) => JSON.stringify(error.actual),
    );
    expect(failure).toMatch(/color-contrast.*Filed to Pier 9/);
  });

  it('passes text that is unreadable only for a moment', async () => {
    const tab = await browser.newPage();
    await tab.setContent(
      page(`<p id="text" style="color:#ccc;background:#fff">Filed to Pier 9</p>
        <script>setTimeout(() => { document.getElementById('text').style.color = '#000'; }, 300);</script>`),
    );
    await expectAccessible(tab);
  });
});
