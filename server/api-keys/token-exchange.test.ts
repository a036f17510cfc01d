import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { exchange, f, form, server } from './api-keys.fixtures.js';

describe('POST /v1/oauth/token', () => {
  it('exchanges JSON credentials for a one-hour JWT bound to the client', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    const res = await exchange(key.clientId, key.secret);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const decoded = jwt.decode(res.body.access_token, { complete: true })!;
    const claims = decoded.payload as jwt.JwtPayload;
    expect(decoded.header).toMatchObject({ alg: 'HS256', kid: 'test' });
    expect(claims).toMatchObject({ sub: key.clientId, iss: 'http://sitefile.test', aud: 'http://sitefile.test/v1' });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.jti).toEqual(expect.any(String));
    const me = await server.call('/v1/client/me', { token: res.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.clientId).toBe(key.clientId);
  });

  it('accepts the OAuth form body with grant_type=client_credentials', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    const res = await form({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.secret });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('Bearer');
  });

  it('answers another grant_type with unsupported_grant_type', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    const viaForm = await form({ grant_type: 'password', client_id: key.clientId, client_secret: key.secret });
    expect(viaForm.status).toBe(400);
    expect(viaForm.body).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'Only grant_type=client_credentials is supported',
    });
    const viaJson = await server.call('/v1/oauth/token', {
      method: 'POST',
      json: { grant_type: 'authorization_code', client_id: key.clientId, client_secret: key.secret },
    });
    expect(viaJson.status).toBe(400);
    expect(viaJson.body.error).toBe('unsupported_grant_type');
  });

  it('answers a wrong secret and an unknown client_id with the same invalid_client body', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    const wrong = await exchange(key.clientId, `${key.secret}x`);
    const unknown = await exchange('00000000-0000-0000-0000-000000000000', key.secret);
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_client', error_description: 'Invalid client credentials' });
    }
  });

  it('names the missing field of an incomplete body in OAuth’s shape (400 invalid_request)', async () => {
    const res = await server.call('/v1/oauth/token', { method: 'POST', json: { client_id: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_request', error_description: 'client_secret is required.' });
    const formRes = await form({ grant_type: 'client_credentials', client_secret: 'x' });
    expect(formRes.status).toBe(400);
    expect(formRes.body).toEqual({ error: 'invalid_request', error_description: 'client_id is required.' });
  });

  it('refuses a token once its hour is over (clock advanced 3601 s)', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    const { body } = await exchange(key.clientId, key.secret);
    const start = server.clock.now();
    try {
      server.clock.advance(3599_000);
      expect((await server.call('/v1/client/me', { token: body.access_token })).status).toBe(200);
      server.clock.advance(2_000);
      const res = await server.call('/v1/client/me', { token: body.access_token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ errorCode: 'unauthorized', error: 'Invalid or expired token' });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    } finally {
      server.clock.set(start);
    }
  });
});
