import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freePort } from '../test/harness.js';
import { verifySecret } from './auth/secrets.js';
import { openDatabase } from './db/connection.js';
import { selectRows } from './db/rows.js';
import { createOrganization } from './organizations/service.js';
import { repoRoot } from './paths.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-start-'));

/**
 * Starts the server as `npm start` does (from the bundle `tools/build.mjs` makes, without the add-in build) on
 * `dir`, waits for its banner, asks `paths` while it runs, stops it, and returns what it printed and answered.
 */
async function startAndStop(dir = dataDir, paths: string[] = []): Promise<{ banner: string; statuses: number[] }> {
  const port = await freePort(); // the banner shows the configured address, so port 0 will not do
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.mjs'], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let statuses: number[] = [];
    const askThenStop = async () => {
      statuses = await Promise.all(paths.map(async (p) => (await fetch(`http://127.0.0.1:${port}${p}`)).status));
      child.kill('SIGTERM');
    };
    const collect = (chunk: Buffer) => {
      const started = output.includes('Try: curl');
      output += chunk.toString();
      if (!started && output.includes('Try: curl')) askThenStop().catch(reject);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('exit', (code) =>
      output.includes('Try: curl') ? resolve({ banner: output, statuses }) : reject(new Error(`${code}: ${output}`)),
    );
  });
}

/** `email / password` of a banner line, by its label. */
function signIn(banner: string, label: string) {
  const match = banner.match(new RegExp(`^ +${label} +(\\S+@\\S+) / (\\S+)`, 'm'));
  expect(match, `${label} line in:\n${banner}`).not.toBeNull();
  return { email: match![1]!, password: match![2]! };
}

let firstBanner: string;

beforeAll(async () => {
  // A database with an organization but none of the demo's people: the start must make the sign-ins it shows.
  const database = await openDatabase({ dataDir });
  await database.migrate();
  await createOrganization(database.db, { name: 'Northwind Builders' });
  await database.close();
  execFileSync(process.execPath, ['tools/build.mjs', 'server', '--if-changed'], { cwd: repoRoot });
  firstBanner = (await startAndStop()).banner;
}, 180_000);

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('start banner', () => {
  it("prints staff, organization admin and member sign-ins whose passwords work, with the admin's role", async () => {
    const accounts = {
      staff: signIn(firstBanner, 'Staff sign-in'),
      admin: signIn(firstBanner, 'Org admin'),
      member: signIn(firstBanner, 'Member'),
    };
    expect(new Set(Object.values(accounts).map((a) => a.email)).size).toBe(3);
    const database = await openDatabase({ dataDir });
    try {
      for (const [role, account] of Object.entries(accounts)) {
        const [row] = await selectRows(
          database.db,
          sql`
          SELECT u.password_hash AS "hash", u.staff, m.role, o.name AS "orgName"
          FROM users u LEFT JOIN organization_members m ON m.user_id = u.id
          LEFT JOIN organizations o ON o.id = m.organization_id
          WHERE lower(u.email) = lower(${account.email})`,
          z.object({
            hash: z.string(),
            staff: z.boolean(),
            role: z.string().nullable(),
            orgName: z.string().nullable(),
          }),
        );
        expect(row, account.email).toBeDefined();
        expect(await verifySecret(row!.hash, account.password), `${role} password`).toBe(true);
        expect(row!.staff).toBe(role === 'staff');
        if (role !== 'staff') {
          expect(row!.role).toBe(role);
          expect(row!.orgName).toBe('Northwind Builders');
        }
      }
    } finally {
      await database.close();
    }
  });

  it('prints the same key and sign-ins on the next start', async () => {
    const { banner: again } = await startAndStop();
    const credentials = (banner: string) =>
      banner.split('\n').filter((line) => /Demo API key|sign-in|Org admin|Member/.test(line));
    expect(credentials(again)).toHaveLength(4);
    expect(credentials(again)).toEqual(credentials(firstBanner));
  }, 120_000);

  it('starts from the bundle on an empty data directory: migrates, seeds, serves the API reference and the document', async () => {
    const emptyDir = mkdtempSync(path.join(tmpdir(), 'sitefile-start-empty-'));
    try {
      const { banner, statuses } = await startAndStop(emptyDir, ['/readyz', '/docs/', '/v1/openapi.json']);
      expect(banner).toContain(`embedded database in ${emptyDir}`);
      expect(statuses).toEqual([200, 200, 200]);
    } finally {
      await rm(emptyDir, { recursive: true, force: true });
    }
  }, 120_000);
});
