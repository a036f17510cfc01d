import { existsSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { server } from '../../test/fixture-server.js';

const addinDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/addin');
const built = existsSync(path.join(addinDist, 'taskpane.html'));

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes on the wire (still compressed): what a browser downloads. */
  body: Buffer;
}

/** GET without decoding, unlike fetch, so the test sees what is transferred. */
function rawGet(url: string, acceptEncoding?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body as the browser reads it, after the transfer encoding. */
const decoded = (res: RawResponse): string => {
  const encoding = res.headers['content-encoding'];
  const bytes =
    encoding === 'br' ? brotliDecompressSync(res.body) : encoding === 'gzip' ? gunzipSync(res.body) : res.body;
  return bytes.toString('utf8');
};

/** Scripts and stylesheets the task pane's HTML loads at once (lazy chunks are fetched later, if ever). */
const initialAssets = (html: string) => [
  ...new Set([...html.matchAll(/(?:src|href)="(\/addin\/assets\/[^"]+)"/g)].map((m) => m[1]!)),
];

const YEAR_IMMUTABLE = /^public, max-age=31536000, immutable$/;

describe.skipIf(!built)(`add-in assets${built ? '' : ' (skipped: run npm run build:addin first)'}`, () => {
  it('opens the task pane in under 250 KB transferred, with Brotli, hashed assets kept for a year', async () => {
    const page = await rawGet(`${server.url}/addin/`, 'gzip, deflate, br');
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    const assets = initialAssets(decoded(page));
    expect(assets.length).toBeGreaterThan(0);

    let transferred = page.body.length;
    for (const asset of assets) {
      const res = await rawGet(server.url + asset, 'gzip, deflate, br');
      expect(res.status, asset).toBe(200);
      // Files under 1 KB are sent as they are (addin/vite.config.ts: the headers would cost more than the saving).
      if (res.headers['content-encoding'] === 'br') expect(res.headers.vary, asset).toMatch(/Accept-Encoding/i);
      else expect(res.body.length, asset).toBeLessThan(1024);
      expect(res.headers['cache-control'], asset).toMatch(YEAR_IMMUTABLE);
      expect(res.headers['content-type'], asset).toMatch(/javascript|css/);
      transferred += res.body.length;
    }
    console.log(
      `task pane first open: ${(transferred / 1024).toFixed(1)} KB transferred in ${assets.length + 1} files`,
    );
    expect(transferred).toBeLessThan(250 * 1024);
  });

  it('sends gzip to clients without Brotli and the plain file to clients that accept neither', async () => {
    const page = await rawGet(`${server.url}/addin/taskpane.html`);
    const [script] = initialAssets(page.body.toString('utf8'));
    const gzipped = await rawGet(server.url + script, 'gzip');
    const plain = await rawGet(server.url + script);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toMatch(YEAR_IMMUTABLE);
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(plain.body.toString('utf8')).toContain('import');
  });

  it('never lets a browser keep a page without asking again', async () => {
    for (const pagePath of ['/addin/taskpane.html', '/addin/admin.html', '/addin/auth-callback.html', '/admin']) {
      const res = await rawGet(server.url + pagePath, 'br');
      expect(res.status, pagePath).toBe(200);
      expect(res.headers['cache-control'], pagePath).toBe('no-cache');
      expect(res.headers['content-type'], pagePath).toMatch(/text\/html/);
    }
  });
});
