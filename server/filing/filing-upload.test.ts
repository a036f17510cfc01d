import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { activity, documents, filedEmails } from '../db/schema.js';
import {
  ctx,
  detailOf,
  download,
  emailsPath,
  f,
  fileJson,
  fileRaw,
  outsider,
  pdf,
  rfiId,
  server,
} from './filing.fixtures.js';
import { mime } from './messages.fixtures.js';

// Filing an e-mail into a project: as raw MIME or the JSON form, once per project, in threads, and who may.

describe('filing a raw message', () => {
  const raw = mime({
    messageId: '<Pile-Cap-1@ACME-eng.test>',
    cc: 'Ada Admin <admin@harbor.test>',
    attachments: [
      { name: 'sketch.pdf', type: 'application/pdf', content: pdf },
      { name: 'notes.txt', type: 'text/plain', content: Buffer.from('Rebar spacing at grid C7 is 150 mm') },
    ],
  });

  it('stores the message, its participants and attachments, and answers 201', async () => {
    const res = await fileRaw(raw);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      organizationId: f.orgA.id,
      projectId: f.projectA1.id,
      documentId: null,
      internetMessageId: 'pile-cap-1@acme-eng.test',
      messageIdGenerated: false,
      subject: 'Pile cap reinforcement',
      from: { address: 'rita@acme-eng.test', name: 'Rita Reyes' },
      to: [{ address: 'member@harbor.test', name: 'Mia Member' }],
      cc: [{ address: 'admin@harbor.test', name: 'Ada Admin' }],
      sentAt: '2026-03-03T09:15:00.000Z',
      hasAttachments: true,
      duplicate: false,
      filedBy: { id: f.member.id, name: 'Mia Member', email: 'member@harbor.test' },
      alsoFiledIn: [],
    });
    expect(res.body.attachments.map((a: { name: string; size: number }) => [a.name, a.size])).toEqual([
      ['notes.txt', 34],
      ['sketch.pdf', pdf.length],
    ]);
  });

  it('answers a second filing of the same message with the existing record (200, duplicate)', async () => {
    const first = await fileRaw(raw);
    const again = await fileRaw(raw, { token: f.admin.token });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      duplicate: true,
      filedBy: { id: f.member.id, email: 'member@harbor.test' },
      filedAt: first.body.filedAt,
      id: first.body.id,
    });
    const rows = await server.database.db
      .select()
      .from(filedEmails)
      .where(eq(filedEmails.messageId, 'pile-cap-1@acme-eng.test'));
    expect(rows).toHaveLength(1);
  });

  it('serves the original and each attachment through signed download URLs', async () => {
    const list = await server.call(`${emailsPath()}?search=rebar`, { token: f.member.token });
    const id = list.body.data[0].id;
    const detail = await detailOf(id);
    expect(detail.status).toBe(200);
    const original = await download(detail.body.original.url);
    expect(original.res.status).toBe(200);
    expect(original.bytes.equals(raw)).toBe(true);
    const sketch = detail.body.attachments.find((a: { name: string }) => a.name === 'sketch.pdf');
    const file = await download(sketch.download.url);
    expect(file.res.headers.get('content-type')).toContain('application/pdf');
    expect(file.res.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(file.bytes.equals(pdf)).toBe(true);
  });
});

describe('filing an e-mail the project holds again, onto an RFI', () => {
  const raw = mime({ messageId: '<link-later@acme-eng.test>', subject: 'Pile cap: site query' });
  const onRfi = (documentId: string) => `${emailsPath()}?documentId=${documentId}`;
  beforeAll(async () => {
    const rfi = { organizationId: f.orgA.id, projectId: f.projectA1.id, format: 'rfi', type: 'RFI', status: 'pending' };
    await server.database.db.insert(documents).values([
      { ...rfi, id: 'doc_rfi020', number: 'RFI-020', title: 'Pile cap levels' },
      { ...rfi, id: 'doc_rfi021', number: 'RFI-021', title: 'Pile cap cover' },
    ]);
  });

  it('links the record to the RFI when it was on none, once, and says so', async () => {
    const first = await fileRaw(raw);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ documentId: null, linkedToDocument: false });

    const linked = await fileRaw(raw, { path: onRfi('doc_rfi020'), token: f.admin.token });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({
      id: first.body.id,
      duplicate: true,
      linkedToDocument: true,
      documentId: 'doc_rfi020',
      filedBy: { id: f.member.id },
    });
    expect((await detailOf(first.body.id)).body.documentId).toBe('doc_rfi020');
    const lookup = await server.call('/v1/filed-emails/lookup?internetMessageId=link-later@acme-eng.test', {
      token: f.member.token,
    });
    expect(lookup.body.filings).toEqual([expect.objectContaining({ documentNumber: 'RFI-020' })]);
    const onDocument = await server.database.db
      .select({ title: activity.title, actorId: activity.actorId })
      .from(activity)
      .where(and(eq(activity.documentId, 'doc_rfi020'), eq(activity.action, 'email_filed')));
    expect(onDocument).toEqual([{ title: 'E-mail filed on RFI-020: Pile cap: site query', actorId: f.admin.id }]);

    const again = await fileRaw(raw, { path: onRfi('doc_rfi020') });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, linkedToDocument: false, documentId: 'doc_rfi020' });
  });

  it('refuses to move it from the RFI it is on to another (409), and keeps it there', async () => {
    const moved = await fileRaw(raw, { path: onRfi('doc_rfi021') });
    expect(moved.status).toBe(409);
    expect(moved.body.error).toMatch(/already filed in this project on RFI-020; it was not linked to RFI-021/);
    const id = (await fileRaw(raw)).body.id;
    expect((await detailOf(id)).body.documentId).toBe('doc_rfi020');
  });
});

describe('filing the JSON form', () => {
  const form = {
    subject: 'Submittal SUB-045 curtain wall',
    from: { address: 'Omar@Glazeco.test', name: 'Omar Ortiz' },
    to: ['member@harbor.test'],
    cc: [],
    sentAt: '2026-03-04T10:00:00Z',
    internetMessageId: '<cw-45@glazeco.test>',
    conversationId: 'AAQkAGI2conv45',
    bodyText: 'Shop drawings attached for review.',
    bodyHtml: '<p>Shop drawings attached for <b>review</b>.</p>',
    attachments: [
      { name: 'CW shop drawings.pdf', contentType: 'application/pdf', contentBase64: pdf.toString('base64') },
    ],
  };

  it('stores the same model as a raw message, with an .eml original', async () => {
    const res = await fileJson(form);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      internetMessageId: 'cw-45@glazeco.test',
      conversationId: 'AAQkAGI2conv45',
      subject: 'Submittal SUB-045 curtain wall',
      from: { address: 'omar@glazeco.test', name: 'Omar Ortiz' },
      to: [{ address: 'member@harbor.test' }],
      sentAt: '2026-03-04T10:00:00.000Z',
      attachments: [{ name: 'CW shop drawings.pdf', contentType: 'application/pdf', size: pdf.length }],
    });
    const detail = await detailOf(res.body.id);
    expect(detail.body.bodyText).toBe('Shop drawings attached for review.');
    const eml = await download(detail.body.original.url);
    expect(eml.bytes.toString()).toContain('Message-ID: <cw-45@glazeco.test>');
    const attachment = await download(detail.body.attachments[0].download.url);
    expect(attachment.bytes.equals(pdf)).toBe(true);
  });

  it('files onto a document of the project and records email_filed activity there', async () => {
    const res = await fileJson({
      ...form,
      internetMessageId: '<rfi-12-answer@acme-eng.test>',
      subject: 'RE: RFI-012',
      documentId: rfiId,
      note: 'Engineer answer',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ documentId: rfiId, note: 'Engineer answer' });
    const rows = await server.database.db
      .select()
      .from(activity)
      .where(and(eq(activity.documentId, rfiId), eq(activity.action, 'email_filed')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorId: f.member.id, projectId: f.projectA1.id });
  });

  it('refuses a document of another project (404) and keeps nothing', async () => {
    const res = await fileJson(
      { ...form, internetMessageId: '<wrong-doc@x.test>', documentId: rfiId },
      { path: emailsPath(f.projectA2.id) },
    );
    expect(res.status).toBe(404);
    const rows = await server.database.db
      .select()
      .from(filedEmails)
      .where(eq(filedEmails.messageId, 'wrong-doc@x.test'));
    expect(rows).toHaveLength(0);
  });

  it('rejects bad fields with a 400 naming them', async () => {
    const res = await fileJson({ ...form, from: 'not an address', attachments: [{ name: '', contentType: 'pdf' }] });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('validation_failed');
    expect(res.body.error).toMatch(/from/);
    expect(res.body.error).toMatch(/attachments/);
  });

  it('refuses a header smuggled into a Message-ID', async () => {
    const res = await fileJson({ ...form, internetMessageId: '<a@b.test>\r\nBcc: x@y.test' });
    expect(res.status).toBe(400);
  });

  it('keeps a subject with line breaks as text, not as extra headers', async () => {
    const res = await fileJson({
      ...form,
      internetMessageId: '<crlf@x.test>',
      subject: 'Hello\r\nBcc: spy@evil.test',
      attachments: [],
    });
    expect(res.status).toBe(201);
    expect(res.body.subject).toContain('Bcc: spy@evil.test');
    expect(res.body.to).toEqual([{ address: 'member@harbor.test' }]);
    expect(res.body.cc).toEqual([]);
  });

  it('takes options in the body, not the query, with the JSON form', async () => {
    const res = await fileJson(form, { path: `${emailsPath()}?note=x` });
    expect(res.status).toBe(400);
  });

  it('accepts a JSON form larger than the app-wide 1 MB JSON limit', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 7);
    const res = await fileJson({
      ...form,
      internetMessageId: '<big-json@x.test>',
      attachments: [{ name: 'scan.tif', contentType: 'image/tiff', contentBase64: big.toString('base64') }],
    });
    expect(res.status).toBe(201);
    expect(res.body.attachments[0].size).toBe(big.length);
  });
});

describe('dedupe and cross-project filing', () => {
  it('keeps one record when two members file the same e-mail at the same moment', async () => {
    const raw = mime({ messageId: '<race@acme-eng.test>', subject: 'Race' });
    const results = await Promise.all([fileRaw(raw), fileRaw(raw, { token: f.admin.token })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(results.map((r) => r.body.duplicate).sort()).toEqual([false, true]);
    expect(results[0]!.body.id).toBe(results[1]!.body.id);
    const rows = await server.database.db
      .select()
      .from(filedEmails)
      .where(eq(filedEmails.messageId, 'race@acme-eng.test'));
    expect(rows).toHaveLength(1);
  });

  it('files the same e-mail into a second project and links the two', async () => {
    const raw = mime({ messageId: '<shared@acme-eng.test>', subject: 'Shared coordination' });
    const first = await fileRaw(raw);
    const second = await fileRaw(raw, { path: emailsPath(f.projectA2.id) });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.alsoFiledIn).toEqual([
      expect.objectContaining({
        filedEmailId: first.body.id,
        projectId: f.projectA1.id,
        projectName: 'Pier 9 Terminal',
      }),
    ]);
  });
});

describe('threads', () => {
  it('links replies by In-Reply-To/References and by Outlook conversation id', async () => {
    const root = await fileRaw(mime({ messageId: '<thread-root@acme-eng.test>', subject: 'Slab pour' }));
    const reply = await fileRaw(
      mime({
        messageId: '<thread-reply@harbor.test>',
        subject: 'RE: Slab pour',
        inReplyTo: '<thread-root@acme-eng.test>',
        references: '<thread-root@acme-eng.test>',
        date: 'Wed, 04 Mar 2026 09:15:00 +0000',
      }),
    );
    const sibling = await fileRaw(
      mime({
        messageId: '<thread-reply-2@acme-eng.test>',
        subject: 'RE: Slab pour',
        references: '<thread-root@acme-eng.test>',
        date: 'Thu, 05 Mar 2026 09:15:00 +0000',
      }),
      { path: `${emailsPath()}?conversationId=conv-slab` },
    );
    const outlookOnly = await fileJson({
      subject: 'Slab pour photos',
      from: 'site@harbor.test',
      to: ['rita@acme-eng.test'],
      internetMessageId: '<photos@harbor.test>',
      conversationId: 'conv-slab',
      bodyText: 'Photos',
    });
    const detail = await detailOf(reply.body.id);
    expect(detail.body.references).toEqual(['thread-root@acme-eng.test']);
    expect(detail.body.thread.map((t: { id: string }) => t.id)).toEqual([root.body.id, sibling.body.id]);
    const bySibling = await detailOf(sibling.body.id);
    expect(bySibling.body.thread.map((t: { id: string }) => t.id)).toEqual(
      expect.arrayContaining([root.body.id, reply.body.id, outlookOnly.body.id]),
    );
  });
});

describe('filing access', () => {
  const raw = mime({ messageId: '<access@x.test>' });

  it('refuses no token and a bad token (401)', async () => {
    expect((await fileRaw(raw, { token: '' })).status).toBe(401);
    expect((await fileRaw(raw, { token: 'garbage' })).status).toBe(401);
  });

  it('refuses a member of another organization (403) and staff without membership (403)', async () => {
    expect((await fileRaw(raw, { token: outsider.token })).status).toBe(403);
    expect((await fileRaw(raw, { token: f.staff.token })).status).toBe(403);
  });

  it("answers 404 for a project of another organization under this organization's path", async () => {
    const res = await fileRaw(raw, { path: emailsPath(f.projectB1.id) });
    expect(res.status).toBe(404);
  });
});

describeAuthMatrix('filing an e-mail', ctx, {
  method: 'POST',
  path: '/v1/organization/{orgId}/project/{projectId}/emails',
  json: () => ({
    subject: 'Matrix filing',
    from: 'rita@acme-eng.test',
    internetMessageId: `<${randomUUID()}@matrix.test>`,
  }),
  expectOk: (res) => expect(res.status).toBe(201),
});
