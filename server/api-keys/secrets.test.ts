import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepsContract, openTestDatabase } from '../../test/harness.js';
import { type KeyRing, loadKeyRing } from '../auth/keys.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/connection.js';
import { createOrganization } from '../organizations/service.js';
import { type RunningServer, startServer } from '../server.js';
import { createUser } from '../users/service.js';

/**
 * A server built by hand (not the harness) to capture every log line at trace level and to sign with a
 * key ring kept on disk, as production does.
 */
let database: Database;
let server: RunningServer;
let ring: KeyRing;
let dataDir: string;
const logLines: string[] = [];
let staffToken: string;
let orgId: string;

const call = async (
  pathname: string,
  init: { method?: string; token?: string; json?: unknown; form?: string } = {},
) => {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (init.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(server.url + pathname, {
    method: init.method ?? 'GET',
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.form,
  });
  await keepsContract(init.method ?? 'GET', res);
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
};

beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-keys-'));
  ring = loadKeyRing({ dataDir });
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', PUBLIC_URL: 'http://sitefile.test', LOG_LEVEL: 'trace' });
  const log = pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) });
  server = await startServer({ config, db: database.db, log, keys: ring, port: 0 });
  const staff = await createUser(database.db, { email: 'ops@sitefile.test', name: 'Ops', staff: true });
  staffToken = server.app.context.tokens.sign(staff.id, 'user').token;
  orgId = (await createOrganization(database.db, { name: 'Harbor' })).id;
});
afterAll(async () => {
  await server?.close();
  await database?.close();
});

describe('client secrets', () => {
  it('appear only in the create and rotate answers, never in other answers or in the logs', async () => {
    const created = await call('/v1/client', {
      method: 'POST',
      token: staffToken,
      json: {
        name: 'Reporting',
        permissions: { 'organization:read': true, 'client:read': true },
        scopes: { orgs: [orgId] },
      },
    });
    expect(created.status).toBe(201);
    const { clientId, client_secret: firstSecret, id } = created.body;

    const viaJson = await call('/v1/oauth/token', {
      method: 'POST',
      json: { client_id: clientId, client_secret: firstSecret },
    });
    const viaForm = await call('/v1/oauth/token', {
      method: 'POST',
      form: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: firstSecret,
      }).toString(),
    });
    const wrong = await call('/v1/oauth/token', {
      method: 'POST',
      json: { client_id: clientId, client_secret: 'sfs_wrong' },
    });
    expect([viaJson.status, viaForm.status, wrong.status]).toEqual([200, 200, 401]);
    const accessToken = viaJson.body.access_token;

    const rotated = await call(`/v1/admin/clients/${id}/rotate-secret`, { method: 'POST', token: staffToken });
    expect(rotated.status).toBe(200);
    const secondSecret = rotated.body.client_secret;

    const others = [
      await call('/v1/client/me', { token: accessToken }),
      await call('/v1/client', { token: accessToken }),
      await call(`/v1/admin/clients/${id}`, { token: staffToken }),
      await call('/v1/admin/clients', { token: staffToken }),
      await call(`/v1/admin/clients/${id}`, { method: 'PATCH', token: staffToken, json: { name: 'Renamed' } }),
    ];
    for (const res of others) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(firstSecret);
      expect(res.text).not.toContain(secondSecret);
      expect(res.text).not.toContain('client_secret');
      expect(res.text).not.toMatch(/argon2/);
    }

    const logs = logLines.join('');
    expect(logs).toContain('/v1/oauth/token'); // the capture works: requests are logged
    for (const secret of [firstSecret, secondSecret, 'sfs_wrong', accessToken, staffToken]) {
      expect(logs).not.toContain(secret);
    }
    expect(logs).not.toContain('sfs_');
  });
});

describe('signing key rotation', () => {
  it('keeps tokens signed before a rotation valid while new tokens use the new key', async () => {
    const created = await call('/v1/client', {
      method: 'POST',
      token: staffToken,
      json: { name: 'Rotation', permissions: { 'organization:read': true }, scopes: { orgs: [orgId] } },
    });
    const credentials = { client_id: created.body.clientId, client_secret: created.body.client_secret };
    const before = (await call('/v1/oauth/token', { method: 'POST', json: credentials })).body.access_token;
    const oldKid = ring.current.id;

    const newKey = ring.rotate();
    const after = (await call('/v1/oauth/token', { method: 'POST', json: credentials })).body.access_token;
    expect(jwt.decode(before, { complete: true })?.header.kid).toBe(oldKid);
    expect(jwt.decode(after, { complete: true })?.header.kid).toBe(newKey.id);

    for (const token of [before, after]) {
      const res = await call(`/v1/organization/${orgId}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('Harbor');
    }
    // The ring is kept in DATA_DIR: after a restart both keys still verify, the new one still signs.
    const reloaded = loadKeyRing({ dataDir });
    expect(reloaded.current.id).toBe(newKey.id);
    expect(reloaded.byId(oldKid)).toBeDefined();
  });
});
