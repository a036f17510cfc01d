import { describe, expect, it } from 'vitest';
import { expected, fixtures, get, orgRows, token } from './activity.fixtures.js';

describe('organization activity feed (CSV)', () => {
  const csv = (query = '', t = token) => get(query, t, { accept: 'text/csv' });
  const lines = (body: string) => body.trimEnd().split('\r\n');

  it('streams every matching entry newest first with a header row', async () => {
    const res = await csv();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = lines(res.body);
    expect(header).toBe('uid,createdAt,projectId,projectName,documentId,actorUid,actorName,actorEmail,action,title');
    expect(rows.map((r) => r.split(',')[0])).toEqual(expected());
    expect(rows).toContain(
      `act_edge_3,2026-06-02T00:00:00.000Z,${fixtures.projectA1.id},Pier 9 Terminal,doc_act_edge_3,usr_ann,Ann Architect,ann@harbor.test,file_uploaded,Entry act_edge_3`,
    );
  });

  it('applies the filters and the row cap, marking a cut export with the truncation row', async () => {
    const filtered = lines((await csv('action=email_sent&from=2026-05-21')).body).slice(1);
    expect(filtered.map((r) => r.split(',')[0])).toEqual(
      expected((r) => r.action === 'email_sent' && r.createdAt >= new Date('2026-05-21T00:00:00Z')),
    );
    const cut = lines((await csv('limit=5')).body);
    expect(cut).toHaveLength(7);
    expect(cut.slice(1, 6).map((r) => r.split(',')[0])).toEqual(expected().slice(0, 5));
    expect(cut[6]).toBe('# WARNING: truncated at 5 rows');
    const exact = lines((await csv(`limit=${orgRows.length}`)).body);
    expect(exact).toHaveLength(orgRows.length + 1);
  });

  it('clamps a row cap above 100000 (200) and rejects a non-positive one (400)', async () => {
    const clamped = await csv('limit=5000000');
    expect(clamped.status).toBe(200);
    expect(lines(clamped.body)).toHaveLength(orgRows.length + 1);
    expect((await csv('limit=0')).status).toBe(400);
    expect((await csv('from=2026-06-02&to=2026-06-01')).status).toBe(400);
  });

  it('limits a project-scoped key’s export to its projects', async () => {
    const projectKey = await fixtures.client(['organization:read'], {
      projects: [{ orgId: fixtures.orgA.id, projectId: fixtures.projectA2.id }],
    });
    const rows = lines((await csv('', projectKey.token)).body).slice(1);
    expect(rows.map((r) => r.split(',')[0])).toEqual(expected((r) => r.projectId === fixtures.projectA2.id));
  });
});
