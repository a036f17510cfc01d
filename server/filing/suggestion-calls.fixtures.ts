// The two calls the suggestion tests make against the file's test server (test/fixture-server.ts): file an e-mail
// as the member of organization A, and ask for suggestions as that member.
import { expect } from 'vitest';
import { f, server } from '../../test/fixture-server.js';

/** Files an e-mail (the JSON form) to `projectId` of organization A, addressed to the member unless `json` says;
 *  a 201 is expected. */
export const fileEmail = async (projectId: string, json: Record<string, unknown>) => {
  const res = await server.call(`/v1/organization/${f.orgA.id}/project/${projectId}/emails`, {
    method: 'POST',
    token: f.member.token,
    json: { to: ['member@harbor.test'], ...json },
  });
  expect(res.status).toBe(201);
  return res;
};

/** The member's suggestions for an e-mail addressed to them unless `json` says; a 200 is expected. */
export const suggest = async (json: Record<string, unknown>) => {
  const res = await server.call('/v1/filing/suggestions', {
    method: 'POST',
    token: f.member.token,
    json: { to: [{ address: 'member@harbor.test' }], cc: [], attachmentNames: [], ...json },
  });
  expect(res.status).toBe(200);
  return res.body.suggestions as { projectId: string; projectName: string; score: number; reasons: string[] }[];
};
