import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { startInstance } from '../../test/fixture-server.js';
import { requestUsage } from '../db/schema.js';
import { f, server } from './api-keys.fixtures.js';

describe('GET /v1/client/me', () => {
  it('carries the key’s usage summary', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    await server.call(`/v1/organization/${f.orgA.id}/project`, { token: key.token });
    await server.call(`/v1/organization/${f.orgA.id}/project`, { token: key.token });
    const res = await server.call('/v1/client/me', { token: key.token });
    expect(res.body.usageSummary).toMatchObject({
      totalRequests: 2,
      endpoints: [{ endpoint: 'GET /v1/organization/:orgId/project', count: 2 }],
    });
  });
});

describe('usage counters on shutdown', () => {
  it('are written to the database when an instance shuts down gracefully', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const instance = await startInstance();
    for (let i = 0; i < 3; i++) {
      expect((await instance.call(`/v1/organization/${f.orgA.id}`, { token: key.token })).status).toBe(200);
    }
    await instance.close();
    const after = await server.database.db.select().from(requestUsage).where(eq(requestUsage.clientRowId, key.id));
    expect(after.map((r) => [r.endpoint, r.count])).toEqual([['GET /v1/organization/:orgId', 3]]);
    // Another instance reads the written counts.
    const detail = await server.call(`/v1/admin/clients/${key.id}`, { token: f.staff.token });
    expect(detail.body.usageSummary).toMatchObject({ totalRequests: 3 });
  });
});
