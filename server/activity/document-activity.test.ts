import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { insertDocument } from '../../test/harness.js';
import { activity } from '../db/schema.js';
import { insertDispatch } from '../dispatches/dispatches.fixtures.js';
import { fixtures, server } from './activity.fixtures.js';

describe('document activity (admin)', () => {
  const documentId = 'doc_activity_subject';
  const docPath = (query = '') => `/v1/admin/documents/${documentId}/activity${query ? `?${query}` : ''}`;
  const staffGet = (query = '') => server.call(docPath(query), { token: fixtures.staff.token });

  beforeAll(async () => {
    const db = server.database.db;
    await insertDocument(db, {
      id: documentId,
      organizationId: fixtures.orgA.id,
      projectId: fixtures.projectA1.id,
      number: 'RFI-007',
      title: 'Slab edge detail',
    });
    const at = (minutes: number) => new Date(Date.parse('2026-07-01T08:00:00Z') + minutes * 60_000);
    await db.insert(activity).values([
      {
        id: 'act_doc_1',
        organizationId: fixtures.orgA.id,
        projectId: fixtures.projectA1.id,
        documentId,
        actorId: 'usr_ann',
        actorName: 'Ann Architect',
        actorEmail: 'ann@harbor.test',
        action: 'file_uploaded',
        title: 'Uploaded sketch.pdf',
        createdAt: at(0),
      },
      {
        id: 'act_doc_3',
        organizationId: fixtures.orgA.id,
        projectId: fixtures.projectA1.id,
        documentId,
        actorId: 'usr_bob',
        actorName: 'Bob Builder',
        actorEmail: 'bob@harbor.test',
        action: 'status_changed',
        title: 'Status pending → approved',
        details: { from: 'pending', to: 'approved' },
        createdAt: at(20),
      },
    ]);
    await insertDispatch(db, {
      id: 'doc_send',
      organizationId: fixtures.orgA.id,
      projectId: fixtures.projectA1.id,
      documentId,
      title: 'RFI-007 issued',
      dispatchedAt: at(10),
      recipients: [
        { email: 'zoe@client.test', state: 'opened' },
        { email: 'amy@client.test', state: 'bounced' },
      ],
    });
  });

  it('lists the document’s history newest first, without e-mails by default', async () => {
    for (const query of ['', 'includeEmails=false']) {
      const res = await staffGet(query);
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: { uid: string }) => d.uid)).toEqual(['act_doc_3', 'act_doc_send', 'act_doc_1']);
      expect(res.body.data.every((d: object) => !('emails' in d))).toBe(true);
      expect(res.body).toMatchObject({ nextCursor: null, hasMore: false });
    }
    const first = (await staffGet()).body.data[0];
    expect(first).toEqual({
      uid: 'act_doc_3',
      documentId,
      actor: { uid: 'usr_bob', name: 'Bob Builder', email: 'bob@harbor.test' },
      action: 'status_changed',
      title: 'Status pending → approved',
      details: { from: 'pending', to: 'approved' },
      createdAt: '2026-07-01T08:20:00.000Z',
    });
  });

  it('with includeEmails=true puts the per-recipient Email records on email_sent entries', async () => {
    const res = await staffGet('includeEmails=true');
    expect(res.status).toBe(200);
    const [changed, sent, uploaded] = res.body.data;
    expect(changed.emails).toBeUndefined();
    expect(uploaded.emails).toBeUndefined();
    expect(sent.action).toBe('email_sent');
    expect(sent.emails.map((e: { recipientEmail: string }) => e.recipientEmail)).toEqual([
      'amy@client.test',
      'zoe@client.test',
    ]);
    expect(sent.emails[0]).toMatchObject({
      mailerMessageId: 'msg_doc_send',
      documentId,
      projectName: 'Pier 9 Terminal',
      activityTitle: 'RFI-007 issued',
      bounce: '2026-07-01T08:13:00.000Z',
      bounceType: 'Permanent',
    });
    expect(sent.emails[1]).toMatchObject({ firstOpened: '2026-07-01T08:40:00.000Z', bounce: null });
  });

  it('pages with a cursor', async () => {
    const first = await staffGet('limit=2');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await staffGet(`limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((d: { uid: string }) => d.uid)).toEqual(['act_doc_1']);
    expect(second.body.hasMore).toBe(false);
  });

  it('rejects bad values and unknown documents', async () => {
    for (const query of [
      'includeEmails=yes',
      'includeEmails=1',
      'includeEmails=TRUE',
      'limit=0',
      'limit=51',
      'cursor=zzz',
    ]) {
      const res = await staffGet(query);
      expect(res.status, query).toBe(400);
    }
    const missing = await server.call('/v1/admin/documents/doc_nope/activity', { token: fixtures.staff.token });
    expect(missing.status).toBe(404);
    expect(missing.body.errorCode).toBe('not_found');
  });
});

describeAuthMatrix('document activity', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/admin/documents/doc_activity_subject/activity',
});
