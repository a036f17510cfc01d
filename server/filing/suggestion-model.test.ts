import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import {
  boilerplateLines,
  learnedCounts,
  learnFeatures,
  learnLines,
  MODEL_MAX_PROJECTS,
  unlearnLines,
} from './queries.js';
import { relearnOrganization } from './service.js';

const learned = async () =>
  (
    (await server.database.db.execute(
      sql`select t.feature, c.key as project_id, c.value::int as emails
        from suggestion_feature_totals t cross join lateral jsonb_each_text(t.counts) c
        where t.organization_id = ${f.orgA.id} order by 1, 2`,
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

  it('keeps per-project counts of a feature while at most MODEL_MAX_PROJECTS projects hold it, and its totals after', async () => {
    const db = server.database.db;
    const learn = (projectId: string) => db.transaction((tx) => learnFeatures(tx, f.orgA.id, projectId, ['w:capword']));
    const projectIds = Array.from({ length: MODEL_MAX_PROJECTS + 1 }, (_, i) => `prj_cap${String(i).padStart(2, '0')}`);
    for (const id of projectIds.slice(0, MODEL_MAX_PROJECTS)) await learn(id);
    await learn(projectIds[0]!);
    const held = await learnedCounts(db, [f.orgA.id], ['w:capword']);
    expect(held).toHaveLength(MODEL_MAX_PROJECTS);
    expect(held.find((r) => r.projectId === projectIds[0])).toMatchObject({ emails: 2, total: MODEL_MAX_PROJECTS + 1 });
    // One project more: the word says little about which project, and it is no longer read.
    await learn(projectIds[MODEL_MAX_PROJECTS]!);
    await learn(projectIds[1]!);
    expect(await learnedCounts(db, [f.orgA.id], ['w:capword'])).toEqual([]);
    const [totals] = (
      (await db.execute(
        sql`select emails, projects from suggestion_feature_totals where organization_id = ${f.orgA.id} and feature = 'w:capword'`,
      )) as { rows: { emails: number; projects: number }[] }
    ).rows;
    expect(totals).toEqual({ emails: MODEL_MAX_PROJECTS + 3, projects: MODEL_MAX_PROJECTS + 1 });
  });

  it('keeps the per-project counts of a boilerplate line up to MODEL_MAX_PROJECTS projects, then only that it is in many', async () => {
    const db = server.database.db;
    const lines = { scopes: ['d:bigfirm.test'], keys: ['capline'] };
    const projectIds = Array.from(
      { length: MODEL_MAX_PROJECTS + 2 },
      (_, i) => `prj_line${String(i).padStart(2, '0')}`,
    );
    for (const id of projectIds) await db.transaction((tx) => learnLines(tx, f.orgA.id, id, lines));
    const row = async () =>
      (
        (await db.execute(
          sql`select emails, projects, project_counts from suggestion_lines where organization_id = ${f.orgA.id} and line = 'capline'`,
        )) as { rows: { emails: number; projects: number; project_counts: object }[] }
      ).rows[0];
    expect(await row()).toEqual({
      emails: MODEL_MAX_PROJECTS + 2,
      projects: MODEL_MAX_PROJECTS + 1,
      project_counts: {},
    });
    await db.transaction((tx) => unlearnLines(tx, f.orgA.id, projectIds[0]!, lines));
    expect(await row()).toMatchObject({ emails: MODEL_MAX_PROJECTS + 1, projects: MODEL_MAX_PROJECTS + 1 });
    expect(await boilerplateLines(db, [f.orgA.id], lines, 2)).toEqual(new Set(['capline']));
  });
});
