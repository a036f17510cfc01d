import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { configureFixtureServer } from '../../test/fixture-server.js';
import { selectRows } from '../db/rows.js';
import { activity } from '../db/schema.js';
import { receiverForFile, verified } from '../webhooks/webhooks.fixtures.js';
import { ctx, detailOf, download, emailsPath, f, fileRaw, outsider, pdf, rfiId, server } from './filing.fixtures.js';
import { mime } from './messages.fixtures.js';
import { lineKeys } from './model/boilerplate.js';

// Putting a filing right: unfiling it, or moving it to another project, with search, lookup, activity and webhooks
// following, and who may.

configureFixtureServer({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' } });

const receiver = receiverForFile();
let hookSecret: string;

beforeAll(async () => {
  const hook = await server.call(`/v1/organization/${f.orgA.id}/webhooks`, {
    method: 'POST',
    token: f.admin.token,
    json: { url: receiver.url, events: ['email.unfiled', 'email.moved'] },
  });
  expect(hook.status).toBe(201);
  hookSecret = hook.body.data.secret;
});

/** Files a fresh e-mail (a Message-ID of its own) into project A1 as Mia Member; answers its record. */
async function fileOne(subject: string, path = emailsPath()) {
  const messageId = `<${randomUUID()}@acme-eng.test>`;
  const res = await fileRaw(
    mime({ messageId, subject, attachments: [{ name: 'sketch.pdf', type: 'application/pdf', content: pdf }] }),
    { path },
  );
  expect(res.status).toBe(201);
  return res.body as { id: string; internetMessageId: string };
}

const unfile = (id: string, options: { token?: string; path?: string } = {}) =>
  server.call(`${options.path ?? emailsPath()}/${id}`, { method: 'DELETE', token: options.token ?? f.member.token });

const move = (id: string, json: unknown, options: { token?: string; path?: string } = {}) =>
  server.call(`${options.path ?? emailsPath()}/${id}/move`, {
    method: 'POST',
    token: options.token ?? f.member.token,
    json,
  });

const search = async (text: string, projectId = f.projectA1.id) => {
  const res = await server.call(`${emailsPath(projectId)}?search=${encodeURIComponent(text)}`, {
    token: f.member.token,
  });
  expect(res.status).toBe(200);
  return (res.body.data as { id: string }[]).map((e) => e.id);
};

const lookup = async (messageId: string) => {
  const res = await server.call(`/v1/filed-emails/lookup?internetMessageId=${encodeURIComponent(messageId)}`, {
    token: f.member.token,
  });
  return (res.body.filings as { projectId: string; filedEmailId: string }[]).map((x) => x.projectId);
};

/** Mia Member's activity entries about one filed e-mail. */
const activityOf = (filedEmailId: string) =>
  server.database.db
    .select({ action: activity.action, projectId: activity.projectId, title: activity.title })
    .from(activity)
    .where(and(eq(activity.actorId, f.member.id), sql`${activity.details} ->> 'filedEmailId' = ${filedEmailId}`));

/** The next webhook event the endpoint receives, its signature checked. */
/** The first event after the `before`th delivery about filing `id`: another test's event may arrive in between. */
async function eventAbout(before: number, id: string) {
  for (let count = before + 1; ; count += 1) {
    const event = verified(hookSecret, (await receiver.waitForRequests(count))[count - 1]!);
    if ((event as { data?: { id?: string } }).data?.id === id) return event;
  }
}

describe('unfiling', () => {
  it('removes the filing: 204, then gone from the project, its search and lookup; activity and webhook tell it', async () => {
    const filed = await fileOne('Crane pad loads for unfiling');
    expect(await search('crane pad')).toContain(filed.id);
    const before = receiver.received.length;

    const res = await unfile(filed.id);
    expect(res.status).toBe(204);

    expect((await detailOf(filed.id)).status).toBe(404);
    expect(await search('crane pad')).not.toContain(filed.id);
    const everywhere = await server.call('/v1/filed-emails?search=crane%20pad', { token: f.member.token });
    expect(everywhere.body.data.map((e: { id: string }) => e.id)).not.toContain(filed.id);
    expect(await lookup(filed.internetMessageId)).toEqual([]);
    const event = await eventAbout(before, filed.id);
    expect(event).toMatchObject({
      type: 'email.unfiled',
      data: {
        id: filed.id,
        organizationId: f.orgA.id,
        projectId: f.projectA1.id,
        internetMessageId: filed.internetMessageId,
        subject: 'Crane pad loads for unfiling',
        unfiledBy: { id: f.member.id, name: 'Mia Member' },
      },
    });
    const entries = await activityOf(filed.id);
    expect(entries).toContainEqual({
      action: 'email_unfiled',
      projectId: f.projectA1.id,
      title: 'E-mail unfiled: Crane pad loads for unfiling',
    });

    // Undone, it can be filed again as new (201, not a duplicate).
    const again = await fileRaw(mime({ messageId: `<${filed.internetMessageId}>`, subject: 'Crane pad loads' }));
    expect(again.status).toBe(201);
    expect(again.body.duplicate).toBe(false);
  });

  it('leaves the same e-mail filed in another project, and its attachment readable there', async () => {
    const filed = await fileOne('Shared slab pour');
    const there = await fileRaw(
      mime({
        messageId: `<${filed.internetMessageId}>`,
        subject: 'Shared slab pour',
        attachments: [{ name: 'sketch.pdf', type: 'application/pdf', content: pdf }],
      }),
      { path: emailsPath(f.projectA2.id) },
    );
    expect(there.status).toBe(201);
    expect((await unfile(filed.id)).status).toBe(204);
    expect(await lookup(filed.internetMessageId)).toEqual([f.projectA2.id]);
    const detail = await server.call(`${emailsPath(f.projectA2.id)}/${there.body.id}`, { token: f.member.token });
    expect(detail.status).toBe(200);
    const attachment = await download(detail.body.attachments[0].download.url);
    expect(attachment.res.status).toBe(200);
    expect(attachment.bytes).toEqual(pdf);
  });

  it('answers 404 for a filed e-mail that is not in the project named, or was unfiled already', async () => {
    const filed = await fileOne('Wrong project path');
    expect((await unfile(filed.id, { path: emailsPath(f.projectA2.id) })).status).toBe(404);
    expect((await unfile(filed.id)).status).toBe(204);
    const twice = await unfile(filed.id);
    expect(twice.status).toBe(404);
    expect(twice.body.error).toMatch(/Filed e-mail not found/);
  });

  it('keeps tenants apart: another organization cannot unfile, nor reach it through its own project', async () => {
    const filed = await fileOne('Tenant isolation');
    expect((await unfile(filed.id, { token: outsider.token })).status).toBe(403);
    const viaB = await unfile(filed.id, { token: outsider.token, path: emailsPath(f.projectB1.id, f.orgB.id) });
    expect(viaB.status).toBe(404);
    expect((await detailOf(filed.id)).status).toBe(200);
  });
});

/** Per project, how many e-mails the suggestion model counts for features containing `word`. */
const learnedFor = async (word: string) => {
  const rows = await selectRows(
    server.database.db,
    sql`select c.key as "projectId", sum(c.value::int)::int as emails
      from suggestion_feature_totals t cross join lateral jsonb_each_text(t.counts) c
      where t.organization_id = ${f.orgA.id} and t.feature like ${`%${word}%`} group by c.key order by 1`,
    z.object({ projectId: z.string(), emails: z.number() }),
  );
  return Object.fromEntries(rows.map((r) => [r.projectId, r.emails]));
};

/** How many of these body lines the organization's boilerplate counts hold (any sender scope). */
const linesCounted = async (text: string) => {
  const [row] = await selectRows(
    server.database.db,
    sql`select count(*)::int as n from suggestion_lines
      where organization_id = ${f.orgA.id} and line in ${lineKeys(text)}`,
    z.object({ n: z.number() }),
  );
  return row!.n;
};

describe('the suggestion model follows', () => {
  it("takes an unfiled e-mail's body lines back out of the boilerplate counts", async () => {
    const text = 'Basaltine panel fixings are on order for the east elevation, delivery in week 12.';
    const res = await fileRaw(mime({ messageId: `<${randomUUID()}@acme-eng.test>`, subject: 'Fixings', text }));
    expect(res.status).toBe(201);
    expect(await linesCounted(text)).toBeGreaterThan(0);
    expect((await unfile(res.body.id)).status).toBe(204);
    expect(await linesCounted(text)).toBe(0);
  });

  it('forgets an unfiled e-mail, and counts a moved one in its new project only', async () => {
    const unfiled = await fileOne('Zirconite cladding samples');
    expect(Object.keys(await learnedFor('zirconit'))).toEqual([f.projectA1.id]);
    expect((await unfile(unfiled.id)).status).toBe(204);
    expect(await learnedFor('zirconit')).toEqual({});

    const moved = await fileOne('Quillwort planting schedule');
    const counted = await learnedFor('quillwort');
    expect(Object.keys(counted)).toEqual([f.projectA1.id]);
    expect((await move(moved.id, { projectId: f.projectA2.id })).status).toBe(200);
    expect(await learnedFor('quillwort')).toEqual({ [f.projectA2.id]: counted[f.projectA1.id] });
  });
});

/** Per project, how many e-mails the boilerplate counts hold for these body lines (any sender scope). */
const linesByProject = async (text: string) => {
  const rows = await selectRows(
    server.database.db,
    sql`select c.key as "projectId", sum(c.value::int)::int as emails
      from suggestion_lines l cross join lateral jsonb_each_text(l.project_counts) c
      where l.organization_id = ${f.orgA.id} and l.line in ${lineKeys(text)} group by c.key order by 1`,
    z.object({ projectId: z.string(), emails: z.number() }),
  );
  return Object.fromEntries(rows.map((r) => [r.projectId, r.emails]));
};

const suggest = async (json: Record<string, unknown>) => {
  const res = await server.call('/v1/filing/suggestions', { method: 'POST', token: f.member.token, json });
  expect(res.status).toBe(200);
  return res.body.suggestions as { projectId: string; score: number; reasons: string[] }[];
};

describe('the suggestion model follows, as a user sees it', () => {
  it('moves the body lines a moved e-mail taught into its new project', async () => {
    const text = 'Tamarack joist hangers arrive on the north loading bay after the crane lift, please clear it.';
    const res = await fileRaw(mime({ messageId: `<${randomUUID()}@acme-eng.test>`, subject: 'Hangers', text }));
    expect(res.status).toBe(201);
    expect(Object.keys(await linesByProject(text))).toEqual([f.projectA1.id]);
    expect((await move(res.body.id, { projectId: f.projectA2.id })).status).toBe(200);
    expect(Object.keys(await linesByProject(text))).toEqual([f.projectA2.id]);
  });

  it('after unfiling, a similar e-mail is no longer suggested for the old project on that evidence', async () => {
    const from = 'Olwen Strand <olwen@vantablue-survey.test>';
    const subject = 'Vantablue borehole logs BH-14 to BH-19';
    const text = 'Vantablue borehole logs for the piling platform: groundwater at 3.4 m in BH-17.';
    const res = await fileRaw(mime({ messageId: `<${randomUUID()}@vantablue-survey.test>`, from, subject, text }));
    expect(res.status).toBe(201);
    const similar = {
      subject: 'Vantablue borehole logs BH-20',
      from: 'olwen@vantablue-survey.test',
      to: ['member@harbor.test'],
      bodyPreview: 'Vantablue borehole logs for the piling platform, groundwater in BH-20.',
    };
    const before = await suggest(similar);
    expect(before[0]?.projectId).toBe(f.projectA1.id);

    expect((await unfile(res.body.id)).status).toBe(204);
    const after = await suggest(similar);
    const oldProject = after.find((s) => s.projectId === f.projectA1.id);
    // Only what the fixture's other filings say of Project A1 may remain: nothing of the sender, her domain or words.
    expect(oldProject?.reasons.join(' ') ?? '').not.toMatch(/olwen|vantablue|borehole/i);
    expect(oldProject?.score ?? 0).toBeLessThan(before[0]!.score);
  });
});

describe('moving', () => {
  it('moves the filing to another project: found there, not here; activity in both, webhook email.moved', async () => {
    const filed = await fileOne('Glazing mock-up moved');
    const before = receiver.received.length;

    const res = await move(filed.id, { projectId: f.projectA2.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: filed.id,
      projectId: f.projectA2.id,
      documentId: null,
      filedBy: { id: f.member.id },
      duplicate: false,
    });
    expect(res.body.attachments.map((a: { name: string }) => a.name)).toEqual(['sketch.pdf']);

    expect(await search('glazing mock-up')).not.toContain(filed.id);
    expect(await search('glazing mock-up', f.projectA2.id)).toContain(filed.id);
    // Searching every project the person reaches finds it once, in its new project.
    const everywhere = await server.call('/v1/filed-emails?search=glazing%20mock-up', { token: f.member.token });
    expect(everywhere.body.data.filter((e: { id: string }) => e.id === filed.id)).toEqual([
      expect.objectContaining({ projectId: f.projectA2.id }),
    ]);
    expect(await lookup(filed.internetMessageId)).toEqual([f.projectA2.id]);
    expect((await detailOf(filed.id)).status).toBe(404);

    const event = await eventAbout(before, filed.id);
    expect(event).toMatchObject({
      type: 'email.moved',
      data: {
        id: filed.id,
        projectId: f.projectA2.id,
        from: { projectId: f.projectA1.id, documentId: null },
        movedBy: { id: f.member.id },
      },
    });
    const entries = await activityOf(filed.id);
    expect(entries).toContainEqual({
      action: 'email_moved_out',
      projectId: f.projectA1.id,
      title: 'E-mail moved to Dockside Offices: Glazing mock-up moved',
    });
    expect(entries).toContainEqual({
      action: 'email_moved_in',
      projectId: f.projectA2.id,
      title: 'E-mail moved here from Pier 9 Terminal: Glazing mock-up moved',
    });
  });

  it('moves onto a document of the other project', async () => {
    const filed = await fileOne('Answer belongs on RFI-012', emailsPath(f.projectA2.id));
    const res = await move(
      filed.id,
      { projectId: f.projectA1.id, documentId: rfiId },
      { path: emailsPath(f.projectA2.id) },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ projectId: f.projectA1.id, documentId: rfiId });
  });

  it('refuses a project holding the e-mail already (409), the same project (400), and names what is missing (404)', async () => {
    const filed = await fileOne('Held twice');
    const copy = await fileRaw(mime({ messageId: `<${filed.internetMessageId}>`, subject: 'Held twice' }), {
      path: emailsPath(f.projectA2.id),
    });
    expect(copy.status).toBe(201);
    const held = await move(filed.id, { projectId: f.projectA2.id });
    expect(held.status).toBe(409);
    expect(held.body.error).toMatch(/already filed in Dockside Offices/);
    expect((await lookup(filed.internetMessageId)).sort()).toEqual([f.projectA1.id, f.projectA2.id].sort());

    const same = await move(filed.id, { projectId: f.projectA1.id });
    expect(same.status).toBe(400);
    expect((await move(filed.id, { projectId: 'prj_missing' })).status).toBe(404);
    const noDocument = await move(filed.id, { projectId: f.projectA2.id, documentId: 'doc_missing' });
    expect(noDocument.status).toBe(404);
    expect((await move('fem_missing', { projectId: f.projectA2.id })).status).toBe(404);
    expect((await move(filed.id, {})).status).toBe(400);
  });

  it('keeps tenants apart: never into another organization’s project, never by its members', async () => {
    const filed = await fileOne('Cross-tenant move');
    const intoB = await move(filed.id, { projectId: f.projectB1.id });
    expect(intoB.status).toBe(404);
    expect((await move(filed.id, { projectId: f.projectA2.id }, { token: outsider.token })).status).toBe(403);
    const viaB = await move(
      filed.id,
      { projectId: f.projectB1.id },
      { token: outsider.token, path: emailsPath(f.projectB1.id, f.orgB.id) },
    );
    expect(viaB.status).toBe(404);
    expect(await lookup(filed.internetMessageId)).toEqual([f.projectA1.id]);
  });
});

describeAuthMatrix('unfiling an e-mail', ctx, {
  method: 'DELETE',
  path: '/v1/organization/{orgId}/project/{projectId}/emails/{emailId}',
  vars: () => ({ emailId: 'fem_missing' }),
  expectOk: (res) => expect(res.status).toBe(404),
});

describeAuthMatrix('moving a filed e-mail', ctx, {
  method: 'POST',
  path: '/v1/organization/{orgId}/project/{projectId}/emails/{emailId}/move',
  vars: () => ({ emailId: 'fem_missing' }),
  json: () => ({ projectId: f.projectA2.id }),
  expectOk: (res) => expect(res.status).toBe(404),
});
