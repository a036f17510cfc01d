import { expect } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { ctx, f, server } from '../../test/fixture-server.js';

/** Organization A has a token (made by its admin), for the cases that revoke it. */
const withToken = async () => {
  await server.call(`/v1/organization/${f.orgA.id}/scim-token`, { method: 'POST', token: f.admin.token });
  return {};
};

describeAuthMatrix('SCIM token', ctx, { method: 'GET', path: '/v1/organization/{orgId}/scim-token' });
describeAuthMatrix('make the SCIM token', ctx, {
  method: 'POST',
  path: '/v1/organization/{orgId}/scim-token',
  expectOk: (res) => expect(res.status).toBe(201),
});
describeAuthMatrix('revoke the SCIM token', ctx, {
  method: 'DELETE',
  path: '/v1/organization/{orgId}/scim-token',
  vars: withToken,
  expectOk: (res) => expect(res.status).toBe(204),
});
