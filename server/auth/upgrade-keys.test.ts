import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFixtures, createPostgresDatabase, startTestServer, type TestServer } from '../../test/harness.js';
import { openDatabase } from '../db/connection.js';
import { loadKeyRing } from './keys.js';
import { createTokenService } from './tokens.js';

// An upgrade (issue 40): an earlier release ran on PostgreSQL without JWT_SIGNING_KEY and kept its key in
// DATA_DIR/keys/jwt.json. This release, started on the same DATA_DIR and database, still honours its tokens.

let server: TestServer | undefined;
const scratch: { drop(): Promise<void> }[] = [];
afterAll(async () => {
  await server?.close();
  await server?.database.close();
  for (const database of scratch) await database.drop();
});

async function operatorDatabase() {
  const created = await createPostgresDatabase({ migrated: true });
  scratch.push(created);
  return { url: created.url, database: await openDatabase({ databaseUrl: created.url }) };
}

describe('an upgrade from a release that kept its key in DATA_DIR', () => {
  it('signs with that key when JWT_SIGNING_KEY is unset: a token of the earlier release still works', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-upgrade-'));
    const earlierKeys = loadKeyRing({ dataDir });
    const { url, database } = await operatorDatabase();
    server = await startTestServer({ database, env: { DATA_DIR: dataDir, DATABASE_URL: url, JWT_SIGNING_KEY: '' } });
    const f = await createFixtures(server);
    const earlier = createTokenService({ keys: earlierKeys, clock: server.clock, publicUrl: server.config.publicUrl });
    const me = await server.call('/v1/me', { token: earlier.sign(f.member.id, 'user').token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(f.member.email);
  });

  it('without that file, still asks for JWT_SIGNING_KEY', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-upgrade-'));
    await expect(
      startTestServer({ env: { DATA_DIR: dataDir, DATABASE_URL: 'postgres://db.invalid/x', JWT_SIGNING_KEY: '' } }),
    ).rejects.toThrow(/JWT_SIGNING_KEY is required with DATABASE_URL/);
  });
});
