import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../server/paths.js';
import { listenOnLoopback } from './loopback-server.js';

// swagger-ui-dist depends on @scarf/scarf, whose postinstall script reports the install to a third party.
// The opt-out is `"scarfSettings": {"enabled": false, "skipTraversal": true}` in our package.json: the script
// reads the root package of the install (INIT_CWD, as npm sets it) and stops before it sends anything.
// skipTraversal keeps it from running `npm ls`, which it gives 3 s and which a busy machine overruns.
describe('supply chain', () => {
  it("@scarf/scarf's install script stops on our package.json's opt-out and sends nothing", async () => {
    const reports: string[] = [];
    const collector = createServer((req, res) => {
      reports.push(`${req.method} ${req.url}`);
      res.end();
    });
    const listening = await listenOnLoopback(collector);
    try {
      const script = createRequire(import.meta.url).resolve('@scarf/scarf/report.js');
      const { SCARF_ANALYTICS, SCARF_NO_ANALYTICS, DO_NOT_TRACK, ...env } = process.env;
      const run = await promisify(execFile)(process.execPath, [script], {
        cwd: repoRoot,
        env: {
          ...env,
          INIT_CWD: repoRoot,
          SCARF_VERBOSE: 'true',
          // The script's own switch for a local collector: it sends to localhost on this port over http.
          SCARF_LOCAL_PORT: String(listening.port),
        },
        timeout: 20_000,
      });
      expect(run.stderr + run.stdout).toMatch(/User has opted out/);
      expect(run.stderr + run.stdout).not.toMatch(/npm -ls/);
      expect(reports).toEqual([]);
    } finally {
      await listening.close();
    }
  }, 30_000);
});
