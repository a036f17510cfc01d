// The two calls the suggestion tests make against the file's test server (test/fixture-server.ts): file an e-mail
// as the member of organization A, and ask for suggestions as that member.
import { expect } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import { AI_ASK_BELOW } from './service.js';

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

/** Both projects offered first and second, in either order, and the first below `bar` (by default the AI's: the
 *  e-mail is in doubt, and the AI, where the organization allows it, reads it; LIKELY_SCORE: not preselected). */
export const expectOfferedInDoubt = (
  suggestions: { projectName: string; score: number }[],
  names: string[],
  bar = AI_ASK_BELOW,
) => {
  expect(
    suggestions
      .slice(0, 2)
      .map((s) => s.projectName)
      .sort(),
  ).toEqual([...names].sort());
  expect(suggestions[0]!.score).toBeLessThan(bar);
};
