import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createPostgresDatabase, freePort } from '../test/harness.js';
import { verifySecret } from './auth/secrets.js';
import { type Database, openDatabase } from './db/connection.js';
import { clusterDir } from './db/embedded-postgres.js';
import { selectRows } from './db/rows.js';
import { createOrganization } from './organizations/service.js';
import { repoRoot } from './paths.js';
import { createUser } from './users/service.js';

const dirs: string[] = [];
const scratchDatabases: { drop(): Promise<void> }[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitefile-start-'));
  dirs.push(dir);
  return dir;
};

/** The pid of the PostgreSQL that holds `dir`'s cluster, if one still runs. */
function runningPostmaster(dir: string): number | undefined {
  const lockFile = path.join(clusterDir(dir), 'cluster/postmaster.pid');
  if (!existsSync(lockFile)) return undefined;
  const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
  // The process of that id, if it is this cluster's postgres: on a busy machine an ended server's id soon names
  // another process.
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(clusterDir(dir)) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** `npm start`'s server process (the bundle `tools/build.mjs` makes) on data directory `dir` and `port`, its
 *  output piped. */
const spawnStart = (dir: string, port: number, env: Record<string, string> = {}) =>
  spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.mjs'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: dir,
      DATABASE_URL: '',
      SITEFILE_DEMO: '',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/**
 * Starts the server as `npm start` does (without the add-in build) on data directory `dir` with `env`, waits until
 * it serves, asks `paths`, stops it with `signal`, and returns what it printed and how it exited.
 */
async function startAndStop(
  dir: string,
  env: Record<string, string> = {},
  paths: (string | ((port: number) => string))[] = [],
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ banner: string; statuses: number[]; exit: number | NodeJS.Signals | null }> {
  const port = await freePort(); // the banner shows the configured address, so port 0 will not do
  return new Promise((resolve, reject) => {
    const child = spawnStart(dir, port, env);
    let output = '';
    let statuses: number[] = [];
    const started = () => output.includes('admin console');
    const askThenStop = async () => {
      statuses = await Promise.all(
        paths.map(async (p) => (await fetch(`http://127.0.0.1:${port}${typeof p === 'string' ? p : p(port)}`)).status),
      );
      child.kill(signal);
    };
    const collect = (chunk: Buffer) => {
      const before = started();
      output += chunk.toString();
      if (!before && started()) askThenStop().catch(reject);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('exit', (code, exitSignal) =>
      started()
        ? resolve({ banner: output, statuses, exit: code ?? exitSignal })
        : reject(new Error(`${code}: ${output}`)),
    );
  });
}

/** `email / password` of a banner line, by its label. */
function signIn(banner: string, label: string) {
  const match = banner.match(new RegExp(`^ +${label} +(\\S+@\\S+) / (\\S+)`, 'm'));
  expect(match, `${label} line in:\n${banner}`).not.toBeNull();
  return { email: match![1]!, password: match![2]! };
}

/** The add-in's sign-in request (authorization code with PKCE) as it sends it on a server at `port`. */
const addinSignIn = (port: number) =>
  `/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: 'sitefile-addin',
    redirect_uri: `http://localhost:${port}/addin/auth-callback.html`,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'first-start',
  })}`;

const credentialLines = (banner: string) =>
  banner.split('\n').filter((line) => /Demo API key|sign-in|Org admin|Member/.test(line));

/** An operator's PostgreSQL database for starts: a scratch one on the test run's server. */
async function operatorDatabase(): Promise<{ env: Record<string, string>; open(): Promise<Database> }> {
  const scratch = await createPostgresDatabase();
  scratchDatabases.push(scratch);
  return {
    env: { DATABASE_URL: scratch.url, JWT_SIGNING_KEY: 'main-test-signing-key-0123456789abcdefghij' },
    open: () => openDatabase({ databaseUrl: scratch.url }),
  };
}

const counts = (database: Database) =>
  selectRows(
    database.db,
    sql`SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM organizations)::int AS orgs,
               (SELECT count(*) FROM organization_members)::int AS members,
               (SELECT count(*) FROM api_keys)::int AS keys`,
    z.object({ users: z.number(), orgs: z.number(), members: z.number(), keys: z.number() }),
  );

beforeAll(() => {
  execFileSync(process.execPath, ['tools/build.mjs', 'server', '--if-changed'], { cwd: repoRoot });
}, 180_000);

afterAll(async () => {
  for (const scratch of scratchDatabases) await scratch.drop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('npm start on a real deployment', () => {
  it('adds nothing to a database with a real organization, prints no secret and writes no credentials file', async () => {
    const dir = newDataDir();
    const database = await openDatabase({ dataDir: dir });
    let before: Awaited<ReturnType<typeof counts>>;
    try {
      await database.migrate();
      const org = await createOrganization(database.db, { name: 'Northwind Builders' });
      await createUser(database.db, {
        email: 'owner@northwind.com',
        name: 'Owner',
        password: 'the owner chose this one',
        memberships: [{ orgId: org.id, role: 'admin' }],
      });
      before = await counts(database);
    } finally {
      await database.close();
    }
    const { banner, statuses } = await startAndStop(dir, {}, ['/readyz']);
    expect(statuses).toEqual([200]);
    expect(banner).toContain('Sitefile is running at');
    expect(credentialLines(banner)).toEqual([]);
    expect(banner).not.toMatch(/password|secret|sitefile-(admin|member)-demo/i);
    expect(existsSync(path.join(dir, 'demo-credentials.json'))).toBe(false);
    const after = await openDatabase({ dataDir: dir });
    try {
      expect(await counts(after)).toEqual(before);
    } finally {
      await after.close();
    }
  }, 180_000);
});

describe('npm start on an empty embedded database (the README)', () => {
  const dir = newDataDir();
  let first: { banner: string; statuses: number[] };

  beforeAll(async () => {
    first = await startAndStop(dir, {}, ['/readyz', '/docs/', '/v1/openapi.json', addinSignIn]);
  }, 180_000);

  it("migrates, seeds the demo, serves the API reference, the document and the add-in's sign-in", () => {
    expect(first.banner).toContain(`embedded PostgreSQL in ${dir}`);
    // The add-in's OAuth client is registered once migrations have made its table, even on the first start.
    expect(first.statuses).toEqual([200, 200, 200, 200]);
  });

  it("prints staff, organization admin and member sign-ins whose passwords work, with the admin's role", async () => {
    const accounts = {
      staff: signIn(first.banner, 'Staff sign-in'),
      admin: signIn(first.banner, 'Org admin'),
      member: signIn(first.banner, 'Member'),
    };
    expect(new Set(Object.values(accounts).map((a) => a.email)).size).toBe(3);
    expect(first.banner).not.toMatch(/sitefile-(admin|member)-demo/);
    const database = await openDatabase({ dataDir: dir });
    try {
      for (const [role, account] of Object.entries(accounts)) {
        const [row] = await selectRows(
          database.db,
          sql`
          SELECT u.password_hash AS "hash", u.staff, m.role
          FROM users u LEFT JOIN organization_members m ON m.user_id = u.id
          WHERE lower(u.email) = lower(${account.email})`,
          z.object({ hash: z.string(), staff: z.boolean(), role: z.string().nullable() }),
        );
        expect(row, account.email).toBeDefined();
        expect(await verifySecret(row!.hash, account.password), `${role} password`).toBe(true);
        expect(row!.staff).toBe(role === 'staff');
        if (role !== 'staff') expect(row!.role).toBe(role);
      }
    } finally {
      await database.close();
    }
  });

  it('prints the same key and sign-ins on the next start, and stops its PostgreSQL with it', async () => {
    const { banner: again, exit } = await startAndStop(dir);
    // Stopped by its own handler (exit code 0), even though the signal came the instant the banner appeared.
    expect(exit).toBe(0);
    expect(credentialLines(again)).toHaveLength(4);
    expect(credentialLines(again)).toEqual(credentialLines(first.banner));
    // No PostgreSQL of this cluster runs any more (the stop waits for it): its lock file is gone, or names a
    // process that has ended.
    expect(runningPostmaster(dir)).toBeUndefined();
  }, 120_000);

  it('stops its PostgreSQL when asked to stop while it is still starting', async () => {
    const port = await freePort();
    const child = spawnStart(dir, port);
    child.stdout.resume();
    child.stderr.resume();
    const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(code ?? signal)),
    );
    // Its PostgreSQL is up (the lock file names a live postgres of this cluster) before the server is.
    await vi.waitFor(() => expect(runningPostmaster(dir)).toBeDefined(), { timeout: 60_000, interval: 20 });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(runningPostmaster(dir)).toBeUndefined();
  }, 120_000);

  it('starts again after a start that was killed (kill -9), with the same data', async () => {
    await startAndStop(dir, {}, [], 'SIGKILL');
    // The killed start left its PostgreSQL running with the data directory locked; the next start clears it.
    expect(existsSync(path.join(clusterDir(dir), 'cluster/postmaster.pid'))).toBe(true);
    const { banner, statuses } = await startAndStop(dir, {}, ['/readyz']);
    expect(statuses).toEqual([200]);
    expect(credentialLines(banner)).toEqual(credentialLines(first.banner));
  }, 120_000);
});

describe('npm start with SITEFILE_DEMO=1 on PostgreSQL', () => {
  it('seeds the demo, and a second instance on another data directory prints the same credentials', async () => {
    const target = await operatorDatabase();
    const first = await startAndStop(newDataDir(), { ...target.env, SITEFILE_DEMO: '1' }, ['/readyz']);
    expect(first.statuses).toEqual([200]);
    expect(first.banner).toContain('(PostgreSQL)');
    expect(credentialLines(first.banner)).toHaveLength(4);
    const second = await startAndStop(newDataDir(), { ...target.env, SITEFILE_DEMO: '1' });
    expect(credentialLines(second.banner)).toEqual(credentialLines(first.banner));
    // Without SITEFILE_DEMO, the same database is a real deployment: nothing printed.
    const plain = await startAndStop(newDataDir(), target.env);
    expect(credentialLines(plain.banner)).toEqual([]);
  }, 300_000);
});
