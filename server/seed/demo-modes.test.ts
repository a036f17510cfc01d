// What a start does about the demo on a database that is not the demo: adds nothing, and disables the demo
// access an earlier version left there. Tokens are checked on a server started after it, as after a restart.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { permissionKeys } from '../../shared/permissions.js';
import { openTestDatabase, startTestServer } from '../../test/harness.js';
import { createClient } from '../api-keys/service.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/connection.js';
import { selectRows } from '../db/rows.js';
import { createOrganization } from '../organizations/service.js';
import { findUserByEmail } from '../users/queries.js';
import { createUser } from '../users/service.js';
import { DEMO_KEY_NAME, DEMO_STAFF, PUBLISHED_DEMO_PASSWORDS, prepareDemo } from './demo.js';

const [publishedAdmin, publishedMember] = PUBLISHED_DEMO_PASSWORDS;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-demo-modes-'));
const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
/** The configuration of an operator's PostgreSQL (DATABASE_URL set; `prepareDemo` never connects to it). */
const OPERATOR = {
  DATABASE_URL: 'postgres://db.example/sitefile',
  JWT_SIGNING_KEY: 'demo-modes-signing-key-0123456789abcdefghij',
};
const now = new Date('2026-11-26T08:00:00.000Z');

let database: Database;
let orgId: string;
const people: Record<string, string> = {};
let demoKey: { clientId: string; secret: string };
let realKey: { clientId: string; secret: string };

const tableCounts = async () =>
  (
    await selectRows(
      database.db,
      sql`SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM organizations)::int AS orgs,
                 (SELECT count(*) FROM organization_members)::int AS members,
                 (SELECT count(*) FROM api_keys)::int AS keys,
                 (SELECT count(*) FROM demo_credentials)::int AS demo`,
      z.object({ users: z.number(), orgs: z.number(), members: z.number(), keys: z.number(), demo: z.number() }),
    )
  )[0];

beforeAll(async () => {
  database = await openTestDatabase();
  const db = database.db;
  orgId = (await createOrganization(db, { name: 'Acme Builders' })).id;
  const person = async (email: string, password: string, role: 'admin' | 'member' | 'staff') => {
    const made = await createUser(db, {
      email,
      name: email.split('@')[0]!,
      password,
      staff: role === 'staff',
      memberships: role === 'staff' ? [] : [{ orgId, role }],
    });
    people[email] = made.id;
  };
  // What an earlier start put into a real organization, beside the organization's own people.
  await person('ada.admin@acme-builders.example', publishedAdmin, 'admin');
  await person('demo-member@sitefile.example', publishedMember, 'member');
  await person(DEMO_STAFF.email, 'staff-printed-on-stdout-once', 'staff');
  await person('pat@acme-builders.com', 'a real and private passphrase', 'admin');
  await person('lee@test-bed.example', 'not one of the published ones', 'member');
  const demoClient = await createClient(db, {
    name: DEMO_KEY_NAME,
    description: 'left by an earlier start',
    permissions: [...permissionKeys],
    orgIds: [orgId],
    projects: [],
    createdBy: DEMO_STAFF.email,
  });
  demoKey = { clientId: demoClient.clientId, secret: demoClient.client_secret };
  const realClient = await createClient(db, {
    name: 'ERP integration',
    description: '',
    permissions: ['organization:read'],
    orgIds: [orgId],
    projects: [],
    createdBy: 'pat@acme-builders.com',
  });
  realKey = { clientId: realClient.clientId, secret: realClient.client_secret };
}, 120_000);

afterAll(async () => {
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a start outside demo mode', () => {
  it('on a database with a real organization adds nothing, and disables demo access with one warning', async () => {
    const before = await startTestServer({ database, env: { DATA_DIR: dataDir } });
    const tokens = Object.fromEntries(
      Object.entries(people).map(([email, id]) => [email, before.app.context.tokens.sign(id, 'user').token]),
    );
    const exchange = (server: typeof before, key: typeof demoKey) =>
      server.call('/v1/oauth/token', { method: 'POST', json: { client_id: key.clientId, client_secret: key.secret } });
    for (const token of Object.values(tokens)) expect((await before.call('/v1/me', { token })).status).toBe(200);
    expect((await exchange(before, demoKey)).status).toBe(200);
    await before.close();

    const counts = await tableCounts();
    // DATABASE_URL set, SITEFILE_DEMO unset: a real deployment whatever the database holds.
    const outcome = await prepareDemo(database.db, config(OPERATOR), now);
    expect(outcome.demo).toBeUndefined();
    expect(outcome.warnings).toHaveLength(1);
    const [warning] = outcome.warnings;
    for (const disabled of ['ada.admin@acme-builders.example', 'demo-member@sitefile.example', DEMO_STAFF.email]) {
      expect(warning).toContain(disabled);
    }
    expect(warning).toContain(demoKey.clientId);
    expect(warning).not.toContain('pat@acme-builders.com');
    expect(warning).not.toContain('lee@test-bed.example');
    expect(await tableCounts()).toEqual(counts);

    const after = await startTestServer({ database, env: { DATA_DIR: dataDir } });
    try {
      const status = async (email: string) => (await after.call('/v1/me', { token: tokens[email] })).status;
      expect(await status('ada.admin@acme-builders.example')).toBe(401);
      expect(await status('demo-member@sitefile.example')).toBe(401);
      expect(await status(DEMO_STAFF.email)).toBe(401);
      expect(await status('pat@acme-builders.com')).toBe(200);
      expect(await status('lee@test-bed.example')).toBe(200);
      expect((await exchange(after, demoKey)).status).toBe(401);
      expect((await exchange(after, realKey)).status).toBe(200);
    } finally {
      await after.close();
    }
  }, 120_000);

  it('says nothing on the next start: what was disabled stays disabled', async () => {
    const counts = await tableCounts();
    expect(await prepareDemo(database.db, config(OPERATOR), now)).toEqual({ demo: undefined, warnings: [] });
    // The embedded database holding real organizations is not demo mode either.
    expect(await prepareDemo(database.db, config(), now)).toEqual({ demo: undefined, warnings: [] });
    expect(await tableCounts()).toEqual(counts);
  });

  it("after importing an earlier version's demo data directory, says in one line that its sign-ins do not work and what to do", async () => {
    const outcome = await prepareDemo(database.db, config(), now, '/data/pg.imported-2026-11-28');
    expect(outcome.demo).toBeUndefined();
    expect(outcome.warnings).toHaveLength(1);
    const [line] = outcome.warnings;
    expect(line).not.toContain('\n');
    expect(line).toContain("The imported data directory (/data/pg.imported-2026-11-28) held an earlier version's demo");
    expect(line).toContain('start with an empty DATA_DIR');
    expect(line).toContain('npm run cli -- user create');
  });

  it('with SITEFILE_DEMO=1 on a database holding other organizations adds no demo, and says so', async () => {
    const counts = await tableCounts();
    const outcome = await prepareDemo(database.db, config({ ...OPERATOR, SITEFILE_DEMO: '1' }), now);
    expect(outcome.demo).toBeUndefined();
    expect(outcome.warnings).toEqual([expect.stringContaining('not the demo data')]);
    expect(await tableCounts()).toEqual(counts);
  });
});

describe('an empty database', () => {
  it('stays empty outside demo mode (PostgreSQL unset, or SITEFILE_DEMO=0), and gets the demo with SITEFILE_DEMO=1', async () => {
    const empty = await openTestDatabase();
    const emptyDir = mkdtempSync(path.join(tmpdir(), 'sitefile-demo-empty-'));
    try {
      const at = (env: Record<string, string>) => loadConfig({ DATA_DIR: emptyDir, LOG_LEVEL: 'silent', ...env });
      const organizations = async () =>
        (await selectRows(empty.db, sql`SELECT count(*)::int AS n FROM organizations`, z.object({ n: z.number() })))[0]!
          .n;
      expect(await prepareDemo(empty.db, at(OPERATOR), now)).toEqual({ demo: undefined, warnings: [] });
      expect(await prepareDemo(empty.db, at({ SITEFILE_DEMO: '0' }), now)).toEqual({
        demo: undefined,
        warnings: [],
      });
      expect(await organizations()).toBe(0);
      const seeded = await prepareDemo(empty.db, at({ ...OPERATOR, SITEFILE_DEMO: '1' }), now);
      expect(seeded.demo?.organizations).toHaveLength(2);
      expect(await organizations()).toBe(2);
      // Set back to unset on PostgreSQL: a demo database is still not shown outside demo mode, and its
      // generated passwords are not published ones, so nothing is disabled.
      expect(await prepareDemo(empty.db, at(OPERATOR), now)).toEqual({ demo: undefined, warnings: [] });
      expect((await prepareDemo(empty.db, at({ ...OPERATOR, SITEFILE_DEMO: '1' }), now)).demo).toEqual(seeded.demo);
    } finally {
      await empty.close();
      await rm(emptyDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('a demo database that later holds a real organization', () => {
  it('no longer shows the demo, and disables every sign-in and the key it printed, even with SITEFILE_DEMO=1', async () => {
    const demoDb = await openTestDatabase();
    const demoDir = mkdtempSync(path.join(tmpdir(), 'sitefile-demo-later-'));
    const at = (env: Record<string, string>) => loadConfig({ DATA_DIR: demoDir, LOG_LEVEL: 'silent', ...env });
    try {
      const demo = (await prepareDemo(demoDb.db, at({ SITEFILE_DEMO: '1' }), now)).demo!;
      const printed = [demo.staff.email, ...demo.users.map((user) => user.email)];
      const server = await startTestServer({ database: demoDb, env: { DATA_DIR: demoDir } });
      const tokens = await Promise.all(
        printed.map(
          async (email) => server.app.context.tokens.sign((await findUserByEmail(demoDb.db, email))!.id, 'user').token,
        ),
      );
      const exchange = (running: typeof server) =>
        running.call('/v1/oauth/token', {
          method: 'POST',
          json: { client_id: demo.client.clientId, client_secret: demo.client.clientSecret },
        });
      expect((await exchange(server)).status).toBe(200);
      await createOrganization(demoDb.db, { name: 'Real Builders Ltd' });
      await server.close();

      const outcome = await prepareDemo(demoDb.db, at({ SITEFILE_DEMO: '1' }), now);
      expect(outcome.demo).toBeUndefined();
      expect(outcome.warnings).toEqual([expect.stringContaining('not the demo data'), expect.any(String)]);
      for (const named of [...printed, demo.client.clientId]) expect(outcome.warnings[1]).toContain(named);
      // Unset on the embedded database: not demo mode either, and nothing left to disable.
      expect(await prepareDemo(demoDb.db, at({}), now)).toEqual({ demo: undefined, warnings: [] });

      const after = await startTestServer({ database: demoDb, env: { DATA_DIR: demoDir } });
      try {
        for (const token of tokens) expect((await after.call('/v1/me', { token })).status).toBe(401);
        expect((await exchange(after)).status).toBe(401);
      } finally {
        await after.close();
      }
    } finally {
      await demoDb.close();
      await rm(demoDir, { recursive: true, force: true });
    }
  }, 180_000);
});
