import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getTableName, isTable, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPostgresDatabase, startTestServer } from '../../test/harness.js';
import { createFsBlobStore } from '../blobs/store.js';
import { type Database, openDatabase } from '../db/connection.js';
import { selectRows } from '../db/rows.js';
import * as schema from '../db/schema.js';
import { seal, sealingKeys, unseal } from '../sso/sealed-secret.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The signing key and public URL the test server uses: tokens are bound to both. */
const serverIdentity = {
  JWT_SIGNING_KEY: 'test-signing-key-0123456789abcdefghijklmnop',
  JWT_SIGNING_KEY_ID: 'test',
  PUBLIC_URL: 'http://sitefile.test',
};

interface Run {
  code: number;
  stdout: string;
  /** stderr without npm's own notices about the local npm configuration. */
  stderrLines: string[];
}

/** One CLI invocation as a child process, as `npm run cli --` runs it (without npm's own start-up, a second of
 *  each of the file's 27 runs). */
function cli(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/cli/main.ts', ...args],
      { cwd: repoRoot, env: { ...process.env, LOG_LEVEL: 'silent', ...env }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          stdout,
          stderrLines: stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn')),
        });
      },
    );
  });
}

/** stdout must be exactly one JSON object. */
function json(run: Run) {
  expect(run.code, run.stderrLines.join('\n')).toBe(0);
  const text = run.stdout.trim();
  expect(text.split('\n')).toHaveLength(1);
  const value = JSON.parse(text);
  expect(typeof value).toBe('object');
  expect(Array.isArray(value)).toBe(false);
  return value;
}

/** A fresh environment: a temp DATA_DIR and a new, empty database on the test run's server. */
async function freshEnvironment() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-cli-'));
  const database = await createPostgresDatabase();
  return {
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url, ...serverIdentity },
    open: () => openDatabase({ databaseUrl: database.url }),
    async dispose() {
      await rm(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}

type Environment = Awaited<ReturnType<typeof freshEnvironment>>;

let main: Environment;
let demoEnv: Environment;
beforeAll(async () => {
  main = await freshEnvironment();
  demoEnv = await freshEnvironment();
});
afterAll(async () => {
  await main?.dispose();
  await demoEnv?.dispose();
});

describe('cli', () => {
  // Filled in as the commands run; the last test checks them against a real server.
  const made: Record<string, { id: string; [key: string]: unknown }> = {};
  let clientSecret = '';
  let accessToken = '';

  it('migrates an empty database', async () => {
    expect(json(await cli(['migrate', '--json'], main.env))).toEqual({ migrated: true });
  }, 300_000);

  it('creates an organization and a project', async () => {
    made.org = json(await cli(['org', 'create', '--name', 'Harbor Line Construction', '--json'], main.env));
    expect(made.org).toEqual({ id: expect.stringMatching(/^org_/), name: 'Harbor Line Construction' });
    made.project = json(
      await cli(['project', 'create', '--org', made.org!.id, '--name', 'Pier 9 Terminal', '--json'], main.env),
    );
    expect(made.project).toEqual({
      id: expect.stringMatching(/^prj_/),
      name: 'Pier 9 Terminal',
      organizationId: made.org!.id,
      code: null,
      aliases: [],
      siteAddress: null,
      referenceNumbers: [],
      createdAt: expect.any(String),
    });
  }, 300_000);

  it('sets a project code and aliases on create and changes them with update', async () => {
    const library = json(
      await cli(
        [
          ...['project', 'create', '--org', made.org!.id, '--name', 'Lakeshore Public Library', '--code', '4410'],
          ...['--alias', 'Lakeshore Library', '--alias', 'LPL', '--json'],
        ],
        main.env,
      ),
    );
    expect(library).toMatchObject({
      name: 'Lakeshore Public Library',
      code: '4410',
      aliases: ['Lakeshore Library', 'LPL'],
    });
    const renamed = json(
      await cli(
        [
          'project',
          'update',
          '--org',
          made.org!.id,
          '--id',
          library.id,
          '--code',
          '4410-02',
          '--alias',
          'The Library',
          '--json',
        ],
        main.env,
      ),
    );
    expect(renamed).toMatchObject({ name: 'Lakeshore Public Library', code: '4410-02', aliases: ['The Library'] });
    const cleared = json(
      await cli(
        ['project', 'update', '--org', made.org!.id, '--id', library.id, '--no-code', '--no-alias', '--json'],
        main.env,
      ),
    );
    expect(cleared).toMatchObject({ code: null, aliases: [] });
  }, 300_000);

  it('creates an API key with permissions and org/project scopes, showing the secret once', async () => {
    const key = json(
      await cli(
        [
          'client',
          'create',
          '--name',
          'Reporting export',
          '--permissions',
          'project:read,document:read',
          '--org',
          made.org!.id,
          '--project',
          `${made.org!.id}:${made.project!.id}`,
          '--json',
        ],
        main.env,
      ),
    );
    expect(key).toMatchObject({
      clientId: expect.any(String),
      client_secret: expect.stringMatching(/^sfs_/),
      name: 'Reporting export',
      superadmin: false,
      permissions: { 'project:read': true, 'document:read': true, 'client:create': false },
      scopes: {
        orgs: [{ orgId: made.org!.id, grantedAt: expect.any(String) }],
        projects: [{ orgId: made.org!.id, projectId: made.project!.id, grantedAt: expect.any(String) }],
      },
    });
    made.client = key;
    clientSecret = key.client_secret;
    const all = json(
      await cli(['client', 'create', '--name', 'Ops', '--permissions', 'all', '--superadmin', '--json'], main.env),
    );
    expect(Object.values(all.permissions).every(Boolean)).toBe(true);
    expect(all.superadmin).toBe(true);
  }, 300_000);

  it('creates users (member and staff) and signs a token for one', async () => {
    const user = json(
      await cli(
        [
          'user',
          'create',
          '--email',
          'ada@harbor.example',
          '--name',
          'Ada Admin',
          '--password',
          'correct-horse-1',
          '--org',
          `${made.org!.id}:admin`,
          '--json',
        ],
        main.env,
      ),
    );
    expect(user).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: 'ada@harbor.example',
      name: 'Ada Admin',
      staff: false,
    });
    made.user = user;
    const staff = json(
      await cli(
        [
          'user',
          'create',
          '--email',
          'ops@sitefile.example',
          '--name',
          'Ops',
          '--password',
          'correct-horse-2',
          '--staff',
          '--json',
        ],
        main.env,
      ),
    );
    expect(staff.staff).toBe(true);
    const token = json(await cli(['user', 'token', '--email', 'ADA@harbor.example', '--json'], main.env));
    expect(token).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    accessToken = token.access_token;
  }, 300_000);

  it("changes a person's role, removes a membership, disables and enables a person", async () => {
    const org = made.org!.id;
    const bea = json(
      await cli(
        [
          'user',
          'create',
          '--email',
          'bea@harbor.example',
          '--name',
          'Bea',
          '--password',
          'correct-horse-4',
          '--org',
          org,
          '--json',
        ],
        main.env,
      ),
    );
    expect(bea.id).toMatch(/^usr_/);
    const promoted = json(
      await cli(['user', 'role', '--email', 'bea@harbor.example', '--org', org, '--role', 'admin', '--json'], main.env),
    );
    expect(promoted).toMatchObject({ email: 'bea@harbor.example', role: 'admin', disabled: false });
    expect(
      json(await cli(['user', 'remove-membership', '--email', 'bea@harbor.example', '--org', org, '--json'], main.env)),
    ).toEqual({
      removed: true,
    });
    const disabled = json(await cli(['user', 'disable', '--email', 'bea@harbor.example', '--json'], main.env));
    expect(disabled).toMatchObject({ email: 'bea@harbor.example', disabledAt: expect.any(String) });
    const enabled = json(await cli(['user', 'enable', '--email', 'bea@harbor.example', '--json'], main.env));
    expect(enabled).toMatchObject({ email: 'bea@harbor.example', disabledAt: null });

    const lastAdmin = await cli(['user', 'remove-membership', '--email', 'ada@harbor.example', '--org', org], main.env);
    expect(lastAdmin.code).toBe(1);
    expect(lastAdmin.stderrLines).toEqual(['error: An organization keeps at least one admin']);
    const badRole = await cli(
      ['user', 'role', '--email', 'ada@harbor.example', '--org', org, '--role', 'owner'],
      main.env,
    );
    expect(badRole.code).toBe(1);
    expect(badRole.stderrLines).toEqual(['error: --role must be admin or member, got owner']);
  }, 600_000);

  it('fails with exit code 1 and one line on stderr; with --json, stdout is one JSON object naming the error', async () => {
    /** What a script reads from a failed --json run: `{ error }`, the message stderr shows too. */
    const failure = (run: Run, args: string[]) => {
      expect(JSON.parse(run.stdout), args.join(' ')).toEqual({ error: expect.any(String) });
      expect(run.stderrLines[0], args.join(' ')).toContain(JSON.parse(run.stdout).error);
    };
    const badPort = await cli(['migrate', '--json'], { ...main.env, PORT: 'eighty' });
    expect(badPort.code).toBe(1);
    failure(badPort, ['migrate']);
    expect(badPort.stderrLines).toHaveLength(1);
    expect(badPort.stderrLines[0]).toContain('PORT');

    for (const args of [
      ['project', 'create', '--org', 'org_missing', '--name', 'X', '--json'],
      ['project', 'create', '--org', 'org_missing', '--name', 'X', '--code', 'a b', '--json'],
      ['project', 'update', '--org', 'org_missing', '--id', 'prj_missing', '--name', 'Y', '--json'],
      ['project', 'update', '--org', 'org_missing', '--id', 'prj_missing', '--json'],
      ['user', 'token', '--email', 'nobody@harbor.example', '--json'],
      ['user', 'create', '--email', 'ada@harbor.example', '--name', 'Again', '--password', 'correct-horse-3', '--json'],
      ['client', 'create', '--name', 'Bad', '--permissions', 'document:write', '--json'],
      ['seed', '--scale', 'demo', '--json'],
      ['seed', '--scale', 'huge'],
    ]) {
      const run = await cli(args, main.env);
      expect(run.code, args.join(' ')).toBe(1);
      if (args.includes('--json')) failure(run, args);
      else expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderrLines, args.join(' ')).toHaveLength(1);
    }
  }, 600_000);

  it('left a fully migrated database whose keys and tokens the server accepts', async () => {
    let database: Database | undefined;
    try {
      database = await main.open();
      const tables = Object.values(schema)
        .filter((value) => isTable(value))
        .map((table) => getTableName(table));
      const existing = (
        await selectRows(
          database.db,
          sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
          z.object({ table_name: z.string() }),
        )
      ).map((r) => r.table_name);
      expect(existing).toEqual(expect.arrayContaining(tables));

      const server = await startTestServer({ database, env: { DATA_DIR: main.dataDir } });
      try {
        const exchange = await server.call('/v1/oauth/token', {
          method: 'POST',
          json: { client_id: made.client!.clientId, client_secret: clientSecret },
        });
        expect(exchange.status).toBe(200);
        const me = await server.call('/v1/me', { token: accessToken });
        expect(me.status).toBe(200);
        expect(JSON.stringify(me.body)).toContain(made.user!.id);
      } finally {
        await server.close();
      }
    } finally {
      await database?.close();
    }
  }, 300_000);

  it('seeds the demo data once and prints the same credentials again', async () => {
    const first = json(await cli(['demo', '--json'], demoEnv.env));
    expect(first.organizations).toHaveLength(2);
    for (const org of first.organizations) {
      expect(org).toEqual({
        id: expect.stringMatching(/^org_/),
        name: expect.any(String),
        projects: [
          { id: expect.stringMatching(/^prj_/), name: expect.any(String) },
          { id: expect.stringMatching(/^prj_/), name: expect.any(String) },
        ],
      });
    }
    expect(first.client).toEqual({ clientId: expect.any(String), clientSecret: expect.stringMatching(/^sfs_/) });
    expect(first.staff).toEqual({ email: expect.any(String), password: expect.any(String) });
    expect(first.users.map((u: { role: string }) => u.role).sort()).toEqual(['admin', 'admin', 'member', 'member']);
    expect(json(await cli(['demo', '--json'], demoEnv.env))).toEqual(first);
  }, 600_000);

  it("relearns the suggestion model from each organization's filed e-mail, the same counts every time", async () => {
    const demo = json(await cli(['demo', '--json'], demoEnv.env));
    const orgIds = demo.organizations.map((o: { id: string }) => o.id).sort();
    const all = json(await cli(['org', 'relearn-suggestions', '--json'], demoEnv.env));
    // The demo files 40 e-mails in each of its two projects per organization.
    expect(all.organizations).toEqual(orgIds.map((organizationId: string) => ({ organizationId, emails: 80 })));
    const one = json(await cli(['org', 'relearn-suggestions', '--org', orgIds[0], '--json'], demoEnv.env));
    expect(one.organizations).toEqual([{ organizationId: orgIds[0], emails: 80 }]);
    const unknown = await cli(['org', 'relearn-suggestions', '--org', 'org_missing'], demoEnv.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderrLines).toEqual([expect.stringMatching(/^error: .*org_missing/)]);
  }, 600_000);
});

describe('cli sweep-blobs', () => {
  it('deletes a released blob nothing refers to once its grace period has passed, and keeps one written lately', async () => {
    const blobs = createFsBlobStore(path.join(main.dataDir, 'blobs'));
    const old = await blobs.put(Buffer.from('an unfiled e-mail, released two days ago'));
    const lately = await blobs.put(Buffer.from('the same bytes stored again by a filing under way'));
    const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000);
    const fileOf = (key: string) => path.join(main.dataDir, 'blobs', key.slice(0, 2), key.slice(2, 4), key);
    await utimes(fileOf(old.key), twoDaysAgo, twoDaysAgo);
    const database = await main.open();
    try {
      await database.db.insert(schema.blobReleases).values([
        { blobKey: old.key, releasedAt: twoDaysAgo },
        { blobKey: lately.key, releasedAt: twoDaysAgo },
      ]);
      const run = await cli(['sweep-blobs', '--json'], { ...main.env, BLOB_SWEEP_GRACE_HOURS: '24' });
      expect(json(run)).toEqual({ deleted: 1 });
      expect(await blobs.stat(old.key)).toBeUndefined();
      expect(await blobs.stat(lately.key)).toBeGreaterThan(0);
      // The one written lately stays released: a later sweep decides.
      const left = await database.db.select({ key: schema.blobReleases.blobKey }).from(schema.blobReleases);
      expect(left.map((row) => row.key)).toEqual([lately.key]);
    } finally {
      await database.close();
    }
  });
});

describe('cli verify-domain', () => {
  it("marks an organization's pending SSO domain verified as the operator, recorded in its audit log", async () => {
    const org = json(await cli(['org', 'create', '--name', 'Domain Holder Builders', '--json'], main.env));
    const database = await main.open();
    try {
      await database.db.insert(schema.ssoConnections).values({
        organizationId: org.id,
        issuer: 'https://login.example.test',
        clientId: 'sitefile',
        clientSecretSealed: 'sealed',
      });
      await database.db
        .insert(schema.ssoDomains)
        .values({ organizationId: org.id, domain: 'holder.test', token: 'pending-token' });
      const verified = json(
        await cli(['verify-domain', '--org', org.id, '--domain', 'Holder.test', '--json'], main.env),
      );
      expect(verified).toMatchObject({ domain: 'holder.test', status: 'verified', verifiedBy: 'operator' });
      const [event] = await database.db
        .select()
        .from(schema.auditEvents)
        .where(
          sql`${schema.auditEvents.action} = 'sso.domain_verified' and ${schema.auditEvents.organizationId} = ${org.id}`,
        );
      expect(event).toMatchObject({ actorKind: 'cli', targetId: 'holder.test' });
      expect(event!.actorName).toMatch(/^Command line \(/);
      const unknown = await cli(['verify-domain', '--org', org.id, '--domain', 'other.test'], main.env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderrLines).toEqual(["error: The organization's identity provider has no domain other.test"]);
    } finally {
      await database.close();
    }
    // Three runs of the CLI, each a process that starts TypeScript and migrates: slow on a loaded machine.
  }, 180_000);
});

describe('cli reseal-secrets', () => {
  it('re-seals a stored client secret under the first key of SECRETS_KEYS, once, audited as the operator', async () => {
    const [keyA, keyB] = [randomBytes(32), randomBytes(32)];
    const org = json(await cli(['org', 'create', '--name', 'Resealing Builders', '--json'], main.env));
    const lost = json(await cli(['org', 'create', '--name', 'Lost Key Builders', '--json'], main.env));
    const database = await main.open();
    try {
      await database.db.insert(schema.ssoConnections).values([
        {
          organizationId: org.id,
          issuer: 'https://login.example.test',
          clientId: 'sitefile',
          clientSecretSealed: seal(sealingKeys([keyA], randomBytes(32)), 'the client secret'),
        },
        {
          organizationId: lost.id,
          issuer: 'https://login.example.test',
          clientId: 'sitefile',
          clientSecretSealed: seal(sealingKeys([randomBytes(32)], randomBytes(32)), 'sealed under a key now lost'),
        },
      ]);
      const env = { ...main.env, SECRETS_KEYS: `${keyB.toString('base64')},${keyA.toString('base64')}` };
      // A secret no configured key opens is named, left as it is, and does not stop the others' re-seal.
      const first = json(await cli(['reseal-secrets', '--json'], env));
      expect(first.resealed).toBe(1);
      expect(first.unreadable).toContain(lost.id);
      expect(first.unreadable).not.toContain(org.id);
      const second = json(await cli(['reseal-secrets', '--json'], env));
      expect(second).toEqual({ resealed: 0, unreadable: first.unreadable });
      const [row] = await database.db
        .select()
        .from(schema.ssoConnections)
        .where(sql`${schema.ssoConnections.organizationId} = ${org.id}`);
      // Key B alone now opens it: A can be dropped from SECRETS_KEYS.
      expect(unseal(sealingKeys([keyB], randomBytes(32)), row!.clientSecretSealed)).toBe('the client secret');
      const events = await database.db
        .select()
        .from(schema.auditEvents)
        .where(sql`${schema.auditEvents.action} = 'sso.updated' and ${schema.auditEvents.organizationId} = ${org.id}`);
      expect(events.map((e) => e.actorKind)).toEqual(['cli']);
    } finally {
      await database.close();
    }
    // Two runs of the CLI, each a process that starts TypeScript: slow on a loaded machine.
  }, 180_000);
});
