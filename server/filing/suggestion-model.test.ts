import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import { relearnOrganization } from './service.js';

const learned = async () =>
  (
    (await server.database.db.execute(
      sql`select feature, project_id, emails from suggestion_features where organization_id = ${f.orgA.id} order by 1, 2`,
    )) as { rows: unknown[] }
  ).rows;

const file = (projectId: string, json: Record<string, unknown>) =>
  server.call(`/v1/organization/${f.orgA.id}/project/${projectId}/emails`, {
    method: 'POST',
    token: f.member.token,
    json,
  });

describe('the suggestion model', () => {
  it('learns each filed e-mail in its project as it is filed, never twice for a duplicate, and relearning gives the same counts', async () => {
    const mail = {
      subject: 'PO 7781 rebar release',
      from: 'tony@westsiderebar.test',
      to: ['member@harbor.test'],
      internetMessageId: '<po7781@westsiderebar.test>',
      bodyText:
        'Release 2 on PO 7781 ships Friday.\n\n-----Original Message-----\nFrom: x@y.test\nSent: today\n\nUnrelated quoted words',
      attachments: [{ name: 'PO7781_ticket.pdf', contentType: 'application/pdf', contentBase64: 'JVBERi0=' }],
    };
    expect((await file(f.projectA1.id, mail)).status).toBe(201);
    expect((await file(f.projectA1.id, mail)).status).toBe(200);
    expect(
      (await file(f.projectA2.id, { ...mail, internetMessageId: '<other@westsiderebar.test>', subject: 'Deck rebar' }))
        .status,
    ).toBe(201);
    const before = await learned();
    const count = (feature: string, projectId: string) =>
      (before as { feature: string; project_id: string; emails: number }[]).find(
        (r) => r.feature === feature && r.project_id === projectId,
      )?.emails;
    expect(count('n:po7781', f.projectA1.id)).toBe(1);
    expect(count('n:7781', f.projectA1.id)).toBe(1);
    expect(count('w:rebar', f.projectA1.id)).toBe(1);
    expect(count('w:rebar', f.projectA2.id)).toBe(1);
    expect(count('a:tony@westsiderebar.test', f.projectA2.id)).toBe(1);
    expect(count('d:westsiderebar.test', f.projectA1.id)).toBe(1);
    // Quoted text and the filer's own domain are not learned.
    expect(count('w:unrel', f.projectA1.id)).toBeUndefined();
    expect(before.some((r) => (r as { feature: string }).feature.includes('harbor.test'))).toBe(false);

    await relearnOrganization(server.database.db, f.orgA.id);
    expect(await learned()).toEqual(before);
  });
});
