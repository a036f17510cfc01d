import { statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { verifySecret } from '../auth/secrets.js';
import { ensureDemoData } from './demo.js';
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

  it('seeds sign-in accounts: an admin and a member per organization, with known passwords', async () => {
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
      const [row] = await rows<{ password_hash: string; staff: boolean }>(
        sql`SELECT password_hash, staff FROM users WHERE lower(email) = lower(${user.email})`,
      );
      expect(await verifySecret(row!.password_hash, user.password)).toBe(true);
      expect(row!.staff).toBe(user.role === 'staff');
    }
  });

  it('rotates the demo secret and staff password when the credentials file is missing', async () => {
    await rm(credentialsFile);
    const rotated = await ensureDemoData(db, config, now);
    expect(rotated.client.clientId).toBe(demo.client.clientId);
    expect(rotated.client.clientSecret).not.toBe(demo.client.clientSecret);
    expect(rotated.staff.password).not.toBe(demo.staff.password);
    expect(rotated.organizations).toEqual(demo.organizations);
    expect([...rotated.users].sort((a, b) => a.email.localeCompare(b.email))).toEqual(
      [...demo.users].sort((a, b) => a.email.localeCompare(b.email)),
    );
    expect(statSync(credentialsFile).mode & 0o777).toBe(0o600);
    const exchange = (secret: string) =>
      server.call('/v1/oauth/token', {
        method: 'POST',
        json: { client_id: demo.client.clientId, client_secret: secret },
      });
    expect((await exchange(rotated.client.clientSecret)).status).toBe(200);
    expect((await exchange(demo.client.clientSecret)).status).toBe(401);
    expect(await ensureDemoData(db, config, now)).toEqual(rotated);
  });
});
