// A DATA_DIR written by the version before the embedded PostgreSQL (PGlite in DATA_DIR/pg, made by 749a1be's
// `npm start`: the demo seeded, an e-mail with a PDF attachment filed by the demo member) is imported on the first
// start: afterwards the demo's passwords and API key still sign in, a token the earlier server signed is still
// accepted, and the attachment downloads through the link the earlier server signed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { verifySecret } from '../auth/secrets.js';
import { ManualClock } from '../clock.js';
import { repoRoot } from '../paths.js';
import { type Database, openDatabase } from './connection.js';
import { importEarlierDatabase } from './import-earlier.js';
import { selectRows } from './rows.js';

/** What the earlier server printed and answered when the fixture was made. */
const earlier = {
  madeAt: '2026-11-28T10:35:00.000Z',
  publicUrl: 'http://127.0.0.1:48123',
  demoKey: {
    clientId: 'cc16148f-6f03-40e2-980c-822509741ac4',
    secret: 'sfs_afBTUCTcfBbfKcx4GqnBw5OqYml_iK5EBOGOHasXSvs',
  },
  staff: { email: 'staff@sitefile.example', password: 'staff-fXUEUtxqHFCr' },
  member: { email: 'arjun.fischer@harbor-line-construction.example', password: 'member-4VKg8KsYweQB' },
  memberToken:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IjYwODQyNTcyLWZhOTItNDA1Ny1hZmVhLTQxZTk1MDIyYzY4MiJ9.eyJ0eXAiOiJ1c2VyIiwiaWF0IjoxNzk1ODYyMDk4LCJleHAiOjE3OTU4NjU2OTgsImF1ZCI6Imh0dHA6Ly8xMjcuMC4wLjE6NDgxMjMvdjEiLCJpc3MiOiJodHRwOi8vMTI3LjAuMC4xOjQ4MTIzIiwic3ViIjoidXNyX3BsY0RWODlMR1R5SkM1eHMiLCJqdGkiOiJkZWIyZWM3YS01NGU5LTQwMDItOWI0ZC1iMGMwYzRhY2Q1NTYifQ.RxGP2S0DxcPp06axljSE_yeo39vxeunvR84nwHD3AeI',
  email: '/v1/organization/org_Z6wH-4g72KdZNab0/project/prj_wTMGLHiaBHgaNn2o/emails/fem_aBou6fdFDLArMkW9',
  attachmentUrl:
    'http://127.0.0.1:48123/v1/downloads/cf479604d78a368e0c4c88c9b75161939c3d0d31412e8a6a3eaa8c6a74994bc9/P-7.pdf?type=application%2Fpdf&expires=1795863041&signature=zLQ8I3t4buwv_-kTkSegk55feggTJRs5XBiL7aS9250',
};
const attachment = Buffer.from('%PDF-1.4\npile cap P-7, rev C\n%%EOF\n');

const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-earlier-'));
let database: Database;
let kept: string | undefined;
let server: TestServer;

beforeAll(async () => {
  execFileSync('tar', ['-xJf', path.join(repoRoot, 'test/fixtures/earlier-data-dir.tar.xz'), '-C', dataDir]);
  database = await openDatabase({ dataDir });
  await database.migrate();
  kept = await importEarlierDatabase(dataDir, database, new Date(earlier.madeAt));
  server = await startTestServer({
    database,
    clock: new ManualClock(earlier.madeAt),
    env: { DATA_DIR: dataDir, JWT_SIGNING_KEY: '', JWT_SIGNING_KEY_ID: '', PUBLIC_URL: earlier.publicUrl },
  });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('moves the earlier database aside, not away', () => {
  expect(kept).toBe(path.join(dataDir, 'pg.imported-2026-11-28'));
  expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
  expect(readdirSync(kept!)).toContain('PG_VERSION');
});

it("keeps the demo's sign-in passwords", async () => {
  for (const account of [earlier.staff, earlier.member]) {
    const [row] = await selectRows(
      database.db,
      sql`select password_hash as hash from users where lower(email) = lower(${account.email})`,
      z.object({ hash: z.string() }),
    );
    expect(await verifySecret(row!.hash, account.password), account.email).toBe(true);
  }
});

it("keeps the demo's API key, and accepts a token the earlier server signed", async () => {
  const exchange = await server.call('/v1/oauth/token', {
    method: 'POST',
    json: { client_id: earlier.demoKey.clientId, client_secret: earlier.demoKey.secret },
  });
  expect(exchange.status).toBe(200);
  const me = await server.call('/v1/me', { token: earlier.memberToken });
  expect(me.status).toBe(200);
  expect(me.body.email).toBe(earlier.member.email);
});

it('serves the filed e-mail and its attachment through the link the earlier server signed', async () => {
  const filed = await server.call(earlier.email, { token: earlier.memberToken });
  expect(filed.status).toBe(200);
  expect(filed.body.subject).toBe('Pile cap P-7 rev C');
  const link = new URL(earlier.attachmentUrl);
  const res = await server.request(link.pathname + link.search);
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(attachment)).toBe(true);
});

it('imports nothing on the next start', async () => {
  expect(await importEarlierDatabase(dataDir, database, new Date())).toBeUndefined();
});
