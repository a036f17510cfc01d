import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { server, startInstance } from '../../test/fixture-server.js';
import { ManualClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { downloadSigningKey, signDownload, verifyDownload } from './signing.js';

let blobKey: string;
const content = Buffer.from('%PDF-1.7\n0123456789abcdefghijklmnopqrstuvwxyz\n%%EOF\n');

beforeAll(async () => {
  blobKey = (await server.app.context.blobs.put(content)).key;
});

const sign = (fileName = 'Site report 12.pdf', contentType = 'application/pdf', ttl?: number) =>
  signDownload(server.app.context, { blobKey, fileName, contentType }, ttl);

/** The signed URL as a path on the test server (the URL carries the configured public origin). */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

const fetchBytes = async (url: string, headers: Record<string, string> = {}) => {
  const res = await server.request(pathOf(url), { headers });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

describe('signed downloads', () => {
  it('signs a URL under the public origin that expires after the configured TTL', () => {
    const now = server.clock.now().getTime();
    const signed = sign();
    expect(signed.url.startsWith(`${server.config.publicUrl}/v1/downloads/${blobKey}/Site%20report%2012.pdf?`)).toBe(
      true,
    );
    const expiresAt = new Date(signed.expiresAt).getTime();
    expect(expiresAt - now).toBeGreaterThan(server.config.signedUrlTtlSeconds * 0.9 * 1000 - 1000);
    expect(expiresAt - now).toBeLessThanOrEqual(server.config.signedUrlTtlSeconds * 1000);
  });

  it('signs the same URL again seconds later, so an answer carrying links keeps its ETag while nothing changed', () => {
    server.clock.set('2026-03-02T10:00:00.000Z');
    const first = sign();
    server.clock.advance(5_000);
    expect(sign().url).toBe(first.url);
    // A tenth of the TTL on, the link is signed anew: never valid for longer than the TTL.
    server.clock.advance((server.config.signedUrlTtlSeconds / 10) * 1000);
    expect(sign().url).not.toBe(first.url);
  });

  it('serves the whole file without a bearer token, as an attachment of the signed type', async () => {
    const { res, bytes } = await fetchBytes(sign().url);
    expect(res.status).toBe(200);
    expect(bytes.equals(content)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(content.length));
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Site report 12.pdf"');
  });

  it('streams a file without a MaxListenersExceededWarning (a plain-text line in the JSON log stream)', async () => {
    const warnings: string[] = [];
    const collect = (warning: Error) => warnings.push(warning.name);
    process.on('warning', collect);
    try {
      const { res } = await fetchBytes(sign().url);
      expect(res.status).toBe(200);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', collect);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('keeps non-ASCII file names in the RFC 5987 form', async () => {
    const { res } = await fetchBytes(sign('Bericht Größe.pdf').url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''Bericht%20Gr%C3%B6%C3%9Fe.pdf");
  });

  it('answers HEAD with the headers only; a file name with a path offers only its last part', async () => {
    const head = await server.request(pathOf(sign('plans/rev B#2.pdf').url), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(content.length));
    expect(head.headers.get('content-disposition')).toBe('attachment; filename="rev B#2.pdf"');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves byte ranges with 206 and refuses ranges outside the file with 416', async () => {
    const url = sign().url;
    const first = await fetchBytes(url, { range: 'bytes=0-3' });
    expect(first.res.status).toBe(206);
    expect(first.bytes.toString()).toBe('%PDF');
    expect(first.res.headers.get('content-range')).toBe(`bytes 0-3/${content.length}`);
    expect(first.res.headers.get('content-length')).toBe('4');

    const open = await fetchBytes(url, { range: 'bytes=9-' });
    expect(open.res.status).toBe(206);
    expect(open.bytes.equals(content.subarray(9))).toBe(true);

    const suffix = await fetchBytes(url, { range: 'bytes=-6' });
    expect(suffix.res.status).toBe(206);
    expect(suffix.bytes.toString()).toBe('%%EOF\n');

    const clipped = await fetchBytes(url, { range: `bytes=5-${content.length + 100}` });
    expect(clipped.res.status).toBe(206);
    expect(clipped.bytes.equals(content.subarray(5))).toBe(true);

    const outside = await fetchBytes(url, { range: `bytes=${content.length}-` });
    expect(outside.res.status).toBe(416);
    expect(outside.res.headers.get('content-range')).toBe(`bytes */${content.length}`);

    // Several ranges or a malformed header: the whole file, as RFC 9110 allows.
    for (const range of ['bytes=0-1,4-5', 'bytes=5-2', 'lines=1-2']) {
      const whole = await fetchBytes(url, { range });
      expect(whole.res.status).toBe(200);
      expect(whole.bytes.equals(content)).toBe(true);
    }
  });

  it('honours If-Range: a stale validator gets the whole file', async () => {
    const url = sign().url;
    const etag = (await fetchBytes(url)).res.headers.get('etag')!;
    expect((await fetchBytes(url, { range: 'bytes=0-3', 'if-range': etag })).res.status).toBe(206);
    expect((await fetchBytes(url, { range: 'bytes=0-3', 'if-range': '"other"' })).res.status).toBe(200);
  });

  it('answers 403 once the link has expired (by the server clock)', async () => {
    // At the start of a tenth of the TTL, where a link is valid for the whole TTL (see the test above).
    server.clock.set('2026-03-02T11:00:00.000Z');
    const url = sign(undefined, undefined, 60).url;
    expect((await fetchBytes(url)).res.status).toBe(200);
    server.clock.advance(59_000);
    expect((await fetchBytes(url)).res.status).toBe(200);
    server.clock.advance(1_000);
    const expired = await server.call(pathOf(url));
    expect(expired.status).toBe(403);
    expect(expired.body).toMatchObject({
      errorCode: 'forbidden',
      error: 'This download link has expired or is not valid',
    });
  });

  it('answers 403 for every altered part of the URL', async () => {
    const original = new URL(sign().url);
    const alter = (change: (url: URL) => void) => {
      const url = new URL(original);
      change(url);
      return url.pathname + url.search;
    };
    const otherBlob = (await server.app.context.blobs.put(Buffer.from('another file'))).key;
    const altered = [
      alter((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
      alter((u) => u.searchParams.set('type', 'text/html')),
      alter((u) => u.searchParams.set('signature', `${u.searchParams.get('signature')!.slice(0, -2)}AA`)),
      alter((u) => u.searchParams.set('signature', 'short')),
      alter((u) => u.searchParams.delete('signature')),
      alter((u) => u.searchParams.delete('expires')),
      alter((u) => u.searchParams.set('expires', 'soon')),
      alter((u) => {
        u.pathname = u.pathname.replace('Site%20report%2012.pdf', 'evil.html');
      }),
      alter((u) => {
        u.pathname = u.pathname.replace(blobKey, otherBlob);
      }),
    ];
    for (const path of altered) {
      const res = await server.call(path);
      expect(res.status, path).toBe(403);
      expect(res.body.errorCode).toBe('forbidden');
    }
  });

  it('answers 404 when the signed blob is not stored', async () => {
    const missing = signDownload(server.app.context, {
      blobKey: 'f'.repeat(64),
      fileName: 'gone.pdf',
      contentType: 'application/pdf',
    });
    const res = await server.call(pathOf(missing.url));
    expect(res.status).toBe(404);
    expect(res.body.errorCode).toBe('not_found');
  });

  it('verifies URLs signed by another instance sharing the configuration', async () => {
    const other = await startInstance();
    const url = signDownload(other.app.context, { blobKey, fileName: 'a.pdf', contentType: 'application/pdf' }).url;
    // The blobs live in the first server's DATA_DIR; the signature is what is checked here.
    expect((await fetchBytes(url)).res.status).toBe(200);
  });

  it('refuses to sign a content type that could smuggle headers', () => {
    expect(() => sign('a.pdf', 'application/pdf\r\nSet-Cookie: x=1')).toThrow(/content type/);
  });

  it('without a configured JWT key, instances sharing DATA_DIR share the signing key and others do not', () => {
    const clock = new ManualClock('2026-03-01T00:00:00Z');
    const sharedDir = mkdtempSync(path.join(tmpdir(), 'sitefile-dl-'));
    const signer = (dataDir: string) => {
      const config = loadConfig({ DATA_DIR: dataDir });
      return { clock, config, downloadKey: downloadSigningKey(config) };
    };
    const first = signer(sharedDir);
    const second = signer(sharedDir);
    const stranger = signer(mkdtempSync(path.join(tmpdir(), 'sitefile-dl-')));
    const target = { blobKey, fileName: 'a.pdf', contentType: 'application/pdf' };
    const query = new URL(signDownload(first, target).url).searchParams;
    const presented = {
      ...target,
      expires: query.get('expires') ?? undefined,
      signature: query.get('signature') ?? undefined,
    };
    expect(verifyDownload(second, presented)).toBe(true);
    expect(verifyDownload(stranger, presented)).toBe(false);
  });
});
