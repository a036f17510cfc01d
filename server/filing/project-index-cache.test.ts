import { beforeAll, describe, expect, it } from 'vitest';
import { f, server as first, startInstance } from '../../test/fixture-server.js';
import type { TestServer } from '../../test/harness.js';
import { createProject, updateProject } from '../organizations/service.js';

// Two instances over one database: each keeps its own index of the organization's project names.
let second: TestServer;

beforeAll(async () => {
  second = await startInstance();
});

const suggest = async (server: TestServer, subject: string) => {
  const res = await server.call('/v1/filing/suggestions', {
    method: 'POST',
    token: f.member.token,
    json: { subject, from: 'someone@new-firm.test', to: [{ address: 'member@harbor.test' }], bodyPreview: '' },
  });
  expect(res.status).toBe(200);
  return res.body.suggestions.map((s: { projectName: string }) => s.projectName) as string[];
};

describe('project names in suggestions stay current', () => {
  it('suggests a project by its new name, alias or code on the next request, whichever instance changed it', async () => {
    // Both instances have indexed the organization's projects.
    expect(await suggest(first, 'Pier 9 Terminal – crane pads')).toEqual(['Pier 9 Terminal']);
    expect(await suggest(second, 'Harbourfront Pavilion – crane pads')).toEqual([]);

    // Renamed through the API of one instance: the other matches the new name, and no longer the old one.
    const renamed = await second.call(`/v1/organization/${f.orgA.id}/project/${f.projectA1.id}`, {
      method: 'PATCH',
      token: f.admin.token,
      json: { name: 'Harbourfront Pavilion' },
    });
    expect(renamed.status).toBe(200);
    expect(await suggest(first, 'Harbourfront Pavilion – crane pads')).toEqual(['Harbourfront Pavilion']);
    expect(await suggest(first, 'Pier 9 Terminal – crane pads')).toEqual([]);

    // Given an alias and a code outside the server (as the CLI does, straight in the database).
    await updateProject(
      first.database.db,
      { organizationId: f.orgA.id, projectId: f.projectA2.id },
      { aliases: ['Old Ferry Shed'], code: '7731' },
    );
    expect(await suggest(first, 'Old Ferry Shed – door schedule')).toEqual(['Dockside Offices']);
    expect(await suggest(second, 'Job 7731 – door schedule')).toEqual(['Dockside Offices']);

    // A new project is suggested at once on both instances.
    await createProject(first.database.db, { organizationId: f.orgA.id, name: 'Kestrel Yard Depot' });
    for (const server of [first, second])
      expect(await suggest(server, 'Kestrel Yard – access road')).toEqual(['Kestrel Yard Depot']);
  });
});
