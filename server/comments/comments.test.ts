import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix, forgeToken } from '../../test/auth-matrix.js';
import { f, server } from '../../test/fixture-server.js';
import { insertDocument } from '../../test/harness.js';
import { commentMentions, comments } from '../db/schema.js';
import { PERSON_NEEDED } from '../http/route.js';
import { newId } from '../ids.js';
import { createUser } from '../users/service.js';

let documentId: string;
let matrixDocumentId: string;
let outsiderId: string;
let adminBId: string;

const bodies = {
  byMember: 'Sealant at grid Q7 looks zanzibar-grey, please confirm colour',
  byOutsider: 'Checked the marimba anchors on level 2',
  forStaff: 'Crane lift plan needs the quokka sign-off',
  forAdminB: 'Formwork stripped early at the wombat bay',
};
const ids: Record<keyof typeof bodies, string> = { byMember: '', byOutsider: '', forStaff: '', forAdminB: '' };

beforeAll(async () => {
  const db = server.database.db;
  outsiderId = (
    await createUser(db, {
      email: 'other@harbor.test',
      name: 'Otto Other',
      memberships: [{ orgId: f.orgA.id, role: 'member' }],
    })
  ).id;
  adminBId = (
    await createUser(db, {
      email: 'admin@ridgeline.test',
      name: 'Bea Admin',
      memberships: [{ orgId: f.orgB.id, role: 'admin' }],
    })
  ).id;
  documentId = await insertRfi('RFI-0042', Object.values(bodies).join(' '));
  matrixDocumentId = await insertRfi('RFI-0043', '');
  const authors: Record<keyof typeof bodies, string> = {
    byMember: f.member.id,
    byOutsider: outsiderId,
    forStaff: f.member.id,
    forAdminB: f.member.id,
  };
  for (const key of Object.keys(bodies) as (keyof typeof bodies)[]) {
    ids[key] = newId('cmt');
    await db.insert(comments).values({
      id: ids[key],
      organizationId: f.orgA.id,
      projectId: f.projectA1.id,
      documentId,
      authorId: authors[key],
      body: bodies[key],
    });
    await db.insert(commentMentions).values({
      id: newId('mnt'),
      organizationId: f.orgA.id,
      commentId: ids[key],
      userId: f.admin.id,
    });
  }
});

/** An RFI of project A1 whose search text holds its comments' bodies. */
async function insertRfi(number: string, searchText: string): Promise<string> {
  const id = newId('doc');
  await insertDocument(server.database.db, {
    id,
    organizationId: f.orgA.id,
    projectId: f.projectA1.id,
    number,
    title: 'Level 3 slab pour',
    searchText,
  });
  return id;
}

const remove = (id: string, token?: string) => server.call(`/v1/admin/comments/${id}`, { method: 'DELETE', token });

const searchHits = async (word: string) => {
  const res = await server.call(`/v1/admin/documents?search=${word}`, { token: f.userToken(f.staff.id) });
  expect(res.status).toBe(200);
  return res.body.data.map((d: { uid: string }) => d.uid);
};

const state = async (id: string) => {
  const [comment] = await server.database.db.select().from(comments).where(eq(comments.id, id));
  const mentions = await server.database.db.select().from(commentMentions).where(eq(commentMentions.commentId, id));
  return { deleted: comment?.deletedAt !== null, mentionsDeleted: mentions.map((m) => m.deletedAt !== null) };
};

describe('DELETE /v1/admin/comments/{id}: who may', () => {
  it('refuses a missing or invalid token (401)', async () => {
    expect((await remove(ids.byMember)).status).toBe(401);
    expect((await remove(ids.byMember, 'not-a-jwt')).status).toBe(401);
    const expired = forgeToken(server, { sub: f.member.id, typ: 'user', expiresInSeconds: -10 });
    expect((await remove(ids.byMember, expired)).status).toBe(401);
  });

  it('refuses every client key, superadmin included (403)', async () => {
    for (const key of [await f.client('all', { superadmin: true }), await f.client('all', { orgs: [f.orgA.id] })]) {
      const res = await remove(ids.byMember, key.token);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: PERSON_NEEDED, errorCode: 'forbidden' });
    }
  });

  it('refuses a member who is not the author, and an admin of another organization (403)', async () => {
    expect((await remove(ids.byMember, f.userToken(outsiderId))).status).toBe(403);
    expect((await remove(ids.forAdminB, f.userToken(adminBId))).status).toBe(403);
    expect((await remove(ids.byOutsider, f.userToken(f.member.id))).status).toBe(403);
    expect(await state(ids.byMember)).toEqual({ deleted: false, mentionsDeleted: [false] });
  });

  it('answers 404 for an unknown comment', async () => {
    const res = await remove('cmt_unknown', f.userToken(f.staff.id));
    expect(res.status).toBe(404);
    expect(res.body.errorCode).toBe('not_found');
  });
});

describe('DELETE /v1/admin/comments/{id}: deleting', () => {
  it('lets the author delete: 204 with an empty body, comment and mentions soft-deleted', async () => {
    expect(await searchHits('zanzibar')).toEqual([documentId]);
    const res = await server.request(`/v1/admin/comments/${ids.byMember}`, {
      method: 'DELETE',
      token: f.userToken(f.member.id),
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await state(ids.byMember)).toEqual({ deleted: true, mentionsDeleted: [true] });
  });

  it('drops the deleted comment from search, keeping the others', async () => {
    expect(await searchHits('zanzibar')).toEqual([]);
    expect(await searchHits('marimba')).toEqual([documentId]);
  });

  it('answers 404 for an already deleted comment', async () => {
    expect((await remove(ids.byMember, f.userToken(f.member.id))).status).toBe(404);
    expect((await remove(ids.byMember, f.userToken(f.staff.id))).status).toBe(404);
  });

  it("lets an admin of the comment's organization delete someone else's comment", async () => {
    expect((await remove(ids.byOutsider, f.userToken(f.admin.id))).status).toBe(204);
    expect(await state(ids.byOutsider)).toEqual({ deleted: true, mentionsDeleted: [true] });
    expect(await searchHits('marimba')).toEqual([]);
  });

  it('lets staff delete any comment', async () => {
    expect((await remove(ids.forStaff, f.userToken(f.staff.id))).status).toBe(204);
    expect(await state(ids.forStaff)).toEqual({ deleted: true, mentionsDeleted: [true] });
  });

  it('records each deletion in the document history', async () => {
    const res = await server.call(`/v1/admin/documents/${documentId}/activity`, { token: f.userToken(f.staff.id) });
    expect(res.status).toBe(200);
    const deletions = res.body.data.filter((e: { action: string }) => e.action === 'comment_deleted');
    expect(deletions.map((e: { actor: { uid: string } }) => e.actor.uid).sort()).toEqual(
      [f.member.id, f.admin.id, f.staff.id].sort(),
    );
  });
});

/** A fresh comment by the member, on a document of its own so the matrix stays out of the history checked above. */
async function matrixComment(): Promise<Record<string, string>> {
  const id = newId('cmt');
  await server.database.db.insert(comments).values({
    id,
    organizationId: f.orgA.id,
    projectId: f.projectA1.id,
    documentId: matrixDocumentId,
    authorId: f.member.id,
    body: 'Matrix comment',
  });
  return { id };
}

describeAuthMatrix('comment delete', () => ({ server, fixtures: f }), {
  method: 'DELETE',
  path: '/v1/admin/comments/{id}',
  vars: matrixComment,
  expectOk: (res) => expect(res.status).toBe(204),
});
