// Once per `vitest run`: the PostgreSQL server every test file uses — DATABASE_URL's, or else an embedded one
// started here in a temporary DATA_DIR (so `npm test` needs nothing but Node.js) — and on it a template database
// migrated once, from which each test file's database is copied (test/harness.ts `openTestDatabase`).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../server/db/connection.js';
import { startEmbeddedPostgres } from '../server/db/embedded-postgres.js';

/** An embedded server that only tests use: losing it in a crash loses nothing, so it skips the disk syncs. */
export const THROWAWAY = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' };

/** Runs one statement on the server at `url`, on a connection of its own. */
export async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(path.join(tmpdir(), 'sitefile-tests-'));
  const embedded = dataDir ? await startEmbeddedPostgres(dataDir, THROWAWAY) : undefined;
  const serverUrl = embedded?.url ?? process.env.DATABASE_URL!;
  const template = `sitefile_template_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${template}`);
  const templateUrl = Object.assign(new URL(serverUrl), { pathname: `/${template}` }).toString();
  const database = await openDatabase({ databaseUrl: templateUrl });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  project.provide('testServerUrl', serverUrl);
  project.provide('testTemplateDatabase', template);
  return async () => {
    if (embedded) {
      await embedded.stop();
      rmSync(dataDir!, { recursive: true, force: true });
    } else {
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    }
  };
}
