import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { f as fixtures, server } from '../../test/fixture-server.js';
import { projectMembers } from '../db/schema.js';
import { createUser } from '../users/service.js';

let token: string;
const a1Members: string[] = [];

// Names that differ before their first space keep the expected order the same under every collation.
const people = [
  { name: 'Zara Quinn', company: 'Quinn Surveying', title: 'Surveyor', phone: '+1 555 0101' },
  { name: 'bob Marsh', company: 'Marsh Concrete', title: 'Foreman' },
  { name: 'Bob Marsh', company: 'Marsh Concrete 100%', title: 'Owner' },
  { name: 'Carla Diaz', company: 'Harbor Construction', title: 'Project Manager' },
  { name: 'Dmitri Volkov', company: 'Volkov_Steel', title: 'Engineer' },
  { name: 'Eve Adams', company: null, title: null },
  ...Array.from({ length: 18 }, (_, i) => ({
    name: `Person${String.fromCharCode(97 + i)} Example`,
    company: i % 2 ? 'Example Electrical' : 'Example Plumbing',
    title: null,
  })),
];

beforeAll(async () => {
  token = (await fixtures.client(['organization:read'], { orgs: [fixtures.orgA.id] })).token;
  const db = server.database.db;
  for (const [i, person] of people.entries()) {
    const user = await createUser(db, {
      email: `person${i}@directory.test`,
      name: person.name,
      company: person.company ?? undefined,
      title: person.title ?? undefined,
      phone: 'phone' in person ? person.phone : undefined,
      memberships: [{ orgId: fixtures.orgA.id, role: 'member' }],
    });
    if (i % 4 === 0) {
      a1Members.push(user.id);
      await db.insert(projectMembers).values({
        organizationId: fixtures.orgA.id,
        projectId: fixtures.projectA1.id,
        userId: user.id,
        role: 'viewer',
      });
    }
  }
  await createUser(db, {
    email: 'stranger@ridgeline.test',
    name: 'Aaron Stranger',
    memberships: [{ orgId: fixtures.orgB.id, role: 'member' }],
  });
});

const get = (query = '', t = token) =>
  server.call(`/v1/organization/${fixtures.orgA.id}/directory${query ? `?${query}` : ''}`, { token: t });

interface Entry {
  uid: string;
  userId: string;
  name: string;
  email: string;
  company: string | null;
}

async function walk(query: string, t = token): Promise<Entry[]> {
  const seen: Entry[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const res = await get(cursor ? `${query}&cursor=${cursor}` : query, t);
    expect(res.status).toBe(200);
    seen.push(...res.body.data);
    if (!res.body.hasMore) return seen;
    cursor = res.body.nextCursor;
  }
  throw new Error('walk did not end');
}

describe('organization directory', () => {
  it('lists the organization’s people by name (case-insensitive), 20 per page by default', async () => {
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const all = await walk('limit=50');
    expect(all).toHaveLength(people.length + 2); // plus the fixtures' member and admin
    expect(all.some((e) => e.name === 'Aaron Stranger')).toBe(false);
    const names = all.map((e) => e.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(all[0]).toMatchObject({ name: 'Ada Admin', email: 'admin@harbor.test' });
    const zara = all.find((e) => e.name === 'Zara Quinn');
    expect(zara).toEqual({
      uid: expect.stringMatching(/^mem_/),
      userId: expect.stringMatching(/^usr_/),
      name: 'Zara Quinn',
      email: 'person0@directory.test',
      company: 'Quinn Surveying',
      phone: '+1 555 0101',
      title: 'Surveyor',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('walks to the end with any page size, no repeats or gaps, same order as one page', async () => {
    const reference = (await walk('limit=50')).map((e) => e.uid);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 50 }), async (limit) => {
        const seen = (await walk(`limit=${limit}`)).map((e) => e.uid);
        expect(seen).toEqual(reference);
      }),
      { numRuns: 12 },
    );
  });

  it('searches name, e-mail and company, case-insensitively, with literal wildcards', async () => {
    const names = async (search: string) =>
      (await walk(`limit=50&search=${encodeURIComponent(search)}`)).map((e) => e.name);
    expect(await names('MARSH')).toEqual(expect.arrayContaining(['bob Marsh', 'Bob Marsh']));
    expect(await names('MARSH')).toHaveLength(2);
    expect(await names('person0@directory')).toEqual(['Zara Quinn']);
    expect(await names('harbor construction')).toEqual(['Carla Diaz']);
    expect(await names('100%')).toEqual(['Bob Marsh']);
    expect(await names('volkov_')).toEqual(['Dmitri Volkov']);
    expect(await names('_')).toEqual(['Dmitri Volkov']);
    expect(await names('nobody-matches')).toEqual([]);
  });

  it('rejects bad parameter values', async () => {
    const cases: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=51', 'limit'],
      ['limit=x', 'limit'],
      [`search=${'a'.repeat(201)}`, 'search'],
      ['search=', 'search'],
    ];
    for (const [query, name] of cases) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toContain(name);
    }
    expect((await get('cursor=garbage')).status).toBe(400);
    const next = (await get('limit=2&search=example')).body.nextCursor;
    expect((await get(`limit=2&search=example&cursor=${next}`)).status).toBe(200);
    expect((await get(`limit=2&search=plumbing&cursor=${next}`)).status).toBe(400);
  });

  it('shows a project-scoped key only the members of its projects', async () => {
    const projectKey = await fixtures.client(['organization:read'], {
      projects: [{ orgId: fixtures.orgA.id, projectId: fixtures.projectA1.id }],
    });
    const seen = await walk('limit=50', projectKey.token);
    expect(seen.map((e) => e.userId).sort()).toEqual([...a1Members].sort());
    const otherProject = await fixtures.client(['organization:read'], {
      projects: [{ orgId: fixtures.orgA.id, projectId: fixtures.projectA2.id }],
    });
    expect((await get('', otherProject.token)).body.data).toEqual([]);
  });
});

describeAuthMatrix('directory', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/directory',
});
