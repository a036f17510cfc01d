import { describe, expect, it } from 'vitest';
import { f as fixtures, server } from './fixture-server.js';

describe('HTTP conventions', () => {
  it('answers health and readiness', async () => {
    const health = await server.request('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await server.request('/readyz');
    expect(ready.status).toBe(200);
  });

  it('returns a request id on every response, taken from the request when given', async () => {
    const generated = await server.request('/healthz');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await server.request('/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
  });

  it('answers an unknown route with a JSON 404', async () => {
    const res = await server.call('/v1/nothing-here', { headers: { 'x-request-id': 'r-404' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: 'No route for GET /v1/nothing-here',
      errorCode: 'not_found',
      requestId: 'r-404',
    });
  });

  it('answers an unsupported method on a known path with a JSON 405 and Allow', async () => {
    const res = await server.call('/healthz', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.body.errorCode).toBe('method_not_allowed');
  });

  it('answers malformed JSON with a 400 and no stack trace (in OAuth’s shape on the token endpoint)', async () => {
    const res = await server.call('/v1/client', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"client_id": ',
    });
    expect(res.status).toBe(400);
    const body = res.body;
    expect(body).toMatchObject({ error: 'Malformed JSON body', errorCode: 'invalid_json' });
    expect(JSON.stringify(body)).not.toMatch(/at \w+ \(/);
    const token = await server.call('/v1/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"client_id": ',
    });
    expect(token.status).toBe(400);
    expect(token.body).toEqual({ error: 'invalid_request', error_description: 'Malformed JSON body' });
  });

  it('answers an oversized body with a 413', async () => {
    const res = await server.call('/v1/client', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.body.errorCode).toBe('payload_too_large');
  });

  it('serves the OpenAPI document and the reference page', async () => {
    const doc = (await server.call('/v1/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/healthz'].get.operationId).toBe('health');
    const page = await server.request('/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/docs/init.js');
    expect(await (await server.request('/docs/init.js')).text()).toContain('/v1/openapi.json');
    const asset = await server.request('/docs/assets/swagger-ui-bundle.js');
    expect(asset.status).toBe(200);
  });

  it('names an unknown or bad query parameter in the 400', async () => {
    const key = await fixtures.client(['document:read'], { orgs: [fixtures.orgA.id] });
    const path = `/v1/organization/${fixtures.orgA.id}/project/${fixtures.projectA1.id}/document/submittals`;
    const unknown = await server.call(`${path}?bogus=1`, { token: key.token });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'Invalid query parameter: bogus', errorCode: 'validation_failed' });
    expect(unknown.body.details.map((d: { path: string }) => d.path)).toEqual(['bogus']);
    const tooLarge = await server.call(`${path}?limit=51`, { token: key.token });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.error).toBe('Invalid query parameter: limit');
  });
});
