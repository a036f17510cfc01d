import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../server/paths.js';
import { createPostgresDatabase, freePort } from './harness.js';

// A production install (issue 40): `npm run build` where the development packages are, then
// `NODE_ENV=production npm ci --omit=dev` and `npm start`. The install is this repository's files copied to a
// scratch folder, its packages this repository's, with every development package made unimportable
// (test/production-install/register.mjs), as `--omit=dev` leaves them out.

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const copied = ['package.json', 'package-lock.json', 'tools', 'server', 'shared', 'addin', 'docs/addin.md', 'dist'];
const withoutDevPackages = `--import ${path.join(repoRoot, 'test/production-install/register.mjs')}`;

let install: string;
let database: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  execFileSync(process.execPath, ['tools/build.mjs', '--if-changed'], { cwd: repoRoot, stdio: 'ignore' });
  install = mkdtempSync(path.join(tmpdir(), 'sitefile-install-'));
  for (const item of copied) cpSync(path.join(repoRoot, item), path.join(install, item), { recursive: true });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(install, 'node_modules'));
  database = await createPostgresDatabase();
}, 300_000);

afterAll(async () => {
  rmSync(install, { recursive: true, force: true });
  await database?.drop();
});

/** `npm start` in the install without development packages: what it printed, and the add-in page's status. */
async function start(): Promise<{ code: number | null; output: string; addinPage?: number }> {
  const port = await freePort();
  const child = spawn(npm, ['start', '--silent'], {
    cwd: install,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NODE_OPTIONS: withoutDevPackages,
      DATA_DIR: path.join(install, '.data'),
      DATABASE_URL: database.url,
      JWT_SIGNING_KEY: 'production-install-test-key-0123456789abcdef',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      SITEFILE_DEMO: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own, stopped as a whole: npm does not pass SIGTERM on through its script's shell, so a signal
    // to npm alone left the server running after the test.
    detached: true,
  });
  let output = '';
  let addinPage: number | undefined;
  const collect = (chunk: Buffer) => {
    const served = output.includes('admin console');
    output += chunk.toString();
    if (!served && output.includes('admin console'))
      fetch(`http://127.0.0.1:${port}/addin/taskpane.html`)
        .then(
          (response) => {
            addinPage = response.status;
          },
          () => undefined,
        )
        .finally(() => process.kill(-(child.pid as number), 'SIGTERM'));
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output, addinPage };
}

describe('a production install', () => {
  it('builds with `npm run build`, then starts without development packages and serves the add-in', async () => {
    execFileSync(npm, ['run', 'build', '--silent'], { cwd: install, stdio: 'pipe' });
    const { output, addinPage } = await start();
    expect(output).toContain('admin console');
    expect(addinPage).toBe(200);
  }, 120_000);

  it('serves the add-in it has when its sources changed since the build, and says so', async () => {
    appendFileSync(path.join(install, 'addin/taskpane.html'), '<!-- edited after the build -->\n');
    const { output, addinPage } = await start();
    expect(output).toContain('addin sources changed since dist/ was built');
    expect(addinPage).toBe(200);
  }, 120_000);

  it('without an add-in build, stops and says to run `npm run build`', async () => {
    rmSync(path.join(install, 'dist/addin'), { recursive: true });
    const { code, output } = await start();
    expect(code).not.toBe(0);
    expect(output).toContain('run `npm run build`');
  }, 120_000);
});
