// The Outlook add-in in Chromium against a real server (an embedded PostgreSQL of its own, or a scratch database on
// the PostgreSQL at --database-url): p50/p95 from selecting an e-mail in a pinned pane to its suggestions painted,
// and from a keystroke in the project picker to the filtered projects painted, at 5,000 projects — each beside the
// same measure at 50 projects (the baseline, same process, same browser) — and an unfile and a move of a filing at
// 5,000 projects (request to answer). Timing of the pane runs inside the page (performance.now), so Playwright's
// round trips are left out of the figures. A plain script, no test runner:
//   npx tsx bench/addin.ts [--runs 40] [--database-url postgres://postgres@127.0.0.1:5432/postgres]
// Typed with the add-in's tsconfig (DOM).
// The functions run in the page are strings: tsx would wrap named functions in a helper the page does not have.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
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
import { openDatabase } from '../server/db/connection.js';
import { startEmbeddedPostgres } from '../server/db/embedded-postgres.js';
import { projects } from '../server/db/schema.js';
import { onServer, THROWAWAY } from '../test/global-setup.js';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../test/harness.js';
import { percentile } from './measure.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '40' }, 'database-url': { type: 'string' } },
});
const runs = Number(values.runs);

/** A migrated scratch database: on --database-url's server (dropped after), or on an embedded server of its own. */
async function openBenchDatabase() {
  const dataDir = values['database-url'] ? undefined : mkdtempSync(path.join(tmpdir(), 'sitefile-bench-pg-'));
  const embedded = dataDir ? await startEmbeddedPostgres(dataDir, THROWAWAY) : undefined;
  const serverUrl = embedded?.url ?? values['database-url']!;
  const name = `sitefile_bench_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const database = await openDatabase({
    databaseUrl: Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString(),
  });
  await database.migrate();
  return {
    database,
    async close() {
      await database.close();
      if (embedded) {
        await embedded.stop();
        rmSync(dataDir!, { recursive: true, force: true });
      } else await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Files an e-mail into project A1 as the admin, then times its move to A2 and its unfiling there (request to answer). */
async function timeRefile(server: TestServer, f: Fixtures, n: number) {
  const emails = (projectId: string) => `/v1/organization/${f.orgA.id}/project/${projectId}/emails`;
  const filed = await server.call(emails(f.projectA1.id), {
    method: 'POST',
    token: f.admin.token,
    json: { subject: `Bench refile ${n}`, from: 'lee@steel.example', internetMessageId: `<refile-${n}@steel.example>` },
  });
  if (filed.status !== 201) throw new Error(`filing failed: ${filed.status}`);
  const id = filed.body.id as string;
  const timed = async (run: () => Promise<{ status: number }>, expected: number) => {
    const t0 = performance.now();
    const res = await run();
    if (res.status !== expected) throw new Error(`refile step answered ${res.status}`);
    return performance.now() - t0;
  };
  const move = await timed(
    () =>
      server.call(`${emails(f.projectA1.id)}/${id}/move`, {
        method: 'POST',
        token: f.admin.token,
        json: { projectId: f.projectA2.id },
      }),
    200,
  );
  const unfile = await timed(
    () => server.call(`${emails(f.projectA2.id)}/${id}`, { method: 'DELETE', token: f.admin.token }),
    204,
  );
  return { move, unfile };
}

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
  // A locator, not waitForFunction: the pane's CSP refuses the string evaluation waitForFunction makes.
  await page.getByText('Finding projects…').waitFor({ state: 'hidden' });
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
  const bench = await openBenchDatabase();
  const server = await startTestServer({ database: bench.database });
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
    const move: number[] = [];
    const unfile: number[] = [];
    for (let i = 0; i < runs; i++) {
      const refile = await timeRefile(server, f, i);
      move.push(refile.move);
      unfile.push(refile.unfile);
    }
    const row = (name: string, base: { p50: number; p95: number }, at: { p50: number; p95: number }) =>
      `${name.padEnd(38)} ${base.p50.toFixed(0).padStart(6)} ${base.p95.toFixed(0).padStart(6)}   ${at.p50
        .toFixed(0)
        .padStart(6)} ${at.p95.toFixed(0).padStart(6)}   ${(at.p95 / base.p95).toFixed(2)}`;
    console.log(`add-in in Chromium, ${runs} runs each (ms)`);
    console.log(`${''.padEnd(38)} 50 projects     5,000 projects   p95 ratio`);
    console.log(`${''.padEnd(38)}    p50    p95      p50    p95`);
    console.log(row('open e-mail → suggestions painted', baseline.open, large.open));
    console.log(row('keystroke → filtered projects', baseline.keystroke, large.keystroke));
    const single = (name: string, at: { p50: number; p95: number }) =>
      `${name.padEnd(38)} ${''.padStart(13)}   ${at.p50.toFixed(0).padStart(6)} ${at.p95.toFixed(0).padStart(6)}`;
    console.log(single('move a filing (request → answer)', summary(move)));
    console.log(single('unfile a filing (request → answer)', summary(unfile)));
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    await bench.close();
  }
}

await main();
