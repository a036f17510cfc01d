import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { requestUsage } from '../db/schema.js';
import { createAs, ctx, exchange, f, server } from './api-keys.fixtures.js';

describeAuthMatrix('clients', ctx, {
  method: 'GET',
  path: '/v1/client',
  expectOk: (res) => {
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], nextCursor: null, hasMore: false });
  },
});

describe('GET /v1/client', () => {
  it('lists the keys this key created, newest first, in pages, with their usage', async () => {
    const parent = await f.client(['client:create', 'client:read', 'project:read'], { orgs: [f.orgA.id] });
    const bystander = await f.client(['client:create', 'client:read', 'project:read'], { orgs: [f.orgA.id] });
    const children = [];
    for (const name of ['first', 'second', 'third']) {
      const res = await createAs(parent.token, {
        name,
        permissions: { 'project:read': true },
        scopes: { orgs: [f.orgA.id] },
      });
      children.push(res.body);
    }
    await createAs(bystander.token, { name: 'not mine', permissions: { 'project:read': true } });

    const child = children[0];
    const childToken = (await exchange(child.clientId, child.client_secret)).body.access_token;
    await server.call(`/v1/organization/${f.orgA.id}/project`, { token: childToken });
    await server.call(`/v1/organizations/${f.orgA.id}/projects`, { token: childToken });
    await server.call(`/v1/organization/${f.orgA.id}/project?limit=0`, { token: childToken });
    await server.call('/v1/client/me', { token: childToken });

    const page1 = await server.call('/v1/client?limit=2', { token: parent.token });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((c: { name: string }) => c.name)).toEqual(['third', 'second']);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await server.call(`/v1/client?limit=2&cursor=${page1.body.nextCursor}`, { token: parent.token });
    expect(page2.body).toMatchObject({ nextCursor: null, hasMore: false });
    expect(page2.body.data.map((c: { name: string }) => c.name)).toEqual(['first']);

    const summary = page2.body.data[0].usageSummary;
    expect(summary.totalRequests).toBe(4);
    expect(summary.endpoints).toEqual([
      { endpoint: 'GET /v1/organization/:orgId/project', count: 3, averageResponseTimeMs: expect.any(Number) },
      { endpoint: 'GET /v1/client/me', count: 1, averageResponseTimeMs: expect.any(Number) },
    ]);
    expect(page1.body.data[0].usageSummary).toEqual({ totalRequests: 0, endpoints: [] });
    for (const c of [...page1.body.data, ...page2.body.data]) expect(c).not.toHaveProperty('client_secret');

    // Flushed to the database in one batch, the summary does not change (nothing counted twice).
    await server.app.context.usage.flush();
    const rows = await server.database.db.select().from(requestUsage).where(eq(requestUsage.clientRowId, child.id));
    expect(rows.map((r) => [r.endpoint, r.count]).sort()).toEqual([
      ['GET /v1/client/me', 1],
      ['GET /v1/organization/:orgId/project', 3],
    ]);
    const again = await server.call(`/v1/client?limit=2&cursor=${page1.body.nextCursor}`, { token: parent.token });
    expect(again.body.data[0].usageSummary).toEqual(summary);

    // A cursor belongs to one key's list.
    const foreign = await server.call(`/v1/client?cursor=${page1.body.nextCursor}`, { token: bystander.token });
    expect(foreign.status).toBe(400);
  });

  it('bounds the page size and rejects garbage cursors (400)', async () => {
    const key = await f.client(['client:read'], { orgs: [f.orgA.id] });
    for (const query of ['limit=0', 'limit=51', 'limit=abc', 'cursor=%%%garbage']) {
      const res = await server.call(`/v1/client?${query}`, { token: key.token });
      expect(res.status, query).toBe(400);
    }
  });
});
