// The Outlook add-in in Chromium against a real server (the embedded PostgreSQL, or PostgreSQL with --database-url): p50/p95 from
// selecting an e-mail in a pinned pane to its suggestions painted, and from a keystroke in the project picker to
// the filtered projects painted, at 5,000 projects — each beside the same measure at 50 projects (the baseline,
// same process, same browser). Timing runs inside the page (performance.now), so Playwright's round trips are
// left out of the figures. Usage: npx tsx bench/addin.ts [--runs 40]. Typed with the add-in's tsconfig (DOM).
// The functions run in the page are strings: tsx would wrap named functions in a helper the page does not have.
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import {
  launchChromium,
  openEmail,
  openPaneContext,
  origin,
  seedFilingHistory,
  signInThroughDialog,
} from '../addin/testing/chromium.js';
import { projects } from '../server/db/schema.js';
import { createFixtures, startTestServer } from '../test/harness.js';
import { percentile } from './measure.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '40' } } });
const runs = Number(values.runs);

/** In the page: selects the e-mail and waits until its heading and a checked suggestion are painted. */
function timeOpen(page: Page, n: number): Promise<number> {
  const spec = {
    ...openEmail,
    internetMessageId: `<bench-${n}@steel.example>`,
    conversationId: `bench-${n}`,
    subject: `Pier 9 Terminal: bench e-mail ${n}`,
  };
  return page.evaluate<number>(`(async (next) => {
    const t0 = performance.now();
    window.__officeHost.select(next);
    while (
      document.querySelector('h1')?.textContent !== next.subject ||
      document.querySelector('input[type="radio"]:checked') === null
    ) {
      await new Promise(requestAnimationFrame);
    }
    return performance.now() - t0;
  })(${JSON.stringify(spec)})`);
}

/** Types all but the last character, lets the list settle, then times the last keystroke to its filtered list. */
async function timeKeystroke(page: Page, query: string): Promise<number> {
  const picker = page.getByRole('combobox', { name: 'Or choose a project' });
  await picker.click();
  await picker.press('Control+a');
  await picker.pressSequentially(query.slice(0, -1));
  await page.waitForFunction(`!document.body.textContent.includes('Finding projects…')`);
  await page.evaluate('window.__t0 = performance.now()');
  await picker.press(query.slice(-1));
  const ms = await page.evaluate<number>(`(async (q) => {
    for (;;) {
      const loading = document.body.textContent.includes('Finding projects…');
      const options = [...document.querySelectorAll('[role="option"]:not([aria-disabled="true"])')];
      // Best match first: the search also lists weaker matches after it (words in any order, typos forgiven).
      if (!loading && options[0]?.textContent.toLowerCase().includes(q.toLowerCase())) break;
      await new Promise(requestAnimationFrame);
    }
    return performance.now() - window.__t0;
  })(${JSON.stringify(query)})`);
  await picker.press('Escape');
  return ms;
}

const summary = (xs: number[]) => ({ p50: percentile(xs, 0.5), p95: percentile(xs, 0.95) });

async function measure(page: Page, total: number, from: number) {
  const open: number[] = [];
  const keystroke: number[] = [];
  for (let i = 0; i < runs; i++) {
    open.push(await timeOpen(page, from + i));
    // A code fragment that narrows to a few projects: "J-10" + a digit … "J-1" + three digits.
    const n = (i * 37) % total;
    keystroke.push(await timeKeystroke(page, `J-${1000 + n}`.slice(0, 4 + (i % 3))));
  }
  return { open: summary(open), keystroke: summary(keystroke) };
}

async function addProjects(
  server: Awaited<ReturnType<typeof startTestServer>>,
  orgId: string,
  from: number,
  to: number,
) {
  for (let start = from; start < to; start += 500) {
    const rows = [];
    for (let n = start; n < Math.min(to, start + 500); n++) {
      rows.push({ id: `prj_bench${n}`, organizationId: orgId, name: `Bench Project ${n}`, code: `J-${1000 + n}` });
    }
    await server.database.db.insert(projects).values(rows);
  }
}

async function main() {
  const server = await startTestServer();
  const f = await createFixtures(server);
  await seedFilingHistory(server, f);
  await addProjects(server, f.orgA.id, 0, 50);
  const browser = await launchChromium(server);
  try {
    const context = await openPaneContext(browser, { item: openEmail }, { width: 350 });
    const page = await context.newPage();
    await page.goto(`${origin}/addin/taskpane.html`);
    await signInThroughDialog(page, 'member@harbor.test', 'member-pass-1');
    await page.getByRole('radio', { name: /Pier 9 Terminal/ }).waitFor();
    // Warm-up: the first requests open connections and fill caches.
    await measure(page, 50, 10_000);
    const baseline = await measure(page, 50, 20_000);
    await addProjects(server, f.orgA.id, 50, 5_000);
    const large = await measure(page, 5_000, 30_000);
    const row = (name: string, base: { p50: number; p95: number }, at: { p50: number; p95: number }) =>
      `${name.padEnd(38)} ${base.p50.toFixed(0).padStart(6)} ${base.p95.toFixed(0).padStart(6)}   ${at.p50
        .toFixed(0)
        .padStart(6)} ${at.p95.toFixed(0).padStart(6)}   ${(at.p95 / base.p95).toFixed(2)}`;
    console.log(`add-in in Chromium, ${runs} runs each (ms)`);
    console.log(`${''.padEnd(38)} 50 projects     5,000 projects   p95 ratio`);
    console.log(`${''.padEnd(38)}    p50    p95      p50    p95`);
    console.log(row('open e-mail → suggestions painted', baseline.open, large.open));
    console.log(row('keystroke → filtered projects', baseline.keystroke, large.keystroke));
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
