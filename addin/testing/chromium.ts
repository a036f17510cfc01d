import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Locator, type Page, type Request } from 'playwright-core';
import { expect } from 'vitest';
import { documents } from '../../server/db/schema.js';
import type { Fixtures, TestServer } from '../../test/harness.js';
import { describeNeeds, findTool } from '../../test/system-tools.js';
import { repoRoot } from '../tools/manifest.js';
import { officeEnums } from './office-enums.js';

/**
 * What the browser tests share: Debian's Chromium against the built bundle served by the real server. Outlook is
 * replaced by a stand-in office.js (./office-host.js) that provides `Office` with one mailbox item; the sign-in
 * runs the real OAuth flow in the stand-in's dialog (a popup). The browser reaches the server as
 * http://sitefile.test (the test server's public URL) through a host-resolver rule.
 */

const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const officeJsUrl = 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js';
export const origin = 'http://sitefile.test';
const artifacts = path.join(repoRoot, 'test/artifacts/addin');
const stub = `const officeEnums = ${JSON.stringify(officeEnums)};\n${readFileSync(path.join(repoRoot, 'addin/testing/office-host.js'), 'utf8')}`;
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** `describe` where Debian's Chromium is on PATH, else skipped with a line saying why (test/system-tools.ts). */
/** The layouts every pane screen is tested in: mouse and keyboard, each at 320 and 450 px, in light and dark. */
export const paneLayouts = [
  { input: 'mouse', width: 320, theme: 'light' },
  { input: 'keyboard', width: 320, theme: 'dark' },
  { input: 'keyboard', width: 450, theme: 'light' },
  { input: 'mouse', width: 450, theme: 'dark' },
] as const;

export const describeInBrowser = (name: string, body: () => void) => describeNeeds(['chromium'], name, body);

/**
 * The longest one wait on a page may take (a locator's, a poll's): a page's load and checks at CI's load (7 to 38
 * on two cores) take up to 30 s. A wait that fails then says what it waited for, within the test's budget
 * (vitest.config.ts).
 */
export const pageWaitMs = 30_000;

/** The e-mail open in the stand-in Outlook. */
export const openEmail = {
  mode: 'read',
  internetMessageId: '<anchor-detail-7@steel.example>',
  conversationId: 'AAQkADAwATM0MDAAMS1hYjQ3',
  subject: 'Pier 9 Terminal: curtain wall anchor detail',
  from: { address: 'lee@steel.example', name: 'Lee Chen' },
  to: [{ address: 'member@harbor.test', name: 'Mia Member' }],
  cc: [],
  sentAt: '2026-03-02T08:15:00Z',
  bodyText: 'Hello Mia,\n\nattached is the revised anchor detail for the east curtain wall.\n\nLee',
  bodyHtml: '<p>Hello Mia,</p><p>attached is the revised anchor detail for the east curtain wall.</p><p>Lee</p>',
  attachments: [
    {
      id: 'att-1',
      name: 'anchor-detail.txt',
      contentType: 'text/plain',
      size: 38,
      isInline: false,
      content: b64('Anchor detail rev C: M12 at 300 centres'),
    },
    {
      id: 'att-2',
      name: 'site-photo.jpg',
      contentType: 'image/jpeg',
      size: 4,
      isInline: false,
      content: b64('\xff\xd8\xff\xd9'),
    },
  ],
};

/** Builds the bundle once if it is missing, and launches Chromium pointed at the test server. */
export async function launchChromium(server: TestServer): Promise<Browser> {
  if (!existsSync(path.join(repoRoot, 'dist/addin/taskpane.html'))) {
    execFileSync('npm', ['run', 'build:addin', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
  }
  mkdirSync(artifacts, { recursive: true });
  const port = new URL(server.url).port;
  return chromium.launch({
    executablePath: findTool('chromium'),
    args: [
      ...chromiumFlags,
      `--host-resolver-rules=MAP sitefile.test 127.0.0.1:${port}`,
      // Web Crypto (PKCE) needs a secure context; Outlook serves add-ins over HTTPS, the test server is http.
      `--unsafely-treat-insecure-origin-as-secure=${origin}`,
    ],
  });
}

/** A window's size (a pane's is 350×900 px by default) and the browser's colour scheme (light by default). */
export type WindowOptions = { width?: number; height?: number; colorScheme?: 'light' | 'dark' };

/** A browser context that is a task pane: the stand-in office.js with `officeHost` as Outlook's state. */
export async function openPaneContext(
  browser: Browser,
  officeHost: Record<string, unknown>,
  options: WindowOptions & { signedInFrom?: BrowserContext } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 350, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
    storageState: options.signedInFrom ? await options.signedInFrom.storageState() : undefined,
  });
  context.setDefaultTimeout(pageWaitMs);
  context.on('weberror', (error) => console.error('page error:', error.error().message));
  await context.route(officeJsUrl, (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: stub }),
  );
  await context.addInitScript((host) => {
    (window as unknown as { __officeHost: unknown }).__officeHost = host;
  }, officeHost);
  return context;
}

/** Chooses `option` in `combobox` by keyboard, as a person would: types `typed`, then ArrowDown and Enter. */
export async function chooseByKeyboard(combobox: Locator, typed: string, option: string) {
  const page = combobox.page();
  await combobox.focus();
  await page.keyboard.type(typed);
  await page.getByRole('option', { name: option }).waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

/** Presses `button` the way `by` says: a click, or the focus and Enter. */
export async function pressBy(button: Locator, by: 'mouse' | 'keyboard') {
  if (by === 'mouse') return button.click();
  await button.focus();
  await button.page().keyboard.press('Enter');
}

/** The stand-in host's record of what the add-in did (calls, custom properties, categories, headers). */
export const officeHostState = <T>(page: Page, key: string): Promise<T> =>
  page.evaluate(
    (k) => (window as unknown as { __officeHost: Record<string, unknown> }).__officeHost[k],
    key,
  ) as Promise<T>;

/** Outlook raising OnMessageSend in the event runtime (commands.html): what the handler answers through event.completed. */
export const raiseOnSend = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __officeHost: { raise(n: string): Promise<unknown> } }).__officeHost.raise(
      'onMessageSendHandler',
    ),
  );

export async function signInThroughDialog(page: Page, email: string, password: string, screenshot?: string) {
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign in to Sitefile' }).click();
  const dialog = await popupOpened;
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill(password);
  // With a screenshot, the sign-in page is checked with axe too (a screen of its own).
  if (screenshot) {
    await shot(dialog, screenshot);
    await expectAccessible(dialog);
  }
  // The add-in is first-party: no consent page, the dialog closes with the code.
  const closed = dialog.waitForEvent('close');
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await closed;
}

/** The admin console's sign-in: a redirect to the server's sign-in page and back (first-party: no consent). */
export async function signInToAdmin(page: Page, email: string, password: string) {
  await page.goto(`${origin}/admin`);
  await page.getByRole('button', { name: 'Sign in to Sitefile' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${origin}/admin`);
}

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/** The screenshot of a failed step, named after the test. */
export async function shotOnFailure(page: Page | undefined, task: { name: string; result?: { state?: string } }) {
  if (task.result?.state === 'fail' && page && !page.isClosed())
    await shot(page, `failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
}

/**
 * Counts the page's requests in flight from now on; `quiet()` waits until none has been for half a second: what a click
 * set loading has arrived, however long a loaded machine takes to answer.
 */
export function requestsInFlight(page: Page) {
  const inFlight = new Set<Request>();
  let changedAt = Date.now();
  page.on('request', (request) => {
    inFlight.add(request);
    changedAt = Date.now();
  });
  const ended = (request: Request) => {
    // One started before counting began ends unseen.
    if (inFlight.delete(request)) changedAt = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    quiet: () =>
      expect
        .poll(() => inFlight.size === 0 && Date.now() - changedAt >= 500, { timeout: pageWaitMs, interval: 100 })
        .toBe(true),
  };
}

/**
 * axe-core on the page as it is: no serious or critical violation. Tabster's focus sentinels (the
 * `<i data-tabster-dummy>` elements Fluent UI puts around focus zones, aria-hidden and focusable by design so
 * that Tab lands on the real control at once) are left out: axe reads them as hidden focusable content.
 */
export async function expectAccessible(page: Page) {
  // Evaluated, not added as a <script>: the server's sign-in and consent pages forbid inline scripts (CSP).
  await page.evaluate(axe.source);
  // A state that passes in a moment (a colour mid-transition, a bar shown while a loaded machine answers late) is not
  // what the reader sees: what is still there on a second look, after a pause, is.
  const first = await seriousViolations(page);
  if (first.length === 0) return;
  await page.waitForTimeout(1_000);
  expect(await seriousViolations(page)).toEqual([]);
}

async function seriousViolations(page: Page) {
  // Let finite animations end first (the spinner's infinite one never does).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(
      { exclude: [['[data-tabster-dummy]']] },
      { resultTypes: ['violations'] },
    );
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      // The element as written, not only its generated class: a failure names what to fix.
      nodes: v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 200)} ${n.failureSummary ?? ''}`),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Files an e-mail to Ada Admin into `projectId` (of Harbor, orgA) as Ada Admin, by the API; throws unless filed. */
export async function fileByApi(
  server: TestServer,
  f: Fixtures,
  projectId: string,
  email: { subject: string; from: string; internetMessageId: string; bodyText: string; sentAt?: string },
) {
  const res = await server.call(`/v1/organization/${f.orgA.id}/project/${projectId}/emails`, {
    method: 'POST',
    token: f.admin.token,
    json: { ...email, to: ['admin@harbor.test'] },
  });
  if (res.status !== 201) throw new Error(`filing failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Earlier filings the local ranker learns from: the sender's firm files into Pier 9, and once into Dockside. */
export async function seedFilingHistory(server: TestServer, f: Fixtures) {
  const file = (projectId: string, n: number, from: string, subject: string) =>
    fileByApi(server, f, projectId, {
      subject,
      from,
      internetMessageId: `<history-${n}@steel.example>`,
      sentAt: `2026-02-0${n}T10:00:00Z`,
      bodyText: 'Earlier correspondence.',
    });
  await file(f.projectA1.id, 1, 'lee@steel.example', 'Pier 9 embed plates');
  await file(f.projectA1.id, 2, 'lee@steel.example', 'Pier 9 steel delivery');
  await file(f.projectA2.id, 3, 'ops@steel.example', 'Dockside handrails');
  await server.database.db.insert(documents).values({
    id: 'doc_rfi014',
    organizationId: f.orgA.id,
    projectId: f.projectA1.id,
    number: 'RFI-014',
    format: 'rfi',
    type: 'RFI',
    title: 'Curtain wall anchor spacing',
    status: 'pending',
  });
}
