import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detailOf, download, emailsPath, f, fileRaw, server } from './filing.fixtures.js';
import { longMessage, mime } from './messages.fixtures.js';

const message = (headers: string[], body: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `${[
        'From: Rita Reyes <rita@acme-eng.test>',
        'To: Mia Member <member@harbor.test>',
        'Date: Tue, 03 Mar 2026 09:15:00 +0000',
        'MIME-Version: 1.0',
        ...headers,
      ].join('\r\n')}\r\n\r\n`,
    ),
    body,
  ]);

describe('messages whose decoded text holds NUL characters', () => {
  it('files a base64 body of binary bytes (201): the text without NULs, the original intact', async () => {
    const bytes = Buffer.from([0x50, 0x69, 0x6c, 0x65, 0x00, 0x63, 0x61, 0x70, 0x00, 0x00, 0x37]);
    const raw = message(
      [
        'Subject: Binary =?utf-8?B?AA==?=body',
        'Message-ID: <binary-1@acme-eng.test>',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: base64',
      ],
      Buffer.from(`${bytes.toString('base64')}\r\n`),
    );
    const res = await fileRaw(raw);
    expect(res.status).toBe(201);
    expect(res.body.subject).toBe('Binary body');
    const detail = await detailOf(res.body.id);
    expect(detail.body.bodyText).toBe('Pilecap7');
    const original = await download(detail.body.original.url);
    expect(original.bytes.equals(raw)).toBe(true);
  });

  it('files raw NUL bytes under an unusual transfer encoding, and a text attachment holding NULs', async () => {
    const raw = message(
      ['Subject: Odd encoding', 'Message-ID: <odd-1@acme-eng.test>', 'Content-Type: multipart/mixed; boundary="b1"'],
      Buffer.concat([
        Buffer.from('--b1\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: x-unknown\r\n\r\nA\0B\r\n'),
        Buffer.from('--b1\r\nContent-Type: text/plain; name="log\0.txt"\r\n'),
        Buffer.from('Content-Disposition: attachment; filename="log.txt"\r\nContent-Transfer-Encoding: base64\r\n\r\n'),
        Buffer.from(`${Buffer.from('grid\0C7').toString('base64')}\r\n--b1--\r\n`),
      ]),
    );
    const res = await fileRaw(raw);
    expect(res.status).toBe(201);
    expect(res.body.attachments.map((a: { name: string }) => a.name)).toEqual(['log.txt']);
    const detail = await detailOf(res.body.id);
    expect(detail.body.bodyText).toBe('AB');
    const search = await server.call(`${emailsPath()}?search=gridC7`, { token: f.member.token });
    expect(search.body.data.map((e: { id: string }) => e.id)).toEqual([res.body.id]);
  });
});

describe('a folded Message-ID header', () => {
  it('is stored as its first message id, and In-Reply-To likewise', async () => {
    const raw = message(
      [
        'Subject: Folded',
        'Message-ID: <First-1@acme-eng.test>\r\n <second-2@acme-eng.test>',
        'In-Reply-To: <parent-1@acme-eng.test>\r\n <parent-2@acme-eng.test>',
        'Content-Type: text/plain; charset=utf-8',
      ],
      Buffer.from('Folded headers\r\n'),
    );
    const res = await fileRaw(raw);
    expect(res.status).toBe(201);
    expect(res.body.internetMessageId).toBe('first-1@acme-eng.test');
    const detail = await detailOf(res.body.id);
    expect(detail.body.inReplyTo).toBe('parent-1@acme-eng.test');
    const lookup = await server.call('/v1/filed-emails/lookup?internetMessageId=%3Cfirst-1%40acme-eng.test%3E', {
      token: f.member.token,
    });
    expect(lookup.status).toBe(200);
    expect(lookup.body.filings).toHaveLength(1);
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

  it('keeps the first 1,000,000 characters of a longer text body, says so, and keeps all of it in the original', async () => {
    const raw = longMessage('<long-body@acme-eng.test>', 3 * 1024 * 1024);
    const res = await fileRaw(raw);
    expect(res.status).toBe(201);
    const detail = await detailOf(res.body.id);
    expect(detail.body.bodyTextTruncated).toBe(true);
    expect(detail.body.bodyText).toHaveLength(1_000_000);
    expect(detail.body.bodyText.startsWith('concrete ')).toBe(true);
    expect((await download(detail.body.original.url)).bytes.equals(raw)).toBe(true);
    const short = await detailOf((await fileRaw(mime({ messageId: '<short-body@acme-eng.test>' }))).body.id);
    expect(short.body.bodyTextTruncated).toBe(false);
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
    const detail = await detailOf(res.body.id);
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
