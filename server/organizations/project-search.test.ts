import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import { createOrganization, createProject } from './service.js';

// The project picker's search (the add-in and the console) among 5,000 projects: words in any order, typos,
// accents and punctuation ignored, best match first, bounded pages, the caller's scope.

let orgId: string;
let token: string;
const named: Record<string, string> = {};

beforeAll(async () => {
  orgId = (await createOrganization(server.database.db, { name: 'Find Co' })).id;
  const projects: { name: string; code?: string; aliases?: string[] }[] = [
    { name: 'Riverside Medical Phase 2', code: 'RMP-2' },
    { name: 'Riverside Medical Phase 1' },
    { name: 'Phase 2 Parking Deck' },
    { name: 'RMP 2 Survey' },
    { name: 'Granite Fire Hall', code: '3301' },
    { name: 'Granite Street Bridge' },
    { name: 'Pier 9 Terminal' },
    { name: 'Pier 19 Warehouse' },
    { name: 'St Mary’s Church Façade' },
    { name: 'St. Mark’s Hall' },
    { name: 'Façade Renewal – Ærø House' },
    { name: 'Lakeshore Public Library', aliases: ['Old Town Books'] },
    { name: 'Harbour Tower', code: '47110' },
  ];
  for (const p of projects) {
    named[p.name] = (await createProject(server.database.db, { organizationId: orgId, aliases: [], ...p })).id;
  }
  // 5,000 more, as an organization of that size has them.
  await server.database.db.execute(
    sql`insert into projects (id, organization_id, name, code)
        select 'prj_fill_' || n, ${orgId}, 'Filler ' || n || ' Block', 'F-' || n from generate_series(1, 5000) n`,
  );
  await server.database.db.execute(sql`analyze projects`);
  token = (await f.client(['project:read'], { orgs: [orgId] })).token;
});

const search = (query: string, as = token) => server.call(`/v1/organization/${orgId}/project?${query}`, { token: as });

const found = async (text: string, as = token) => {
  const res = await search(`search=${encodeURIComponent(text)}`, as);
  expect(res.status, text).toBe(200);
  return res.body.data.map((p: { name: string }) => p.name) as string[];
};

describe('project search', () => {
  it('matches words in any order', async () => {
    expect(await found('riverside phase 2')).toEqual(['Riverside Medical Phase 2']);
    expect(await found('phase 2 riverside')).toEqual(['Riverside Medical Phase 2']);
    expect((await found('granite fire'))[0]).toBe('Granite Fire Hall');
    expect(await found('hall fire')).toEqual(['Granite Fire Hall']);
  });

  it('tolerates a typo in a word', async () => {
    expect(await found('grnite fire')).toEqual(['Granite Fire Hall']);
    expect(await found('granit hall')).toEqual(['Granite Fire Hall']);
    expect(await found('riversde medcal phase 1')).toEqual(['Riverside Medical Phase 1']);
    // Numbers are never "misspelt": job number 47111 is not 47110.
    expect(await found('47110')).toEqual(['Harbour Tower']);
    expect(await found('47111')).toEqual([]);
  });

  it('ignores accents, apostrophes and the space between letters and digits', async () => {
    const pier = await found('pier9');
    expect(pier[0]).toBe('Pier 9 Terminal');
    // "St. Mark’s" is one letter off: after the exact words, as a typo would be.
    expect(await found('st marys')).toEqual(['St Mary’s Church Façade', 'St. Mark’s Hall']);
    expect((await found("St. Mary's"))[0]).toBe('St Mary’s Church Façade');
    expect(await found('facade')).toEqual(['Façade Renewal – Ærø House', 'St Mary’s Church Façade']);
    expect(await found('FAÇADE aero')).toEqual(['Façade Renewal – Ærø House']);
    expect(await found('old-town books')).toEqual(['Lakeshore Public Library']);
  });

  it('ranks the exact code first, then names and codes starting with the text', async () => {
    expect((await found('rmp-2')).slice(0, 2)).toEqual(['Riverside Medical Phase 2', 'RMP 2 Survey']);
    expect((await found('3301'))[0]).toBe('Granite Fire Hall');
    expect((await found('F-4711'))[0]).toBe('Filler 4711 Block');
    expect((await found('pier'))[0]).toMatch(/^Pier/);
  });

  it('answers bounded pages that continue in rank order', async () => {
    const first = await search('search=filler&limit=50');
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(first.body.data).toHaveLength(50);
    const second = await search(`search=filler&limit=50&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect(second.body.data).toHaveLength(50);
    const ids = [...first.body.data, ...second.body.data].map((p: { id: string }) => p.id);
    expect(new Set(ids).size).toBe(100);
    expect((await search('search=filler')).body.data).toHaveLength(25);
  });

  it('finds nothing for a text that is only punctuation, and nothing unrelated', async () => {
    expect(await found('—!?')).toEqual([]);
    expect(await found('zzyzx quokka')).toEqual([]);
  });

  it('keeps to the caller’s scope', async () => {
    const narrow = await f.client(['project:read'], {
      projects: [{ orgId, projectId: named['Granite Street Bridge']! }],
    });
    expect(await found('granite', narrow.token)).toEqual(['Granite Street Bridge']);
    // A member of another organization reaches none of it.
    const res = await search('search=granite', f.member.token);
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain('Granite');
  });

  it('rejects bad input (400)', async () => {
    const other = await search('search=filler&limit=2');
    for (const query of [
      'search=',
      `search=${'x'.repeat(201)}`,
      'search=filler&limit=51',
      'search=filler&limit=0',
      `search=granite&cursor=${other.body.nextCursor}`,
      `cursor=${other.body.nextCursor}`,
      'search=filler&cursor=forged.cursor',
    ]) {
      const res = await search(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toEqual(expect.any(String));
    }
  });
});
