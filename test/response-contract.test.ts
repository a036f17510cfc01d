import { describe, expect, it } from 'vitest';
import { f, server } from './fixture-server.js';
import { responseContract, suiteResponseContract } from './response-contract.js';

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
});
