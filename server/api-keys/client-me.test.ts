import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { ctx, f, server } from './api-keys.fixtures.js';

describeAuthMatrix('clients', ctx, {
  method: 'GET',
  path: '/v1/client/me',
  expectOk: (res) => {
    expect(res.status).toBe(200);
    expect(res.body.orgIds).toEqual([f.orgA.id]);
  },
});

describe('GET /v1/client/me', () => {
  it('refuses a token for another audience or with a tampered payload (401)', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const signingKey = server.config.jwtSigningKey!;
    const otherAudience = jwt.sign({ typ: 'client' }, signingKey.secret, {
      algorithm: 'HS256',
      keyid: signingKey.id,
      subject: key.clientId,
      issuer: server.config.publicUrl,
      audience: 'http://elsewhere.test/v1',
      expiresIn: 3600,
    });
    const [header, , signature] = key.token.split('.');
    const payload = JSON.parse(Buffer.from(key.token.split('.')[1]!, 'base64url').toString());
    const tampered = [
      header,
      Buffer.from(JSON.stringify({ ...payload, sub: f.staff.id, typ: 'user' })).toString('base64url'),
      signature,
    ].join('.');
    for (const token of [otherAudience, tampered]) {
      const res = await server.call('/v1/client/me', { token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ errorCode: 'unauthorized', error: 'Invalid or expired token' });
    }
  });

  it('returns the calling key with permissions, scopes and organization IDs, never a secret', async () => {
    const key = await f.client(['document:read', 'project:read'], {
      orgs: [f.orgB.id],
      projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id }],
    });
    const res = await server.call('/v1/client/me', { token: key.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: key.id,
      clientId: key.clientId,
      name: 'test key',
      superadmin: false,
      enabled: true,
      createdBy: 'tests@sitefile.test',
      orgIds: [f.orgA.id, f.orgB.id].sort(),
      scopes: {
        orgs: [{ orgId: f.orgB.id, grantedAt: expect.any(String) }],
        projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id, grantedAt: expect.any(String) }],
      },
    });
    expect(res.body.permissions).toEqual({
      'mcp:access': false,
      'organization:read': false,
      'project:read': true,
      'document:read': true,
      'email:read': false,
      'email:file': false,
      'client:read': false,
      'client:create': false,
      'explorer:query': false,
      'webhook:manage': false,
    });
    expect(res.body).not.toHaveProperty('client_secret');
    expect(JSON.stringify(res.body)).not.toContain(key.secret);
  });

  it('lists every organization in orgIds for a superadmin key', async () => {
    const key = await f.client(['organization:read'], { superadmin: true });
    const res = await server.call('/v1/client/me', { token: key.token });
    expect(res.status).toBe(200);
    expect(res.body.orgIds).toEqual([f.orgA.id, f.orgB.id].sort());
    expect(res.body.scopes).toEqual({ orgs: [], projects: [] });
  });

  it('refuses a person’s token: there is no key behind it (403)', async () => {
    const res = await server.call('/v1/client/me', { token: f.staff.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errorCode: 'forbidden', error: 'A client token is required' });
  });
});
