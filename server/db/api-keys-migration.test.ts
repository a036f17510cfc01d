import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createPostgresDatabase, startTestServer, type TestServer } from '../../test/harness.js';
import { hashSecret } from '../auth/secrets.js';
import { repoRoot } from '../paths.js';
import { type Database, openDatabase } from './connection.js';
import { selectRows } from './rows.js';

// The migration `…_api_keys` renames the API keys' tables (oauth_clients → api_keys, and their scopes). A database that holds
// keys from before keeps them: the key's secret still signs in, with the same scopes and usage.
const migrations = path.join(repoRoot, 'server/db/migrations');
const secret = 'sk_before_the_rename_0123456789';

let database: Database;
let dropPostgres: (() => Promise<void>) | undefined;
let server: TestServer;

/** How many migrations came before the rename. */
function migrationsBefore(suffix: string): number {
  const journal = JSON.parse(readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return journal.entries.findIndex((entry) => entry.tag.endsWith(suffix));
}

beforeAll(async () => {
  const created = await createPostgresDatabase();
  dropPostgres = created.drop;
  database = await openDatabase({ databaseUrl: created.url });
  await database.migrate({ upTo: migrationsBefore('_api_keys') });
  const { db } = database;
  await db.execute(sql`insert into organizations (id, name) values ('org_old', 'Old Org')`);
  await db.execute(sql`insert into projects (id, organization_id, name) values ('prj_old', 'org_old', 'Old Pier')`);
  await db.execute(sql`
    insert into oauth_clients (id, client_id, secret_hash, name, permissions, created_by)
    values ('cli_old', 'client_old', ${await hashSecret(secret)}, 'Key from before', '{project:read}', 'test')`);
  await db.execute(
    sql`insert into oauth_client_org_scopes (client_row_id, organization_id) values ('cli_old', 'org_old')`,
  );
  await db.execute(sql`
    insert into oauth_client_project_scopes (client_row_id, organization_id, project_id)
    values ('cli_old', 'org_old', 'prj_old')`);
  await db.execute(
    sql`insert into request_usage (client_row_id, endpoint, count, total_ms) values ('cli_old', 'GET /v1/x', 7, 70)`,
  );
  await database.migrate();
  server = await startTestServer({ database });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
  await dropPostgres?.();
});

it('keeps the keys, their scopes and their usage across the rename, and the key still signs in', async () => {
  const token = await server.call('/v1/oauth/token', {
    method: 'POST',
    json: { client_id: 'client_old', client_secret: secret },
  });
  expect(token.status).toBe(200);
  const me = await server.call('/v1/client/me', { token: token.body.access_token });
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ clientId: 'client_old', name: 'Key from before' });
  const [counts] = await selectRows(
    database.db,
    sql`
    select (select count(*) from api_keys)::int as keys,
           (select count(*) from api_key_org_scopes)::int as orgs,
           (select count(*) from api_key_project_scopes)::int as projects,
           (select sum(count) from request_usage where client_row_id = 'cli_old')::int as requests,
           to_regclass('oauth_clients') is null as "oldTableGone"`,
    z.object({
      keys: z.number(),
      orgs: z.number(),
      projects: z.number(),
      requests: z.number(),
      oldTableGone: z.boolean(),
    }),
  );
  expect(counts).toEqual({ keys: 1, orgs: 1, projects: 1, requests: 7, oldTableGone: true });
});
