import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { f as fixtures, server } from '../../test/fixture-server.js';
import { reportAttendees, reportDistribution, reportSections, reports } from '../db/schema.js';

let token: string;
const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

type NewReport = typeof reports.$inferInsert;

beforeAll(async () => {
  token = (await fixtures.client(['document:read'], { orgs: [fixtures.orgA.id] })).token;
  const db = server.database.db;
  const pdfKey = (await server.app.context.blobs.put(pdf)).key;
  const report = (id: string, minutes: number, over: Partial<NewReport> = {}): NewReport => ({
    id,
    organizationId: fixtures.orgA.id,
    projectId: fixtures.projectA1.id,
    seriesId: `ser_${id}`,
    reportKind: 'site-report',
    status: 'issued',
    title: `Report ${id}`,
    date: new Date('2026-08-01T07:00:00Z'),
    version: '1',
    isLatestVersion: true,
    createdAt: new Date(Date.parse('2026-08-01T12:00:00Z') + minutes * 60_000),
    createdByName: 'Carla Diaz',
    ...over,
  });
  await db.insert(reports).values([
    report('rep_daily_v1', 0, { seriesId: 'ser_daily', version: '1', isLatestVersion: false, status: 'issued' }),
    report('rep_daily_v2', 10, {
      seriesId: 'ser_daily',
      version: '2',
      title: 'Daily report 14/08: level 3',
      location: 'Level 3, grid C-D',
      observations: 'Formwork complete',
      weather: 'Dry, 18 °C',
      issuedAt: new Date('2026-08-01T13:00:00Z'),
      issuedByName: 'Carla Diaz',
      pdfBlobKey: pdfKey,
    }),
    report('rep_minutes', 20, { reportKind: 'meeting-minutes', status: 'draft' }),
    report('rep_minutes_2', 30, { reportKind: 'meeting-minutes', status: 'issued' }),
    report('rep_site_draft', 40, { status: 'draft' }),
    report('rep_a2', 50, { projectId: fixtures.projectA2.id }),
    report('rep_b1', 60, { organizationId: fixtures.orgB.id, projectId: fixtures.projectB1.id }),
  ]);
  await db.insert(reportSections).values([
    {
      id: 'sec_2',
      organizationId: fixtures.orgA.id,
      reportId: 'rep_daily_v2',
      position: 2,
      title: 'Safety',
      items: [{ text: 'Edge protection checked', status: 'ok' }],
    },
    {
      id: 'sec_1',
      organizationId: fixtures.orgA.id,
      reportId: 'rep_daily_v2',
      position: 1,
      title: 'Progress',
      items: [{ text: 'Slab poured' }, { text: 'Rebar delivered' }],
    },
    { id: 'sec_m', organizationId: fixtures.orgA.id, reportId: 'rep_minutes', position: 1, title: 'Agenda', items: [] },
  ]);
  await db.insert(reportAttendees).values({
    id: 'att_1',
    organizationId: fixtures.orgA.id,
    reportId: 'rep_daily_v2',
    name: 'Bob Marsh',
    company: 'Marsh Concrete',
    role: 'Foreman',
    present: true,
  });
  await db.insert(reportDistribution).values({
    id: 'dist_1',
    organizationId: fixtures.orgA.id,
    reportId: 'rep_daily_v2',
    userId: fixtures.member.id,
    name: 'Mia Member',
    email: 'member@harbor.test',
  });
});

const projectPath = (projectId = fixtures.projectA1.id, orgId = fixtures.orgA.id) =>
  `/v1/organization/${orgId}/project/${projectId}/reports`;
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

describe('report detail', () => {
  it('returns the full report with sections, attendees, distribution and counts', async () => {
    const res = await server.call(`${projectPath()}/rep_daily_v2`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      uid: 'rep_daily_v2',
      type: 'report',
      format: 'report',
      reportKind: 'site-report',
      status: 'issued',
      title: 'Daily report 14/08: level 3',
      date: '2026-08-01T07:00:00.000Z',
      location: 'Level 3, grid C-D',
      version: '2',
      isLatestVersion: true,
      createdAt: '2026-08-01T12:10:00.000Z',
      createdByName: 'Carla Diaz',
      projectId: fixtures.projectA1.id,
      projectName: 'Pier 9 Terminal',
      organizationId: fixtures.orgA.id,
      organizationName: 'Harbor Construction',
      sectionCount: 2,
      itemCount: 3,
      observations: 'Formwork complete',
      weather: 'Dry, 18 °C',
      issuedAt: '2026-08-01T13:00:00.000Z',
      issuedByName: 'Carla Diaz',
    });
    expect(res.body.sections.map((s: { title: string }) => s.title)).toEqual(['Progress', 'Safety']);
    expect(res.body.sections[1]).toEqual({
      uid: 'sec_2',
      position: 2,
      title: 'Safety',
      items: [{ text: 'Edge protection checked', status: 'ok' }],
    });
    expect(res.body.attendees).toEqual([
      { uid: 'att_1', name: 'Bob Marsh', company: 'Marsh Concrete', role: 'Foreman', present: true },
    ]);
    expect(res.body.distributionUsers).toEqual([
      { uid: 'dist_1', userId: fixtures.member.id, name: 'Mia Member', email: 'member@harbor.test' },
    ]);
  });

  it('gives a signed PDF download URL that works without a token until it expires', async () => {
    const res = await server.call(`${projectPath()}/rep_daily_v2`, { token });
    const { downloadUrl, downloadUrlExpiresAt } = res.body;
    expect(downloadUrl.startsWith(`${server.config.publicUrl}/v1/downloads/`)).toBe(true);
    const download = await server.request(pathOf(downloadUrl));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe(
      'attachment; filename="Daily report 14 08 level 3 v2.pdf"',
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
    const tampered = downloadUrl.replace('type=application%2Fpdf', 'type=text%2Fhtml');
    expect((await server.request(pathOf(tampered))).status).toBe(403);
    server.clock.set(new Date(Date.parse(downloadUrlExpiresAt) + 1000));
    expect((await server.request(pathOf(downloadUrl))).status).toBe(403);
  });

  it('has no download URL while the report has no PDF', async () => {
    const res = await server.call(`${projectPath()}/rep_minutes`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ downloadUrl: null, downloadUrlExpiresAt: null, sectionCount: 1, itemCount: 0 });
    expect(res.body.attendees).toEqual([]);
  });

  it('answers 404 for a report of another project or organization, or no report', async () => {
    for (const id of ['rep_a2', 'rep_b1', 'rep_none']) {
      const res = await server.call(`${projectPath()}/${id}`, { token });
      expect(res.status, id).toBe(404);
      expect(res.body.errorCode).toBe('not_found');
    }
    const otherOrgPath = await server.call(`${projectPath(fixtures.projectB1.id)}/rep_b1`, { token });
    expect(otherOrgPath.status).toBe(404);
  });
});

describe('report list', () => {
  it('lists every version newest first, with counts and download URLs', async () => {
    const res = await server.call(projectPath(), { token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { uid: string }) => r.uid)).toEqual([
      'rep_site_draft',
      'rep_minutes_2',
      'rep_minutes',
      'rep_daily_v2',
      'rep_daily_v1',
    ]);
    const daily = res.body.data[3];
    expect(daily).toMatchObject({ sectionCount: 2, itemCount: 3, isLatestVersion: true });
    expect(daily.downloadUrl).toMatch(/\/v1\/downloads\//);
    expect(daily.sections).toBeUndefined();
  });

  it('pages with a cursor and rejects bad values', async () => {
    const first = await server.call(`${projectPath()}?limit=2`, { token });
    expect(first.body.hasMore).toBe(true);
    const second = await server.call(`${projectPath()}?limit=2&cursor=${first.body.nextCursor}`, { token });
    const third = await server.call(`${projectPath()}?limit=2&cursor=${second.body.nextCursor}`, { token });
    expect([...first.body.data, ...second.body.data, ...third.body.data].map((r: { uid: string }) => r.uid)).toEqual([
      'rep_site_draft',
      'rep_minutes_2',
      'rep_minutes',
      'rep_daily_v2',
      'rep_daily_v1',
    ]);
    expect(third.body).toMatchObject({ hasMore: false, nextCursor: null });
    for (const query of ['limit=0', 'limit=51', 'limit=x', 'cursor=bogus']) {
      expect((await server.call(`${projectPath()}?${query}`, { token })).status, query).toBe(400);
    }
    const a2Cursor = first.body.nextCursor;
    expect((await server.call(`${projectPath(fixtures.projectA2.id)}?cursor=${a2Cursor}`, { token })).status).toBe(400);
  });
});

describe('admin report summary', () => {
  const summaryPath = (orgId: string) => `/v1/admin/organizations/${orgId}/report-summary`;

  it('counts the latest versions by kind, status and both', async () => {
    const res = await server.call(summaryPath(fixtures.orgA.id), { token: fixtures.staff.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        organizationId: fixtures.orgA.id,
        total: 5,
        byType: [
          { type: 'site-report', count: 3 },
          { type: 'meeting-minutes', count: 2 },
        ],
        byStatus: [
          { status: 'issued', count: 3 },
          { status: 'draft', count: 2 },
        ],
        byTypeAndStatus: [
          { type: 'site-report', status: 'issued', count: 2 },
          { type: 'meeting-minutes', status: 'draft', count: 1 },
          { type: 'meeting-minutes', status: 'issued', count: 1 },
          { type: 'site-report', status: 'draft', count: 1 },
        ],
        latestVersionsOnly: true,
      },
    });
  });

  it('answers an organization without reports with zeros, and an unknown one with 404', async () => {
    const empty = await server.call(summaryPath(fixtures.orgB.id), { token: fixtures.staff.token });
    expect(empty.body.data).toMatchObject({ total: 1, byType: [{ type: 'site-report', count: 1 }] });
    const missing = await server.call(summaryPath('org_missing'), { token: fixtures.staff.token });
    expect(missing.status).toBe(404);
  });
});

describeAuthMatrix('report detail', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/reports/rep_daily_v2',
});

describeAuthMatrix('report list', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/reports',
});

describeAuthMatrix('report summary', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/admin/organizations/{orgId}/report-summary',
});
