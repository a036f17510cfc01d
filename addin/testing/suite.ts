import http from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { listenOnLoopback } from '../../test/loopback-server.js';
import {
  launchChromium,
  openEmail,
  openPaneContext,
  origin,
  pageWaitMs,
  seedFilingHistory,
  shotOnFailure,
  signInThroughDialog,
  signInToAdmin,
  type WindowOptions,
} from './chromium.js';

/**
 * The setup every browser test file shares, registered as its hooks: a test server with the fixtures (and the
 * filing history suggestions learn from), Chromium, and a pane signed in as the member that tests copy their
 * sign-in from. A failed test leaves a screenshot of `suite.page`.
 */
export interface BrowserSuite {
  server: TestServer;
  f: Fixtures;
  browser: Browser;
  /** A task pane signed in as Mia Member (absent with `signIn: false`). */
  signedIn: BrowserContext;
  /** The page a test is on: the one shown when it fails. */
  page: Page | undefined;
  /** How many ranking requests the stand-in AI provider answered (with `fakeAi`). */
  aiRequests: number;
  /**
   * A task pane of its own on `officeHost`, opened at `at` (the task pane by default) and made the page a failure
   * shows. It is signed in as `signedIn`'s session: the suite's member by default, `false` for none, or a context
   * to copy it from; `accessToken` puts that token where the add-in keeps its session instead.
   */
  openPane(
    officeHost: Record<string, unknown>,
    options?: WindowOptions & { signedIn?: BrowserContext | false; accessToken?: string; at?: string },
  ): Promise<{ context: BrowserContext; page: Page }>;
  /**
   * The admin console in a browser context of its own (1280×900 px by default), made the page a failure shows:
   * signed in through its redirect as `signInAs`, else with `signedIn`'s session, else signed out.
   */
  openAdmin(
    options?: WindowOptions & { signedIn?: BrowserContext; signInAs?: [email: string, password: string] },
  ): Promise<{ context: BrowserContext; page: Page }>;
  /** The e-mails filed into a project of Harbor matching `search`, as Ada Admin finds them, newest first. */
  filedIn(projectId: string, search: string): Promise<FiledEmail[]>;
  /** One filed e-mail of a project of Harbor, as Ada Admin opens it. */
  filedEmail(projectId: string, id: string): Promise<FiledEmailDetail>;
}

type FiledEmail = {
  id: string;
  subject: string;
  internetMessageId: string;
  conversationId: string;
  sentMessageId: string | null;
};
type FiledEmailDetail = {
  attachments: { name: string }[];
  filedBy: { name: string };
  documentId: string | null;
  original: unknown;
  note?: string | null;
};

export function useBrowserSuite(
  options: { fakeAi?: boolean; signIn?: boolean; env?: Record<string, string> } = {},
): BrowserSuite {
  const suite = {
    aiRequests: 0,
    async openPane(officeHost, { signedIn = suite.signedIn, accessToken, at = '/addin/taskpane.html', ...pane } = {}) {
      const context = await openPaneContext(suite.browser, officeHost, {
        ...pane,
        signedInFrom: (!accessToken && signedIn) || undefined,
      });
      if (accessToken) {
        const session = JSON.stringify({ accessToken, expiresAt: Date.now() + 3_600_000 });
        await context.addInitScript((s) => localStorage.setItem('sitefile.session', s), session);
      }
      const page = await context.newPage();
      suite.page = page;
      await page.goto(`${origin}${at}`);
      return { context, page };
    },
    async openAdmin({ signedIn, signInAs, width = 1280, height = 900, colorScheme } = {}) {
      const context = await suite.browser.newContext({
        viewport: { width, height },
        colorScheme,
        storageState: signedIn ? await signedIn.storageState() : undefined,
      });
      context.setDefaultTimeout(pageWaitMs);
      const page = await context.newPage();
      suite.page = page;
      if (signInAs) await signInToAdmin(page, ...signInAs);
      else await page.goto(`${origin}/admin`);
      return { context, page };
    },
    async filedIn(projectId, search) {
      return (await projectAsAdmin(`${projectId}/emails?search=${encodeURIComponent(search)}`)).data;
    },
    filedEmail: (projectId, id) => projectAsAdmin(`${projectId}/emails/${id}`),
  } as BrowserSuite;
  /** What Ada Admin reads below a project of Harbor: `path` starts with the project's id. */
  const projectAsAdmin = async (path: string) =>
    (await suite.server.call(`/v1/organization/${suite.f.orgA.id}/project/${path}`, { token: suite.f.admin.token }))
      .body;
  let aiProvider: { port: number; close(): Promise<void> } | undefined;

  beforeAll(async () => {
    let env = options.env;
    if (options.fakeAi) {
      aiProvider = await listenOnLoopback(fakeAiProvider(() => suite.aiRequests++));
      env = {
        ...env,
        AI_BASE_URL: `http://127.0.0.1:${aiProvider.port}/v1`,
        AI_API_KEY: 'fake',
        AI_MODEL: 'fake-model',
      };
    }
    suite.server = await startTestServer({ env });
    suite.f = await createFixtures(suite.server);
    await seedFilingHistory(suite.server, suite.f);
    suite.browser = await launchChromium(suite.server);
    if (options.signIn === false) return;
    suite.signedIn = await openPaneContext(suite.browser, { item: openEmail });
    const first = await suite.signedIn.newPage();
    await first.goto(`${origin}/addin/taskpane.html`);
    await signInThroughDialog(first, 'member@harbor.test', 'member-pass-1');
    await first.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
  }, 180_000);

  afterEach(({ task }) => shotOnFailure(suite.page, task));

  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
    await aiProvider?.close();
  });

  return suite;
}

/** An OpenAI-style chat endpoint that ranks the candidates in the order given, counting its requests. */
function fakeAiProvider(onRequest: () => void) {
  return http.createServer((req, res) => {
    onRequest();
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk;
    });
    req.on('end', () => {
      const messages = (JSON.parse(body) as { messages: { content: string }[] }).messages;
      const payload = JSON.parse(messages.at(-1)!.content) as { candidates: { ref: string }[] };
      const ranking = payload.candidates.map((c, i) => ({ ref: c.ref, score: 0.9 - i * 0.1 }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ ranking }) } }] }));
    });
  });
}
