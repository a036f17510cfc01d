import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../server/paths.js';

// swagger-ui-dist depends on @scarf/scarf, whose postinstall script reports the install to a third party.
// The opt-out is `"scarfSettings": {"enabled": false}` in our package.json: the script reads the root
// package of the install (INIT_CWD, as npm sets it) and stops before it sends anything.
describe('supply chain', () => {
  it("@scarf/scarf's install script stops on our package.json's opt-out without reporting", async () => {
    const script = createRequire(import.meta.url).resolve('@scarf/scarf/report.js');
    const { SCARF_ANALYTICS, SCARF_NO_ANALYTICS, DO_NOT_TRACK, ...env } = process.env;
    const run = await promisify(execFile)(process.execPath, [script], {
      cwd: repoRoot,
      env: { ...env, INIT_CWD: repoRoot, SCARF_VERBOSE: 'true' },
      timeout: 20_000,
    });
    expect(run.stderr + run.stdout).toMatch(/Scarf has been disabled via a package\.json/);
  }, 30_000);
});
