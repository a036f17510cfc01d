// The requests the client tests share, over one server with the standard fixtures per test file
// (test/fixture-server.ts: importing this module starts it).
import { server } from '../../test/fixture-server.js';

export { ctx, f, server } from '../../test/fixture-server.js';

export const exchange = (clientId: string, secret: string) =>
  server.call('/v1/oauth/token', { method: 'POST', json: { client_id: clientId, client_secret: secret } });

export const form = (fields: Record<string, string>) =>
  server.call('/v1/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

export const createAs = (token: string, json: unknown) => server.call('/v1/client', { method: 'POST', token, json });
