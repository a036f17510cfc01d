import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { f as fixtures, server } from '../../test/fixture-server.js';
import { insertDispatch } from '../dispatches/dispatches.fixtures.js';

let token: string;
const at = new Date('2026-04-02T09:30:00.000Z');

beforeAll(async () => {
  token = (await fixtures.client(['email:read'], { orgs: [fixtures.orgA.id] })).token;
  const db = server.database.db;
  await insertDispatch(db, {
    id: 'dsp_single',
    organizationId: fixtures.orgA.id,
    projectId: fixtures.projectA1.id,
    documentId: 'doc_rfi_12',
    title: 'RFI 12 issued',
    dispatchedAt: at,
    mailerMessageId: 'mm-single',
    recipients: [{ email: 'Owner@Client.test', name: 'Olive Owner', uid: 'usr_owner', state: 'opened' }],
  });
  await insertDispatch(db, {
    id: 'dsp_multi',
    organizationId: fixtures.orgA.id,
    projectId: fixtures.projectA1.id,
    dispatchedAt: at,
    mailerMessageId: 'mm-multi',
    recipients: [
      { email: 'first@client.test', state: 'delivered' },
      { email: 'second@client.test', state: 'bounced' },
      { email: 'third@client.test', state: 'failed' },
    ],
  });
  await insertDispatch(db, {
    id: 'dsp_a2',
    organizationId: fixtures.orgA.id,
    projectId: fixtures.projectA2.id,
    dispatchedAt: at,
    mailerMessageId: 'mm-a2',
    recipients: [{ email: 'a2@client.test', state: 'pending' }],
  });
  await insertDispatch(db, {
    id: 'dsp_b1',
    organizationId: fixtures.orgB.id,
    projectId: fixtures.projectB1.id,
    dispatchedAt: at,
    mailerMessageId: 'mm-b1',
    recipients: [{ email: 'b1@client.test', state: 'opened' }],
  });
});

const get = (id: string, query = '', t = token) =>
  server.call(`/v1/email/${encodeURIComponent(id)}${query ? `?${query}` : ''}`, { token: t });

describe('GET /v1/email/{mailerMessageId}', () => {
  it('returns the Email record of a single-recipient message without `recipient`', async () => {
    const res = await get('mm-single');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      mailerMessageId: 'mm-single',
      recipientEmail: 'Owner@Client.test',
      recipientName: 'Olive Owner',
      recipientUid: 'usr_owner',
      senderEmail: 'sid@harbor.test',
      senderName: 'Sid Sender',
      senderUid: 'usr_sender',
      actionType: 'IssueDocument',
      documentId: 'doc_rfi_12',
      projectId: fixtures.projectA1.id,
      projectName: 'Pier 9 Terminal',
      activityTitle: 'RFI 12 issued',
      sentAt: '2026-04-02T09:30:00.000Z',
      createdAt: '2026-04-02T09:30:00.000Z',
      sentToMailer: '2026-04-02T09:30:00.000Z',
      send: '2026-04-02T09:31:00.000Z',
      delivery: '2026-04-02T09:32:00.000Z',
      firstOpened: '2026-04-02T10:00:00.000Z',
      lastOpened: '2026-04-02T11:00:00.000Z',
      bounce: null,
      bounceType: null,
      bounceSubtype: null,
      notSentReason: null,
      notSent: null,
    });
    // `recipient` stays optional but must match when given (case-insensitive).
    expect((await get('mm-single', 'recipient=owner@client.TEST')).status).toBe(200);
    expect((await get('mm-single', 'recipient=someone@client.test')).status).toBe(404);
  });

  it('requires `recipient` for a multi-recipient message and says nothing about the recipients', async () => {
    const res = await get('mm-multi');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'recipient query parameter is required', errorCode: 'bad_request' });
    expect(Object.keys(res.body).sort()).toEqual(['error', 'errorCode', 'requestId']);
  });

  it('picks the named recipient of a multi-recipient message', async () => {
    const bounced = await get('mm-multi', 'recipient=SECOND@client.test');
    expect(bounced.status).toBe(200);
    expect(bounced.body).toMatchObject({
      recipientEmail: 'second@client.test',
      bounce: '2026-04-02T09:33:00.000Z',
      bounceType: 'Permanent',
      bounceSubtype: 'General',
      delivery: null,
    });
    const failed = await get('mm-multi', 'recipient=third@client.test');
    expect(failed.body).toMatchObject({ notSentReason: 'suppressed', notSent: { reason: 'suppressed' }, sentAt: null });
    expect((await get('mm-multi', 'recipient=fourth@client.test')).status).toBe(404);
  });

  it('rejects a malformed recipient with a 400', async () => {
    const res = await get('mm-multi', 'recipient=not-an-address');
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('validation_failed');
    expect(res.body.error).toContain('recipient');
  });

  it('answers 404 for unknown messages and for messages outside the caller’s scope', async () => {
    expect((await get('mm-unknown')).status).toBe(404);
    expect((await get('mm-b1')).status).toBe(404);
    const projectKey = await fixtures.client(['email:read'], {
      projects: [{ orgId: fixtures.orgA.id, projectId: fixtures.projectA1.id }],
    });
    expect((await get('mm-single', '', projectKey.token)).status).toBe(200);
    const outside = await get('mm-a2', '', projectKey.token);
    expect(outside.status).toBe(404);
    expect(outside.body.errorCode).toBe('not_found');
    // Out of scope wins over the recipient rule: no hint that the message exists.
    const otherOrg = await fixtures.client(['email:read'], { orgs: [fixtures.orgB.id] });
    expect((await get('mm-multi', '', otherOrg.token)).status).toBe(404);
    const superKey = await fixtures.client(['email:read'], { superadmin: true });
    expect((await get('mm-b1', '', superKey.token)).status).toBe(200);
  });
});

describeAuthMatrix('email lookup', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/email/mm-single',
});

describeAuthMatrix('sent e-mail search', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/sent-emails',
});

describeAuthMatrix('sent e-mail timeline', () => ({ server, fixtures }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/sent-emails/timeline?mailerMessageId=mm-single',
});
