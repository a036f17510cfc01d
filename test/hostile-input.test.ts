import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { f, server } from './fixture-server.js';
import type { ClientFixture, TestServer } from './harness.js';

let key: ClientFixture;

beforeAll(async () => {
  key = await f.client('all', { orgs: [f.orgA.id] });
});

const FORM = 'application/x-www-form-urlencoded';
const errorShape = { error: expect.any(String), errorCode: expect.any(String), requestId: expect.any(String) };

/** Sends raw bytes on a fresh connection and returns what came back (status line, headers, body). */
async function rawRequest(bytes: string): Promise<{ status: number; headers: string; body: string }> {
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  socket.write(bytes);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    received += chunk;
  });
  await new Promise((resolve) => socket.on('close', resolve));
  const [head = '', body = ''] = received.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head, body };
}

describe('NUL characters are refused at the edge with a 400', () => {
  const refused = async (path: string, init: Parameters<TestServer['call']>[1] = {}) => {
    const res = await server.call(path, { token: key.token, ...init });
    expect(res.status, path).toBe(400);
    expect(res.body).toEqual({ ...errorShape, errorCode: 'bad_request', details: expect.any(Array) });
    return res;
  };

  it('in a path parameter', async () => {
    const res = await refused('/v1/email/%00');
    expect(res.body.error).toBe('NUL characters are not accepted in the URL');
    await refused(`/v1/organization/${f.orgA.id}/project/abc%00def/comms`);
    await refused('/v1/commands/ping/%00', { method: 'POST', json: {}, headers: { 'idempotency-key': 'nul-1' } });
  });

  it('in a query value, on public and OAuth routes too', async () => {
    await refused('/v1/filed-emails/lookup?internetMessageId=%00');
    await refused(`/v1/organization/${f.orgA.id}/directory?search=a%00b`);
    await refused('/oauth/authorize?client_id=%00', { token: undefined });
    await refused('/v1/downloads/x/y.pdf?signature=%00', { token: undefined });
  });

  it('in a JSON string (value or key), but a literal backslash-u0000 text is accepted', async () => {
    const ping = (body: string, idempotencyKey: string) =>
      server.call('/v1/commands/ping/entity-1', {
        method: 'POST',
        token: key.token,
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body,
      });
    const nulValue = await ping('{"note":"a\\u0000b"}', 'nul-2');
    expect(nulValue.status).toBe(400);
    expect(nulValue.body).toMatchObject({ ...errorShape, error: 'NUL characters are not accepted in the body' });
    expect((await ping('{"no\\u0000te":"x"}', 'nul-3')).status).toBe(400);
    expect((await ping('{"note":"\\\\\\u0000"}', 'nul-4')).status).toBe(400);
    const literal = await ping('{"note":"a\\\\u0000b"}', 'nul-5');
    expect(literal.status).toBe(200);
    const created = await server.call('/v1/client', {
      method: 'POST',
      token: key.token,
      json: { name: 'key\u0000name', permissions: { 'document:read': true }, scopes: { orgs: [f.orgA.id] } },
    });
    expect(created.status).toBe(400);
    expect(created.body.errorCode).toBe('bad_request');
  });

  it('in a form body', async () => {
    const res = await server.call('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: 'grant_type=authorization_code&client_id=%00&code=x',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ...errorShape, errorCode: 'bad_request' });
  });

  it('in a form body only where forms are read: a JSON route and the OpenAPI document parse none', async () => {
    const form = (path: string) =>
      server.call(path, { method: 'POST', token: key.token, headers: { 'content-type': FORM }, body: 'name=a%00b' });
    const toJsonRoute = await form('/v1/client');
    expect(toJsonRoute.status).toBe(400);
    expect(toJsonRoute.body).toMatchObject({ errorCode: 'validation_failed' });
    expect(toJsonRoute.body.error).toMatch(/^Invalid body parameters: name, /);
    expect((await form('/v1/openapi.json')).body).toMatchObject({ ...errorShape, errorCode: 'method_not_allowed' });
  });

  it('refuses a JSON body in another charset than UTF-8 with a 415', async () => {
    const res = await server.call('/v1/commands/ping/entity-2', {
      method: 'POST',
      token: key.token,
      headers: { 'content-type': 'application/json; charset=utf-16le', 'idempotency-key': 'nul-6' },
      body: Buffer.from('{"note":"x"}', 'utf16le'),
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ ...errorShape, errorCode: 'unsupported_media_type' });
  });
});

describe('requests Node refuses before the app get the JSON error body', () => {
  it('a raw NUL in a header: 400', async () => {
    const res = await rawRequest('GET /healthz HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\0b\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toEqual({ ...errorShape, errorCode: 'bad_request' });
  });

  it('a malformed request line: 400', async () => {
    const res = await rawRequest('NOT A REQUEST\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ ...errorShape, error: 'Malformed HTTP request', errorCode: 'bad_request' });
  });

  it('an oversized header or URL: 431', async () => {
    const header = await server.call('/healthz', { headers: { 'x-filler': 'x'.repeat(20_000) } });
    expect(header.status).toBe(431);
    expect(header.body).toEqual({ ...errorShape, errorCode: 'header_too_large' });
    expect(header.headers.get('x-request-id')).toBe(header.body.requestId);
    const url = await server.call(`/healthz?${'q'.repeat(20_000)}`);
    expect(url.status).toBe(431);
    expect(url.body.errorCode).toBe('header_too_large');
  });

  it('keeps serving afterwards', async () => {
    expect((await server.call('/healthz')).status).toBe(200);
  });
});
