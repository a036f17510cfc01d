import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { activity, documents, filedEmails } from '../db/schema.js';
import { createUser } from '../users/service.js';
import { mime } from './test-messages.js';

let server: TestServer;
let f: Fixtures;
let rfiId: string;
let outsider: { token: string };

beforeAll(async () => {
  server = await startTestServer();
  f = await createFixtures(server);
  rfiId = 'doc_rfi012';
  await server.database.db.insert(documents).values({
    id: rfiId,
    organizationId: f.orgA.id,
    projectId: f.projectA1.id,
    number: 'RFI-012',
    format: 'rfi',
    type: 'RFI',
    title: 'Pile cap reinforcement',
    status: 'pending',
  });
  const ridgeline = await createUser(server.database.db, {
    email: 'rob@ridgeline.test',
    name: 'Rob Ridgeline',
    memberships: [{ orgId: f.orgB.id, role: 'member' }],
  });
  outsider = { token: f.userToken(ridgeline.id) };
});
afterAll(async () => {
  await server.close();
});

const emailsPath = (projectId = f.projectA1.id, orgId = f.orgA.id) =>
  `/v1/organization/${orgId}/project/${projectId}/emails`;

const fileRaw = (raw: Buffer, options: { token?: string; path?: string; headers?: Record<string, string> } = {}) =>
  server.call(options.path ?? emailsPath(), {
    method: 'POST',
    token: options.token ?? f.member.token,
    headers: { 'content-type': 'message/rfc822', ...options.headers },
    body: raw,
  });

const fileJson = (json: unknown, options: { token?: string; path?: string } = {}) =>
  server.call(options.path ?? emailsPath(), { method: 'POST', token: options.token ?? f.member.token, json });

const pdf = Buffer.from('%PDF-1.4\nsketch of pile cap P-7\n%%EOF\n');

/** The signed URL as a path on the test server (URLs carry the configured public origin). */
const download = async (url: string) => {
  const parsed = new URL(url);
  const res = await server.request(parsed.pathname + parsed.search);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

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
    const detail = await server.call(`${emailsPath()}/${id}`, { token: f.member.token });
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
    const detail = await server.call(`${emailsPath()}/${res.body.id}`, { token: f.member.token });
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
    const detail = await server.call(`${emailsPath()}/${reply.body.id}`, { token: f.member.token });
    expect(detail.body.references).toEqual(['thread-root@acme-eng.test']);
    expect(detail.body.thread.map((t: { id: string }) => t.id)).toEqual([root.body.id, sibling.body.id]);
    const bySibling = await server.call(`${emailsPath()}/${sibling.body.id}`, { token: f.member.token });
    expect(bySibling.body.thread.map((t: { id: string }) => t.id)).toEqual(
      expect.arrayContaining([root.body.id, reply.body.id, outlookOnly.body.id]),
    );
  });
});

describe('lookup', () => {
  it('tells where an e-mail is filed, within the caller scope', async () => {
    const res = await server.call('/v1/filed-emails/lookup?internetMessageId=%3CShared@acme-eng.test%3E', {
      token: f.member.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.internetMessageId).toBe('shared@acme-eng.test');
    expect(res.body.filings.map((x: { projectId: string }) => x.projectId).sort()).toEqual(
      [f.projectA1.id, f.projectA2.id].sort(),
    );
    expect(res.body.filings[0]).toMatchObject({
      organizationId: f.orgA.id,
      filedBy: { id: f.member.id, email: 'member@harbor.test' },
    });

    const projectKey = await f.client(['email:read'], { projects: [{ orgId: f.orgA.id, projectId: f.projectA2.id }] });
    const scoped = await server.call('/v1/filed-emails/lookup?internetMessageId=shared@acme-eng.test', {
      token: projectKey.token,
    });
    expect(scoped.body.filings.map((x: { projectId: string }) => x.projectId)).toEqual([f.projectA2.id]);

    const otherTenant = await server.call('/v1/filed-emails/lookup?internetMessageId=shared@acme-eng.test', {
      token: outsider.token,
    });
    expect(otherTenant.status).toBe(200);
    expect(otherTenant.body.filings).toEqual([]);
  });

  it('shows the document a filing is on', async () => {
    const res = await server.call('/v1/filed-emails/lookup?internetMessageId=rfi-12-answer@acme-eng.test', {
      token: f.member.token,
    });
    expect(res.body.filings).toEqual([expect.objectContaining({ documentId: rfiId, documentNumber: 'RFI-012' })]);
  });

  it('requires internetMessageId', async () => {
    const res = await server.call('/v1/filed-emails/lookup', { token: f.member.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/internetMessageId/);
  });
});

describe('search', () => {
  let projectId: string;
  beforeAll(async () => {
    // A project of its own so the other tests' filings do not interfere with counts.
    const { createProject } = await import('../organizations/service.js');
    projectId = (await createProject(server.database.db, { organizationId: f.orgA.id, name: 'Search Yard' })).id;
    const messages = [
      { id: 'a', from: 'rita@acme-eng.test', to: 'member@harbor.test', subject: 'Crane base', date: '02 Feb 2026' },
      { id: 'b', from: 'omar@glazeco.test', to: 'ada@harbor.test', subject: 'Glazing mockup', date: '10 Feb 2026' },
      { id: 'c', from: 'rita@acme-eng.test', to: 'omar@glazeco.test', subject: 'Anchor bolts', date: '20 Feb 2026' },
    ];
    for (const [i, m] of messages.entries()) {
      server.clock.advance(1000);
      const res = await fileRaw(
        mime({
          messageId: `<search-${m.id}@x.test>`,
          from: m.from,
          to: m.to,
          subject: m.subject,
          date: `${m.date} 09:00:00 +0000`,
          attachments:
            i === 2 ? [{ name: 'bolt schedule.txt', type: 'text/plain', content: Buffer.from('galvanized M24') }] : [],
        }),
        { path: emailsPath(projectId) },
      );
      expect(res.status).toBe(201);
    }
  });

  const list = async (query: string) => {
    const res = await server.call(`${emailsPath(projectId)}${query}`, { token: f.member.token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const subjects = (body: { data: { subject: string }[] }) => body.data.map((e) => e.subject);

  it('lists newest filing first with a keyset cursor', async () => {
    const first = await list('?limit=2');
    expect(subjects(first)).toEqual(['Anchor bolts', 'Glazing mockup']);
    expect(first.hasMore).toBe(true);
    const second = await list(`?limit=2&cursor=${first.nextCursor}`);
    expect(subjects(second)).toEqual(['Crane base']);
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('searches subject, participants and attachment names and text', async () => {
    expect(subjects(await list('?search=crane'))).toEqual(['Crane base']);
    expect(subjects(await list('?search=galvanized'))).toEqual(['Anchor bolts']);
    expect(subjects(await list('?search=schedule'))).toEqual(['Anchor bolts']);
    expect(subjects(await list('?search=glazeco.test'))).toEqual(['Anchor bolts', 'Glazing mockup']);
  });

  it('filters by sender, recipient, attachments and sent-date range', async () => {
    expect(subjects(await list('?from=Rita@acme-eng.test'))).toEqual(['Anchor bolts', 'Crane base']);
    expect(subjects(await list('?to=omar@glazeco.test'))).toEqual(['Anchor bolts']);
    expect(subjects(await list('?hasAttachments=true'))).toEqual(['Anchor bolts']);
    expect(subjects(await list('?sentAt=2026-02-05,2026-02-10'))).toEqual(['Glazing mockup']);
    expect(subjects(await list('?sentAt=,2026-02-02'))).toEqual(['Crane base']);
    expect(subjects(await list(`?documentId=${rfiId}`))).toEqual([]);
  });

  it('rejects bad filters and a cursor made for other filters', async () => {
    for (const query of ['?sentAt=2026-02-30', '?hasAttachments=yes', '?limit=51', `?search=${'x'.repeat(501)}`]) {
      const res = await server.call(`${emailsPath(projectId)}${query}`, { token: f.member.token });
      expect(res.status, query).toBe(400);
    }
    const first = await list('?limit=1');
    const res = await server.call(`${emailsPath(projectId)}?limit=1&from=x@y.test&cursor=${first.nextCursor}`, {
      token: f.member.token,
    });
    expect(res.status).toBe(400);
  });

  it('answers 404 for an e-mail of another project', async () => {
    const first = await list('?limit=1');
    const res = await server.call(`${emailsPath(f.projectA2.id)}/${first.data[0].id}`, { token: f.member.token });
    expect(res.status).toBe(404);
  });
});

describe('hostile and broken input', () => {
  it('rejects bytes that are not a message (400)', async () => {
    const res = await fileRaw(Buffer.from([0, 1, 2, 3, 255, 254, 10, 13, 0]));
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('bad_request');
  });

  it('rejects a message without From (400)', async () => {
    const res = await fileRaw(mime({ from: null, messageId: '<nofrom@x.test>' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/From/);
  });

  it('rejects an empty body (400)', async () => {
    const res = await fileRaw(Buffer.alloc(0));
    expect(res.status).toBe(400);
  });

  it('generates a stable Message-ID when there is none, and says so', async () => {
    const raw = mime({ messageId: null, subject: 'No id here' });
    const first = await fileRaw(raw);
    expect(first.status).toBe(201);
    expect(first.body.messageIdGenerated).toBe(true);
    expect(first.body.internetMessageId).toMatch(/@generated\.sitefile\.invalid$/);
    const again = await fileRaw(raw);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, internetMessageId: first.body.internetMessageId });
  });

  it('stores a message in an unknown charset as a safe copy', async () => {
    const raw = Buffer.from(
      'From: a@b.test\r\nMessage-ID: <charset@x.test>\r\nSubject: =?x-klingon?Q?caf=E9?=\r\nContent-Type: text/plain; charset=x-klingon\r\n\r\ncaf\xe9 au lait',
      'latin1',
    );
    const res = await fileRaw(raw);
    expect(res.status).toBe(201);
    expect(res.body.subject).toMatch(/^caf/);
  });

  it('rejects enormous headers (400)', async () => {
    const res = await fileRaw(mime({ messageId: '<huge@x.test>', extraHeaders: [`X-Junk: ${'x'.repeat(3_000_000)}`] }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/header/i);
  });

  it('rejects absurdly deep MIME nesting (400)', async () => {
    let head = 'From: a@b.test\r\nMessage-ID: <deep@x.test>\r\n';
    let tail = '';
    for (let i = 0; i < 3000; i++) {
      head += `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`;
      tail = `\r\n--b${i}--\r\n${tail}`;
    }
    const res = await fileRaw(Buffer.from(`${head}Content-Type: text/plain\r\n\r\ndeep${tail}`));
    expect(res.status).toBe(400);
  });

  it('answers 413 for a message over 25 MB, and for a gzip bomb that inflates past it', async () => {
    const tooBig = await fileRaw(Buffer.alloc(25 * 1024 * 1024 + 1, 'a'));
    expect(tooBig.status).toBe(413);
    const bomb = gzipSync(Buffer.alloc(60 * 1024 * 1024, 0));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const inflated = await fileRaw(bomb, { headers: { 'content-encoding': 'gzip' } });
    expect(inflated.status).toBe(413);
  });

  it('rejects more than 100 attachments (400)', async () => {
    const attachments = Array.from({ length: 101 }, (_, i) => ({
      name: `part-${i}.txt`,
      type: 'text/plain',
      content: Buffer.from(`part ${i}`),
    }));
    const res = await fileRaw(mime({ messageId: '<many-parts@x.test>', attachments }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/101 attachments/);
  });

  it('stores a zip attachment as it is, never unpacking it', async () => {
    const zip = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(1000, 0)]);
    const res = await fileRaw(
      mime({
        messageId: '<zip@x.test>',
        attachments: [{ name: 'bomb.zip', type: 'application/zip', content: zip }],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.attachments).toEqual([expect.objectContaining({ name: 'bomb.zip', size: zip.length })]);
  });

  it('keeps HTML with scripts only as a download, never as a page', async () => {
    const html = '<p>Hello</p><script>alert(document.cookie)</script>';
    const res = await fileRaw(
      mime({
        messageId: '<script@x.test>',
        html,
        attachments: [{ name: 'page.html', type: 'text/html', content: Buffer.from(html) }],
      }),
    );
    expect(res.status).toBe(201);
    const detail = await server.call(`${emailsPath()}/${res.body.id}`, { token: f.member.token });
    expect(detail.body.bodyText).not.toContain('alert');
    for (const url of [detail.body.html.url, detail.body.attachments[0].download.url]) {
      const file = await download(url);
      expect(file.res.status).toBe(200);
      expect(file.res.headers.get('content-type')).not.toMatch(/html/);
      expect(file.res.headers.get('content-disposition')).toMatch(/^attachment/);
    }
  });

  it('answers 415 for another content type', async () => {
    const res = await server.call(emailsPath(), {
      method: 'POST',
      token: f.member.token,
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(res.status).toBe(415);
  });
});

describe('filing access', () => {
  const raw = mime({ messageId: '<access@x.test>' });

  it('refuses no token and a bad token (401)', async () => {
    expect((await fileRaw(raw, { token: '' })).status).toBe(401);
    expect((await fileRaw(raw, { token: 'garbage' })).status).toBe(401);
  });

  it('refuses client keys, even with every permission (403): filing is for signed-in people', async () => {
    const key = await f.client('all', { orgs: [f.orgA.id] });
    const res = await fileRaw(raw, { token: key.token });
    expect(res.status).toBe(403);
    const superKey = await f.client('all', { superadmin: true });
    expect((await fileRaw(raw, { token: superKey.token })).status).toBe(403);
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

describeAuthMatrix('filed e-mail search', () => ({ server, fixtures: f }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/emails',
});

describeAuthMatrix('filed e-mail detail', () => ({ server, fixtures: f }), {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/emails/{emailId}',
  vars: () => ({ emailId: 'fem_missing' }),
  expectOk: (res) => expect(res.status).toBe(404),
});

describeAuthMatrix('filed e-mail lookup', () => ({ server, fixtures: f }), {
  method: 'GET',
  path: '/v1/filed-emails/lookup?internetMessageId=x@y.test',
});

describeAuthMatrix('filing an e-mail', () => ({ server, fixtures: f }), {
  method: 'POST',
  path: '/v1/organization/{orgId}/project/{projectId}/emails',
  json: () => ({
    subject: 'Matrix filing',
    from: 'rita@acme-eng.test',
    internetMessageId: `<${randomUUID()}@matrix.test>`,
  }),
  expectOk: (res) => expect(res.status).toBe(201),
});
