import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { verifySecret } from '../auth/secrets.js';
import { loadConfig } from '../config.js';
import { ensureDemoData, PUBLISHED_DEMO_PASSWORDS } from './demo.js';
import { config, count, dataDir, db, demo, now, rows, server } from './seed.fixtures.js';

describe('demo credentials', () => {
  const credentialsFile = path.join(dataDir, 'demo-credentials.json');

  it('persists working credentials readable only by the owner and returns them again', async () => {
    expect(statSync(credentialsFile).mode & 0o777).toBe(0o600);
    const token = await server.call('/v1/oauth/token', {
      method: 'POST',
      json: { client_id: demo.client.clientId, client_secret: demo.client.clientSecret },
    });
    expect(token.status).toBe(200);
    expect(token.body.token_type).toBe('Bearer');
    const again = await ensureDemoData(db, config, now);
    expect(again).toEqual(demo);
    expect(await count(sql`SELECT count(*) AS n FROM organizations`)).toBe(2);
  });

  it('seeds an admin and a member per organization whose passwords were made for this database', async () => {
    expect(demo.users).toHaveLength(4);
    for (const org of demo.organizations) {
      expect(
        demo.users
          .filter((u) => u.orgId === org.id)
          .map((u) => u.role)
          .sort(),
      ).toEqual(['admin', 'member']);
    }
    for (const user of [...demo.users, { ...demo.staff, role: 'staff' }]) {
      expect(PUBLISHED_DEMO_PASSWORDS).not.toContain(user.password);
      expect(user.password.length).toBeGreaterThanOrEqual(16);
      const [row] = await rows<{ password_hash: string; staff: boolean }>(
        sql`SELECT password_hash, staff FROM users WHERE lower(email) = lower(${user.email})`,
      );
      expect(await verifySecret(row!.password_hash, user.password)).toBe(true);
      for (const published of PUBLISHED_DEMO_PASSWORDS) {
        expect(await verifySecret(row!.password_hash, published)).toBe(false);
      }
      expect(row!.staff).toBe(user.role === 'staff');
    }
  });

  it('gives a second instance on its own data directory the same credentials, rotating nothing', async () => {
    const otherDir = mkdtempSync(path.join(tmpdir(), 'sitefile-seed-other-'));
    try {
      const other = await ensureDemoData(db, loadConfig({ DATA_DIR: otherDir, LOG_LEVEL: 'silent' }), now);
      expect(other).toEqual(demo);
      expect(JSON.parse(readFileSync(path.join(otherDir, 'demo-credentials.json'), 'utf8'))).toEqual({
        client: demo.client,
        staff: demo.staff,
        users: demo.users,
      });
      const exchange = await server.call('/v1/oauth/token', {
        method: 'POST',
        json: { client_id: demo.client.clientId, client_secret: demo.client.clientSecret },
      });
      expect(exchange.status).toBe(200);
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('writes the credentials file again when it was deleted, with the same secrets', async () => {
    await rm(credentialsFile);
    expect(await ensureDemoData(db, config, now)).toEqual(demo);
    expect(statSync(credentialsFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(credentialsFile, 'utf8')).client).toEqual(demo.client);
  });
});
