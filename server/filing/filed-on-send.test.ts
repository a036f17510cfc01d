import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { ctx, emailsPath, f, fileJson, fileRaw, outsider, server } from './filing.fixtures.js';
import { mime } from './messages.fixtures.js';

// An e-mail filed as it was sent (the add-in's send event: a draft, no Message-ID yet) is one record whatever
// Message-ID the transport gave it: the sender's sent copy tells it, or a recipient's copy is recognised by its
// sender, subject and time; lookup and filing then find the record by either Message-ID, within one organization.

/** The add-in's send handler files the draft as the JSON form, without a Message-ID. */
const fileDraft = (subject: string, sentAt = '2026-04-07T10:00:00.000Z', projectId = f.projectA1.id) =>
  fileJson(
    {
      subject,
      from: { address: 'member@harbor.test', name: 'Mia Member' },
      to: ['rita@acme-eng.test'],
      cc: ['admin@harbor.test'],
      sentAt,
      bodyText: `About ${subject}.`,
    },
    { path: emailsPath(projectId) },
  );

/** The copy a recipient got: the same mail, with the transport's Message-ID and Date. */
const receivedCopy = (subject: string, messageId: string, date = 'Tue, 07 Apr 2026 10:00:04 +0000') =>
  mime({
    messageId,
    subject,
    date,
    from: 'Mia Member <member@harbor.test>',
    to: 'rita@acme-eng.test',
    cc: 'admin@harbor.test',
    text: `About ${subject}.`,
  });

const lookup = (query: Record<string, string>, token = f.member.token) =>
  server.call(`/v1/filed-emails/lookup?${new URLSearchParams(query)}`, { token });

const tellSentId = (id: string, internetMessageId: string, token = f.member.token, projectId = f.projectA1.id) =>
  server.call(`${emailsPath(projectId)}/${id}/sent-message-id`, {
    method: 'PUT',
    token,
    json: { internetMessageId },
  });

const filedCount = async (projectId: string, search: string) =>
  (await server.call(`${emailsPath(projectId)}?search=${encodeURIComponent(search)}`, { token: f.admin.token })).body
    .data.length as number;

describe('an e-mail filed as it was sent', () => {
  it('is found by the Message-ID its sent copy tells, and a colleague filing the copy gets the same record', async () => {
    const filed = await fileDraft('Crane pad bearing capacity');
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({ messageIdGenerated: true, sentMessageId: null });
    expect(await lookup({ internetMessageId: '<crane-pad@harbor.test>' })).toMatchObject({
      status: 200,
      body: { filings: [] },
    });

    const told = await tellSentId(filed.body.id, '<Crane-Pad@harbor.test>');
    expect(told.status).toBe(200);
    expect(told.body).toMatchObject({ id: filed.body.id, sentMessageId: 'crane-pad@harbor.test' });
    // Told again (the pane opened on the sent copy once more): nothing changes.
    expect((await tellSentId(filed.body.id, 'crane-pad@harbor.test')).status).toBe(200);

    const byTransportId = await lookup({ internetMessageId: 'crane-pad@harbor.test' });
    expect(byTransportId.body.filings).toEqual([
      expect.objectContaining({ filedEmailId: filed.body.id, projectId: f.projectA1.id }),
    ]);
    const byGeneratedId = await lookup({ internetMessageId: filed.body.internetMessageId });
    expect(byGeneratedId.body.filings.map((x: { filedEmailId: string }) => x.filedEmailId)).toEqual([filed.body.id]);

    const colleague = await fileRaw(receivedCopy('Crane pad bearing capacity', '<crane-pad@harbor.test>'), {
      token: f.admin.token,
    });
    expect(colleague.status).toBe(200);
    expect(colleague.body).toMatchObject({ id: filed.body.id, duplicate: true });
    expect(await filedCount(f.projectA1.id, 'Crane pad bearing')).toBe(1);

    // Filed into another project it is linked to the one record, not merged with it.
    const elsewhere = await fileRaw(receivedCopy('Crane pad bearing capacity', '<crane-pad@harbor.test>'), {
      token: f.admin.token,
      path: emailsPath(f.projectA2.id),
    });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.alsoFiledIn).toEqual([expect.objectContaining({ filedEmailId: filed.body.id })]);
  });

  it('is recognised in a recipient copy before the sent copy told anything, and that copy names it', async () => {
    const filed = await fileDraft('Tower crane base pour', '2026-04-08T07:30:00.000Z');
    const copy = {
      internetMessageId: '<tower-base@harbor.test>',
      from: 'member@harbor.test',
      subject: 'Tower crane base pour',
      sentAt: '2026-04-08T07:31:10.000Z',
    };
    const seen = await lookup(copy, f.admin.token);
    expect(seen.body.filings).toEqual([expect.objectContaining({ filedEmailId: filed.body.id })]);
    // Without the copy's sender, subject and time it is not (and a part of them is refused).
    expect((await lookup({ internetMessageId: copy.internetMessageId }, f.admin.token)).body.filings).toEqual([]);
    const partial = await lookup({ internetMessageId: copy.internetMessageId, subject: copy.subject });
    expect(partial.status).toBe(400);
    expect(partial.body.error).toMatch(/from, subject and sentAt together/);

    const colleague = await fileRaw(
      receivedCopy('Tower crane base pour', '<tower-base@harbor.test>', 'Wed, 08 Apr 2026 07:31:10 +0000'),
      { token: f.admin.token },
    );
    expect(colleague).toMatchObject({ status: 200, body: { id: filed.body.id, duplicate: true } });
    expect(colleague.body.sentMessageId).toBe('tower-base@harbor.test');
    // The sender's sent copy, opened later, tells the same Message-ID: accepted as it is.
    expect((await tellSentId(filed.body.id, '<tower-base@harbor.test>')).status).toBe(200);
    // Once named, a later lookup by that Message-ID alone finds it; still one record.
    expect((await lookup({ internetMessageId: 'tower-base@harbor.test' })).body.filings).toHaveLength(1);
    expect(await filedCount(f.projectA1.id, 'Tower crane base')).toBe(1);
  });

  it('is not taken for a different e-mail: another subject, sender, or a copy dated days later', async () => {
    const filed = await fileDraft('Hoarding permit renewal', '2026-04-09T12:00:00.000Z');
    const days = await fileRaw(
      receivedCopy('Hoarding permit renewal', '<hoarding-later@harbor.test>', 'Mon, 13 Apr 2026 12:00:00 +0000'),
    );
    expect(days.status).toBe(201);
    const subject = await fileRaw(
      receivedCopy('Hoarding permit renewal (2)', '<hoarding-2@harbor.test>', 'Thu, 09 Apr 2026 12:00:30 +0000'),
    );
    expect(subject.status).toBe(201);
    const sender = await fileRaw(
      mime({
        messageId: '<hoarding-rita@acme-eng.test>',
        subject: 'Hoarding permit renewal',
        date: 'Thu, 09 Apr 2026 12:00:30 +0000',
      }),
    );
    expect(sender.status).toBe(201);
    const after = await server.call(`${emailsPath()}/${filed.body.id}`, { token: f.member.token });
    expect(after.body.sentMessageId).toBeNull();
  });

  it('answers 400 naming sentAt for a time in year 0, which no database holds', async () => {
    const yearZero = '0000-01-01T00:00:00Z';
    const looked = await lookup({
      internetMessageId: 'year-zero@harbor.test',
      from: 'member@harbor.test',
      subject: 'Crane pad bearing capacity',
      sentAt: yearZero,
    });
    expect(looked.status).toBe(400);
    expect(looked.body).toMatchObject({ errorCode: 'validation_failed', details: [{ path: 'sentAt' }] });
    const filed = await fileDraft('Year zero', yearZero);
    expect(filed.status).toBe(400);
    expect(filed.body).toMatchObject({ errorCode: 'validation_failed', details: [{ path: 'sentAt' }] });
  });

  it('is named only by the person who filed it, once, and never with a Message-ID another filing has', async () => {
    const filed = await fileDraft('Scaffold tie pattern', '2026-04-10T09:00:00.000Z');
    const other = await tellSentId(filed.body.id, '<scaffold@harbor.test>', f.admin.token);
    expect(other.status).toBe(403);
    expect(other.body.error).toMatch(/Only the person who filed/);
    // Another tenant: not their project at all.
    expect((await tellSentId(filed.body.id, '<scaffold@harbor.test>', outsider.token)).status).toBe(403);
    expect((await tellSentId('fem_nope', '<scaffold@harbor.test>')).status).toBe(404);
    expect((await tellSentId(filed.body.id, 'not a message id')).status).toBe(400);

    // A Message-ID this project holds as another filed e-mail.
    expect((await fileRaw(mime({ messageId: '<held@acme-eng.test>', subject: 'Held' }))).status).toBe(201);
    const held = await tellSentId(filed.body.id, '<held@acme-eng.test>');
    expect(held.status).toBe(409);
    expect(held.body.error).toMatch(/another filed e-mail/);

    expect((await tellSentId(filed.body.id, '<scaffold@harbor.test>')).status).toBe(200);
    const changed = await tellSentId(filed.body.id, '<scaffold-2@harbor.test>');
    expect(changed.status).toBe(409);
    // A filing with its own Message-ID has no other.
    const received = await fileRaw(mime({ messageId: '<own-id@acme-eng.test>', subject: 'Own id' }));
    expect((await tellSentId(received.body.id, '<own-id-2@acme-eng.test>')).status).toBe(409);
  });

  it('stays within its organization: another tenant neither sees it nor has its copy merged into it', async () => {
    const filed = await fileDraft('Shared utility trench', '2026-04-11T08:00:00.000Z');
    expect((await tellSentId(filed.body.id, '<trench@harbor.test>')).status).toBe(200);
    expect((await lookup({ internetMessageId: 'trench@harbor.test' }, outsider.token)).body.filings).toEqual([]);
    const hinted = await lookup(
      {
        internetMessageId: '<trench-b@harbor.test>',
        from: 'member@harbor.test',
        subject: 'Hoarding permit renewal',
        sentAt: '2026-04-09T12:00:10.000Z',
      },
      outsider.token,
    );
    expect(hinted.body.filings).toEqual([]);
    // Organization B files its own copy: a record of its own, the same Message-ID in both organizations.
    const theirs = await fileRaw(
      receivedCopy('Shared utility trench', '<trench@harbor.test>', 'Sat, 11 Apr 2026 08:00:05 +0000'),
      { token: outsider.token, path: emailsPath(f.projectB1.id, f.orgB.id) },
    );
    expect(theirs.status).toBe(201);
    expect(theirs.body.alsoFiledIn).toEqual([]);
    expect((await lookup({ internetMessageId: 'trench@harbor.test' })).body.filings).toEqual([
      expect.objectContaining({ filedEmailId: filed.body.id }),
    ]);
  });
});

describe('a reply in a filed conversation', () => {
  it('is joined to the filing made on send by the Message-ID the transport gave it: thread and suggestion', async () => {
    const sent = await fileDraft('Dewatering permit conditions', '2026-04-09T08:00:00.000Z');
    expect((await tellSentId(sent.body.id, '<dewater@harbor.test>')).status).toBe(200);
    const reply = await fileRaw(
      mime({
        messageId: '<dewater-re@acme-eng.test>',
        subject: 'RE: Dewatering permit conditions',
        date: 'Thu, 09 Apr 2026 11:30:00 +0000',
        inReplyTo: '<dewater@harbor.test>',
        references: '<dewater@harbor.test>',
      }),
    );
    expect(reply.status).toBe(201);
    const detail = (id: string) => server.call(`${emailsPath()}/${id}`, { token: f.member.token });
    const ids = (res: Awaited<ReturnType<typeof detail>>) => res.body.thread.map((t: { id: string }) => t.id);
    expect(ids(await detail(reply.body.id))).toEqual([sent.body.id]);
    expect(ids(await detail(sent.body.id))).toEqual([reply.body.id]);

    // A recipient's copy of the sent mail asks for suggestions under the transport's Message-ID: the thread decides.
    const suggested = await server.call('/v1/filing/suggestions', {
      method: 'POST',
      token: f.admin.token,
      json: {
        subject: 'Dewatering permit conditions',
        from: 'member@harbor.test',
        to: ['rita@acme-eng.test'],
        internetMessageId: '<dewater@harbor.test>',
        bodyPreview: 'About Dewatering permit conditions.',
        allowAi: false,
      },
    });
    expect(suggested.status).toBe(200);
    expect(suggested.body.suggestions[0]).toMatchObject({ projectId: f.projectA1.id, decidedBy: 'thread' });
  });

  const conversationId = 'AAQkADAwATM0MDAAMS1hYjQ3-stair';
  const reply = (messageId: string, subject: string, projectId: string, documentId?: string) =>
    fileJson(
      {
        subject,
        from: 'rita@acme-eng.test',
        to: ['member@harbor.test'],
        internetMessageId: messageId,
        conversationId,
        bodyText: subject,
        ...(documentId ? { documentId } : {}),
      },
      { path: emailsPath(projectId) },
    );

  it('is told where the rest of its conversation is filed, newest first, within the caller scope', async () => {
    // The test clock stands still: a minute between filings gives "newest first" something to order.
    for (const [messageId, subject, projectId] of [
      ['<stair-1@acme-eng.test>', 'Stair core', f.projectA1.id],
      ['<stair-2@acme-eng.test>', 'RE: Stair core', f.projectA1.id],
      ['<stair-3@acme-eng.test>', 'RE: Stair core', f.projectA2.id],
    ] as const) {
      server.clock.advance(60_000);
      expect((await reply(messageId, subject, projectId)).status).toBe(201);
    }
    const res = await lookup({ internetMessageId: '<stair-4@acme-eng.test>', conversationId });
    expect(res.status).toBe(200);
    expect(res.body.filings).toEqual([]);
    expect(res.body.conversation.map((c: { projectId: string; projectName: string }) => c.projectName)).toEqual([
      'Dockside Offices',
      'Pier 9 Terminal',
    ]);
    // The message itself is not its own conversation.
    const own = await lookup({ internetMessageId: '<stair-3@acme-eng.test>', conversationId });
    expect(own.body.filings.map((x: { projectId: string }) => x.projectId)).toEqual([f.projectA2.id]);
    expect(own.body.conversation.map((c: { projectId: string }) => c.projectId)).toEqual([f.projectA1.id]);
    // Scoped to one project, and another tenant sees nothing of it.
    const key = await f.client(['email:read'], { projects: [{ orgId: f.orgA.id, projectId: f.projectA2.id }] });
    const scoped = await lookup({ internetMessageId: '<stair-4@acme-eng.test>', conversationId }, key.token);
    expect(scoped.body.conversation.map((c: { projectId: string }) => c.projectId)).toEqual([f.projectA2.id]);
    const other = await lookup({ internetMessageId: '<stair-4@acme-eng.test>', conversationId }, outsider.token);
    expect(other.body.conversation).toEqual([]);
    // Without a conversation id, no conversation.
    expect((await lookup({ internetMessageId: '<stair-4@acme-eng.test>' })).body.conversation).toEqual([]);
  });
});

describeAuthMatrix("telling a filed e-mail its transport's Message-ID", ctx, {
  method: 'PUT',
  path: '/v1/organization/{orgId}/project/{projectId}/emails/{emailId}/sent-message-id',
  vars: () => ({ emailId: 'fem_missing' }),
  json: { internetMessageId: '<matrix@harbor.test>' },
  expectOk: (res) => expect(res.status).toBe(404),
});
