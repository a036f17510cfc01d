import { describe, expect, it } from 'vitest';
import { f, server } from './fixture-server.js';
import { keepsScimContract, responseContract, suiteResponseContract } from './response-contract.js';

describe('the response contract check in the harness', () => {
  it('passes a real answer and names the mismatch when the declared schema is wrong', async () => {
    const res = await server.call('/v1/me', { token: f.member.token });
    expect(res.status).toBe(200);
    const url = `${server.url}/v1/me`;
    expect(suiteResponseContract().check('GET', url, 200, res.body)).toBeUndefined();

    // The same answer against a document that declares a field the answer lacks: the check fails.
    const wrong = responseContract({
      components: { schemas: { Health: { type: 'object', required: ['uptimeDays'] } } },
      paths: {
        '/v1/me': {
          get: {
            responses: {
              200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } } },
            },
          },
        },
      },
    });
    expect(wrong.check('GET', url, 200, res.body)).toMatch(/GET \/v1\/me → 200: .*uptimeDays/);
    expect(wrong.check('GET', url, 201, res.body)).toMatch(/status not documented/);
  });

  it('matches literal path segments before parameters and the plural aliases to their singular paths', () => {
    const contract = suiteResponseContract();
    expect(contract.check('PATCH', 'http://x/v1/organizations/o1/projects/p1', 200, 'not an object')).toMatch(
      /PATCH \/v1\/organization\/\{orgId\}\/project\/\{projectId\} → 200/,
    );
    expect(contract.check('GET', 'http://x/not-api', 200, {})).toBeUndefined();
  });

  it('checks SCIM answers, errors too, against the document and names the mismatch when a declaration is wrong', async () => {
    const minted = await server.call(`/v1/organization/${f.orgA.id}/scim-token`, {
      method: 'POST',
      token: f.admin.token,
    });
    const scim = async (path: string, token?: string) => {
      const res = await fetch(`${server.url}/scim/v2${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      return { res, body: await res.json() };
    };
    const list = await scim('/Users?count=1', minted.body.data.token);
    const refused = await scim('/Users');
    expect([list.res.status, refused.res.status]).toEqual([200, 401]);
    expect(() => keepsScimContract('GET', list.res, list.body)).not.toThrow();
    expect(() => keepsScimContract('GET', refused.res, refused.body)).not.toThrow();

    // A document that declares `status` as a number (not RFC 7644's string) and a page without `Resources`.
    const wrong = responseContract({
      components: {
        schemas: {
          Error: { type: 'object', properties: { status: { type: 'integer' } } },
          Page: { type: 'object', required: ['Resources'], properties: { Resources: { type: 'integer' } } },
        },
      },
      paths: {
        '/scim/v2/Users': {
          get: {
            responses: {
              200: { content: { 'application/scim+json': { schema: { $ref: '#/components/schemas/Page' } } } },
              401: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
            },
          },
        },
      },
    });
    expect(() => keepsScimContract('GET', list.res, list.body, wrong)).toThrow(
      /GET \/scim\/v2\/Users → 200: .*Resources must be integer/,
    );
    expect(() => keepsScimContract('GET', refused.res, refused.body, wrong)).toThrow(
      /→ 401: a application\/scim\+json body where the document declares none/,
    );
    const asJson = new Response(null, { headers: { 'content-type': 'application/json' } });
    expect(() =>
      keepsScimContract('GET', { url: list.res.url, status: 200, headers: asJson.headers }, list.body),
    ).toThrow(/answered as application\/json, not application\/scim\+json/);
  });
});
