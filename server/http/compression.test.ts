import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixtures, server, token, url } from '../documents/submittals.fixtures.js';
import { signDownload } from '../downloads/signing.js';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent (still compressed). */
  bytes: Buffer;
  /** How many pieces the body arrived in. */
  pieces: number;
}

/** A GET with node:http, which (unlike fetch) leaves the body as it came over the wire and adds no headers (fetch
 *  adds `Cache-Control: no-cache` to a request with If-None-Match, which asks the server for a full answer). */
function rawGet(path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks), pieces: chunks.length }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const auth = () => ({ authorization: `Bearer ${token}` });

describe('compression', () => {
  it('gzips or brotli-compresses a JSON page for a client that accepts it, to the same JSON', async () => {
    // A second page: the first carries a sync token (the database's snapshot horizon), which any write anywhere
    // moves between two requests, so only a later page's bytes are the same on every request.
    const first = await rawGet(url({ limit: 50 }), auth());
    const page = url({ limit: 50, cursor: JSON.parse(first.bytes.toString()).nextCursor });
    const plain = await rawGet(page, auth());
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.bytes.toString()).data).toHaveLength(50);

    const gzipped = await rawGet(page, { ...auth(), 'accept-encoding': 'gzip' });
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gunzipSync(gzipped.bytes).toString()).toBe(plain.bytes.toString());
    expect(gzipped.bytes.length).toBeLessThan(plain.bytes.length / 4);

    const brotli = await rawGet(page, { ...auth(), 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.bytes).toString()).toBe(plain.bytes.toString());
  });

  it('leaves a small answer and a refused encoding alone', async () => {
    const small = await rawGet('/healthz', { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.bytes.toString())).toEqual({ status: 'ok' });
    const refused = await rawGet(url({ limit: 50 }), { ...auth(), 'accept-encoding': 'gzip;q=0, br;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('compresses a CSV export as a stream: chunked, no Content-Length, the same rows', async () => {
    const csv = { ...auth(), accept: 'text/csv' };
    const plain = await rawGet(url({}), csv);
    expect(plain.headers['content-type']).toContain('text/csv');
    expect(plain.bytes.toString().split('\r\n').length).toBeGreaterThan(140);
    const gzipped = await rawGet(url({}), { ...csv, 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['transfer-encoding']).toBe('chunked');
    expect(gzipped.headers['content-length']).toBeUndefined();
    expect(gunzipSync(gzipped.bytes).toString()).toBe(plain.bytes.toString());
    const brotli = await rawGet(url({}), { ...csv, 'accept-encoding': 'br' });
    expect(brotliDecompressSync(brotli.bytes).toString()).toBe(plain.bytes.toString());
  });
});

describe('validators', () => {
  it('gives a JSON GET a weak ETag and answers If-None-Match with 304 and no body until the data changes', async () => {
    const path = `/v1/organization/${fixtures.orgA.id}/project`;
    const first = await server.request(path, { token: fixtures.admin.token });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"[\w-]{27}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const body = (await first.json()) as { data: unknown[] };

    const again = await rawGet(path, { authorization: `Bearer ${fixtures.admin.token}`, 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // The same validator whatever the encoding, so a gzip-cached copy is revalidated too.
    const zipped = await rawGet(path, {
      authorization: `Bearer ${fixtures.admin.token}`,
      'if-none-match': `"other", ${etag}`,
      'accept-encoding': 'gzip',
    });
    expect(zipped.status).toBe(304);

    const created = await server.call(path, {
      method: 'POST',
      token: fixtures.admin.token,
      json: { name: 'Validator Yard' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBeNull();
    const changed = await rawGet(path, { authorization: `Bearer ${fixtures.admin.token}`, 'if-none-match': etag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(JSON.parse(changed.bytes.toString()).data.length).toBe(body.data.length + 1);
  });

  it('serves the OpenAPI document with an ETag and 304', async () => {
    const first = await server.request('/v1/openapi.json');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\//);
    expect((await rawGet('/v1/openapi.json', { 'if-none-match': etag })).status).toBe(304);
  });

  it('answers a download with its strong ETag, If-None-Match with 304, and never compresses the file', async () => {
    const bytes = Buffer.from('Pier 9 pile schedule\n'.repeat(200));
    const { key: blobKey } = await server.app.context.blobs.put(bytes);
    const signed = signDownload(server.app.context, { blobKey, fileName: 'piles.txt', contentType: 'text/plain' });
    const path = new URL(signed.url);
    const target = path.pathname + path.search;
    const first = await rawGet(target, { 'accept-encoding': 'gzip, br' });
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.headers['content-length']).toBe(String(bytes.length));
    expect(first.bytes.equals(bytes)).toBe(true);
    expect(first.headers.etag).toBe(`"${blobKey}"`);
    const again = await rawGet(target, { 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    const other = await rawGet(target, { 'if-none-match': '"another-file"' });
    expect(other.status).toBe(200);
  });
});
