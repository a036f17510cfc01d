import { describe, expect, it } from 'vitest';
import { buildDocuments, type FixtureDocument, insertDocuments } from './documents.fixtures.js';
import { expectedUids, fixtures, get, server, token } from './submittals.fixtures.js';

describe('GET …/document/submittals', () => {
  describe('CSV', () => {
    const csv = (params: Record<string, string | number | undefined>) =>
      get(params, { headers: { accept: 'text/csv' } });

    it('streams every filtered row with a header, quoting and a file name', async () => {
      const res = await csv({ 'filter.open': 'true' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="submittals-${fixtures.projectA1.id}.csv"`,
      );
      const lines = (res.body as string).split('\r\n').filter(Boolean);
      expect(lines[0]).toBe(
        'uid,id,referenceNumber,title,format,type,status,reviewStatus,priority,divisionTitle,dueDate,receivedAt,issuedAt,closedAt,createdAt,updatedAt,projectId,projectName,organizationId,organizationName,ballInCourt,assignees,approvers,distributionRecipients,consultants,activityCount',
      );
      expect(lines).toHaveLength(1 + expectedUids({ open: true }).length);
      expect(res.body).toContain('Site Office <site@harbor.test>');
      expect(res.body).not.toContain('WARNING');
    });

    it('neutralises formulas and quotes commas and quotes', async () => {
      const { orgA, projectA2 } = fixtures;
      const [evil, quoted] = buildDocuments({
        organizationId: orgA.id,
        projectId: projectA2.id,
        count: 2,
        seed: 5,
        prefix: 'csv',
      });
      await insertDocuments(server.database.db, [
        { ...(evil as FixtureDocument), title: '=HYPERLINK("http://evil.test","x")', divisionTitle: '@SUM(1)' },
        { ...(quoted as FixtureDocument), title: 'Steel, "grade" 50', divisionTitle: '-2+3' },
      ]);
      const res = await server.call(
        `/v1/organization/${orgA.id}/project/${projectA2.id}/document/submittals?search=csv`,
        { token, headers: { accept: 'text/csv' } },
      );
      expect(res.status).toBe(200);
      expect(res.body).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
      expect(res.body).toContain(",'@SUM(1),");
      expect(res.body).toContain(',"Steel, ""grade"" 50",');
      expect(res.body).toContain(",'-2+3,");
    });

    it('cuts at limit with a final truncation row; clamps a huge limit and still answers 200', async () => {
      const cut = await csv({ limit: 7 });
      const lines = (cut.body as string).split('\r\n').filter(Boolean);
      expect(lines).toHaveLength(1 + 7 + 1);
      expect(lines.at(-1)).toBe('# WARNING: truncated at 7 rows');
      const clamped = await csv({ limit: 5_000_000 });
      expect(clamped.status).toBe(200);
      expect((clamped.body as string).split('\r\n').filter(Boolean)).toHaveLength(1 + 140);
      expect((await csv({ limit: 0 })).status).toBe(400);
    });

    it('adds a reviewHints column only when asked', async () => {
      const res = await csv({ include: 'reviewHints', 'filter.reviewHint': 'high', limit: 3 });
      expect((res.body as string).split('\r\n')[0]).toMatch(/,reviewHints$/);
      expect(res.body).toMatch(/(spec\/mismatch|quality\/required): Finding/);
    });
  });
});
