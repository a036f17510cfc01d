import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
let f: Fixtures;

beforeAll(async () => {
  server = await startTestServer();
  f = await createFixtures(server);
});
afterAll(async () => {
  await server.close();
});

const emailsPath = () => `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails`;

const fileRaw = (raw: Buffer) =>
  server.call(emailsPath(), {
    method: 'POST',
    token: f.member.token,
    headers: { 'content-type': 'message/rfc822' },
    body: raw,
  });

const detailOf = (id: string) => server.call(`${emailsPath()}/${id}`, { token: f.member.token });

const message = (headers: string[], body: Buffer) =>
  Buffer.concat([
    Buffer.from(
      [
        'From: Rita Reyes <rita@acme-eng.test>',
        'To: Mia Member <member@harbor.test>',
        'Date: Tue, 03 Mar 2026 09:15:00 +0000',
        'MIME-Version: 1.0',
        ...headers,
      ].join('\r\n') + '\r\n\r\n',
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
    const original = new URL(detail.body.original.url);
    const download = await server.request(original.pathname + original.search);
    expect(Buffer.from(await download.arrayBuffer()).equals(raw)).toBe(true);
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
