import { beforeAll, describe, expect, it } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import type { ClientFixture } from '../../test/harness.js';

let key: ClientFixture;

beforeAll(async () => {
  key = await f.client(['client:read'], { orgs: [f.orgA.id] });
});

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

const post = (init: { authorization?: string; form?: Record<string, string>; json?: unknown }) =>
  server.call('/v1/oauth/token', {
    method: 'POST',
    headers: {
      ...(init.authorization ? { authorization: init.authorization } : {}),
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    ...(init.json !== undefined ? { json: init.json } : {}),
  });

describe('POST /v1/oauth/token: HTTP Basic client authentication and OAuth-shaped failures', () => {
  it('accepts client_secret_basic with the OAuth form, as OAuth libraries send it by default', async () => {
    const res = await post({
      authorization: basic(key.clientId, key.secret),
      form: { grant_type: 'client_credentials' },
    });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('Bearer');
    expect((await server.call('/v1/client/me', { token: res.body.access_token })).body.id).toBe(key.id);
  });

  it('answers a wrong Basic secret 401 invalid_client with WWW-Authenticate: Basic', async () => {
    const res = await post({ authorization: basic(key.clientId, 'wrong'), form: { grant_type: 'client_credentials' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_client', error_description: 'Invalid client credentials' });
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it('refuses two authentication methods at once, and a malformed Basic header, with invalid_request', async () => {
    const both = await post({
      authorization: basic(key.clientId, key.secret),
      form: { grant_type: 'client_credentials', client_secret: key.secret },
    });
    expect(both.status).toBe(400);
    expect(both.body.error).toBe('invalid_request');
    const malformed = await post({ authorization: 'Basic !!!', form: { grant_type: 'client_credentials' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      error: 'invalid_request',
      error_description: 'The Basic authorization header is malformed.',
    });
  });

  it('answers every malformed request in OAuth’s shape, never the API error shape', async () => {
    // A body against its content type's declared schema (JSON or form) is refused naming the field.
    const cases: { init: Parameters<typeof post>[0]; description: string }[] = [
      { init: { json: { client_id: key.clientId } }, description: 'client_secret is required.' },
      { init: { json: { client_id: 5, client_secret: 'x' } }, description: 'Invalid body parameter: client_id' },
      {
        init: { json: { client_id: 'x'.repeat(201), client_secret: 'x' } },
        description: 'Invalid body parameter: client_id',
      },
      {
        init: { form: { grant_type: 'client_credentials', client_id: 'x'.repeat(201), client_secret: 'x' } },
        description: 'Invalid body parameter: client_id',
      },
      {
        init: { form: { client_id: key.clientId, client_secret: key.secret } },
        description: 'Invalid body parameter: grant_type',
      },
      { init: { json: [] }, description: 'Invalid body parameter: body' },
    ];
    for (const { init, description } of cases) {
      const res = await post(init);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_request', error_description: description });
    }
    const grant = await post({ form: { grant_type: 'password', client_id: key.clientId, client_secret: key.secret } });
    expect(grant.body.error).toBe('unsupported_grant_type');
  });
});
