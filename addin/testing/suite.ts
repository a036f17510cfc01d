import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';
import {
  launchChromium,
  openEmail,
  openPaneContext,
  origin,
  seedFilingHistory,
  shotOnFailure,
  signInThroughDialog,
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
}

export function useBrowserSuite(
  options: { fakeAi?: boolean; signIn?: boolean; env?: Record<string, string> } = {},
): BrowserSuite {
  const suite = { aiRequests: 0 } as BrowserSuite;
  let aiProvider: http.Server | undefined;

  beforeAll(async () => {
    let env = options.env;
    if (options.fakeAi) {
      aiProvider = fakeAiProvider(() => suite.aiRequests++);
      await new Promise<void>((resolve) => aiProvider!.listen(0, '127.0.0.1', resolve));
      const port = (aiProvider.address() as AddressInfo).port;
      env = { ...env, AI_BASE_URL: `http://127.0.0.1:${port}/v1`, AI_API_KEY: 'fake', AI_MODEL: 'fake-model' };
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
    aiProvider?.close();
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
