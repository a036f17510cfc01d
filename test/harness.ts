import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { inject } from 'vitest';
import { createClient } from '../server/api-keys/service.js';
import { ManualClock } from '../server/clock.js';
import { type Config, loadConfig, type PoolLimits } from '../server/config.js';
import { type Database, type Db, openDatabase } from '../server/db/connection.js';
import { freePort } from '../server/db/embedded-postgres.js';
import { documents } from '../server/db/schema.js';
import { createOrganization, createProject } from '../server/organizations/service.js';
import { type RunningServer, startServer } from '../server/server.js';
import { createUser } from '../server/users/service.js';
import type { Permission } from '../shared/permissions.js';
import { permissionKeys } from '../shared/permissions.js';
import { onServer } from './global-setup.js';
import { suiteResponseContract } from './response-contract.js';

// What test/global-setup.ts provides to every test file (declared here, where it is read: harness.ts is in both
// the server's and the add-in's TypeScript project).
declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL server of this run (a URL of its maintenance database). */
    testServerUrl: string;
    /** The migrated database each test file's database is copied from. */
    testTemplateDatabase: string;
  }
}

/** A port nothing listens on now: for a process of the test's own that must be told its port up front. */
export { freePort };

/** The PostgreSQL server of this test run (test/global-setup.ts): DATABASE_URL's, or the embedded one. */
export const testServerUrl = (): string => inject('testServerUrl');

/** The Redis that multi-instance tests share (CI starts one on the default port). */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A new database on the test run's PostgreSQL server, dropped again by `drop()`: empty, or (`migrated`) a copy of
 * the run's migrated template. For tests that open it more than once (several instances of the server).
 */
export async function createPostgresDatabase(
  options: { migrated?: boolean; serverUrl?: string } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = options.serverUrl ?? testServerUrl();
  const name = `sitefile_test_${randomBytes(6).toString('hex')}`;
  const admin = (statement: string) => onServer(serverUrl, statement);
  await admin(`CREATE DATABASE ${name}${options.migrated ? ` TEMPLATE ${inject('testTemplateDatabase')}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A fresh migrated database for one test file, on the test run's server, dropped again by `close()`. */
export async function openTestDatabase(pool?: PoolLimits): Promise<Database> {
  const created = await createPostgresDatabase({ migrated: true });
  const database = await openDatabase({ databaseUrl: created.url, pool });
  return {
    ...database,
    async close() {
      await database.close();
      await created.drop();
    },
  };
}

export interface TestServer extends RunningServer {
  database: Database;
  clock: ManualClock;
  config: Config;
  /** fetch against the server with an optional bearer token. */
  request(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  /** `request`, with the body read: parsed JSON when the response is JSON, else the text. */
  call(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<CallResult>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary response shapes
  body: any;
}

export interface TestServerOptions {
  database?: Database;
  env?: Record<string, string>;
  clock?: ManualClock;
  /** Where the server logs (default: nowhere). */
  log?: Logger;
}

/** The configuration of a test server: `env` over the tests' defaults, in a new DATA_DIR of its own. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitefile-test-')),
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://sitefile.test',
    JWT_SIGNING_KEY: 'test-signing-key-0123456789abcdefghijklmnop',
    JWT_SIGNING_KEY_ID: 'test',
    LOG_LEVEL: 'silent',
    // Test files reuse a few tokens for hundreds of calls; rate-limit tests set their own limit.
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...env,
  });
}

/** A real server on a real port over a real database, with a controllable clock. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const config = testConfig(options.env);
  const database = options.database ?? (await openTestDatabase(config.pool));
  const clock = options.clock ?? new ManualClock();
  const server = await startServer({
    config,
    db: database.db,
    clock,
    log: options.log ?? pino({ level: 'silent' }),
    port: 0,
  });
  const ownsDatabase = !options.database;
  const testServer: TestServer = {
    ...server,
    database,
    clock,
    config,
    ...httpClientOf(server.url),
    async close() {
      await server.close();
      if (ownsDatabase) await database.close();
    },
  };
  return testServer;
}

/** `request` and `call` against the server at `url` (in this process or another). */
export function httpClientOf(url: string): Pick<TestServer, 'request' | 'call'> {
  const request: TestServer['request'] = async (pathname, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const res = await fetch(url + pathname, { ...init, headers, body });
    await keepsContract(init.method ?? 'GET', res);
    return res;
  };
  return {
    request,
    async call(pathname, init) {
      const res = await request(pathname, init);
      const text = await res.text();
      const isJson = res.headers.get('content-type')?.includes('json') && text.length > 0;
      return { status: res.status, headers: res.headers, body: isJson ? JSON.parse(text) : text };
    },
  };
}

/**
 * Fails the calling test when a JSON success answer breaks its OpenAPI schema (test/response-contract.ts). It reads
 * a copy of the body, so the test still reads the answer as it arrived. The harness checks every answer it fetches;
 * a test that fetches by itself (another process, its own server) passes its answers here.
 */
export async function keepsContract(method: string, res: Response): Promise<void> {
  if (res.status < 200 || res.status >= 300 || !res.headers.get('content-type')?.includes('application/json')) return;
  const text = await res.clone().text();
  if (text.length === 0) return;
  const problem = suiteResponseContract().check(method.toUpperCase(), res.url, res.status, JSON.parse(text));
  if (problem) throw new Error(`Response breaks the OpenAPI contract: ${problem}`);
}

export interface ClientFixture {
  id: string;
  clientId: string;
  secret: string;
  token: string;
}

/** Two organizations with two projects each, a staff user and a member, and a key factory. */
export async function createFixtures(server: TestServer) {
  const db = server.database.db;
  const orgA = await createOrganization(db, { name: 'Harbor Construction' });
  const orgB = await createOrganization(db, { name: 'Ridgeline Builders' });
  const projectA1 = await createProject(db, { organizationId: orgA.id, name: 'Pier 9 Terminal' });
  const projectA2 = await createProject(db, { organizationId: orgA.id, name: 'Dockside Offices' });
  const projectB1 = await createProject(db, { organizationId: orgB.id, name: 'Summit Hospital' });
  const staff = await createUser(db, {
    email: 'staff@sitefile.test',
    name: 'Sam Staff',
    password: 'staff-pass-1',
    staff: true,
  });
  const member = await createUser(db, {
    email: 'member@harbor.test',
    name: 'Mia Member',
    password: 'member-pass-1',
    memberships: [{ orgId: orgA.id, role: 'member' }],
  });
  const admin = await createUser(db, {
    email: 'admin@harbor.test',
    name: 'Ada Admin',
    password: 'admin-pass-1',
    memberships: [{ orgId: orgA.id, role: 'admin' }],
  });
  const userToken = (userId: string) => server.app.context.tokens.sign(userId, 'user').token;

  /** A key with exactly these permissions ('all' = every key) and scopes. */
  const client = async (
    permissions: readonly Permission[] | 'all',
    scopes: { orgs?: string[]; projects?: { orgId: string; projectId: string }[]; superadmin?: boolean } = {},
  ): Promise<ClientFixture> => {
    const created = await createClient(db, {
      name: 'test key',
      permissions: permissions === 'all' ? [...permissionKeys] : [...permissions],
      orgIds: scopes.orgs ?? [],
      projects: scopes.projects ?? [],
      superadmin: scopes.superadmin,
      createdBy: 'tests@sitefile.test',
    });
    return {
      id: created.id,
      clientId: created.clientId,
      secret: created.client_secret,
      token: server.app.context.tokens.sign(created.clientId, 'client').token,
    };
  };

  return {
    orgA,
    orgB,
    projectA1,
    projectA2,
    projectB1,
    staff: { ...staff, token: userToken(staff.id) },
    member: { ...member, token: userToken(member.id) },
    admin: { ...admin, token: userToken(admin.id) },
    client,
    userToken,
  };
}

export type Fixtures = Awaited<ReturnType<typeof createFixtures>>;

type DocumentRow = typeof documents.$inferInsert;

/**
 * One document written straight to the database, a pending RFI unless `row` says otherwise: a record for a test
 * to file e-mail onto, comment on or find by its number.
 */
export async function insertDocument(
  db: Db,
  row: Pick<DocumentRow, 'id' | 'organizationId' | 'projectId' | 'number' | 'title'> & Partial<DocumentRow>,
): Promise<void> {
  await db.insert(documents).values({ format: 'rfi', type: 'RFI', status: 'pending', ...row });
}
