import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';

/**
 * Time-limited signed download URLs: `/v1/downloads/<blobKey>/<fileName>?type=…&expires=…&signature=…`.
 * The signature is an HMAC-SHA256 over the canonical path, the content type and the expiry, so changing
 * any of them (or the blob) makes the URL worthless; the URL needs no bearer token.
 */
export interface DownloadTarget {
  /** Blob-store key of the bytes to serve. */
  blobKey: string;
  /** Offered to the browser in `Content-Disposition: attachment`. */
  fileName: string;
  /** Sent as `Content-Type`, e.g. `application/pdf`. */
  contentType: string;
}

export interface SignedDownload {
  url: string;
  /** ISO 8601 (UTC), to the second. */
  expiresAt: string;
}

export const DOWNLOADS_PATH = '/v1/downloads';

/**
 * The HMAC key (`app.downloadKey`, made once by createApp). Derived from the configured JWT key when there is
 * one (instances sharing the env agree); otherwise a random key kept in DATA_DIR (instances sharing DATA_DIR,
 * and so the blobs, agree).
 */
export function downloadSigningKey(config: Pick<Config, 'jwtSigningKey' | 'dataDir'>): Buffer {
  return config.jwtSigningKey
    ? createHmac('sha256', config.jwtSigningKey.secret).update('sitefile signed downloads v1').digest()
    : keyFromDataDir(config.dataDir);
}

function keyFromDataDir(dataDir: string): Buffer {
  const file = path.join(dataDir, 'keys', 'downloads.key');
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // `wx`: the first instance to start writes the key; every other one reads that same key.
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
}

const canonicalPath = (target: Pick<DownloadTarget, 'blobKey' | 'fileName'>) =>
  `${DOWNLOADS_PATH}/${encodeURIComponent(target.blobKey)}/${encodeURIComponent(target.fileName)}`;

const signatureOf = (key: Buffer, target: DownloadTarget, expires: number) =>
  createHmac('sha256', key)
    .update(`${canonicalPath(target)}\n${target.contentType}\n${expires}`)
    .digest('base64url');

// A single media type with optional parameters; nothing that could smuggle a header.
const contentTypePattern = /^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=("[^"\r\n]*"|[\w.+-]+))*$/;

/**
 * A signed URL for the blob, valid for at most `ttlSeconds` from now (by the app's clock) and at least nine tenths of
 * it. The expiry counts from the start of the current tenth of the TTL, not from this second: the same blob signed
 * again within that time gets the same URL, so an answer that carries links keeps its ETag while nothing changed
 * (a filed e-mail's answer changed it every second).
 */
export function signDownload(
  app: Pick<AppContext, 'config' | 'clock' | 'downloadKey'>,
  target: DownloadTarget,
  ttlSeconds: number = app.config.signedUrlTtlSeconds,
): SignedDownload {
  if (!contentTypePattern.test(target.contentType)) throw new Error(`Invalid content type: ${target.contentType}`);
  if (!target.fileName || !target.blobKey) throw new Error('A signed download needs a blob key and a file name');
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1) throw new Error(`Invalid TTL: ${ttlSeconds}`);
  const step = Math.ceil(ttlSeconds / 10);
  const expires = Math.floor(app.clock.now().getTime() / 1000 / step) * step + ttlSeconds;
  const query = new URLSearchParams({
    type: target.contentType,
    expires: String(expires),
    signature: signatureOf(app.downloadKey, target, expires),
  });
  return {
    url: `${app.config.publicUrl}${canonicalPath(target)}?${query}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

/** Whether a presented URL is one we signed and has not expired yet. */
export function verifyDownload(
  app: Pick<AppContext, 'clock' | 'downloadKey'>,
  presented: { blobKey: string; fileName: string; contentType?: string; expires?: string; signature?: string },
): presented is DownloadTarget & { expires: string; signature: string } {
  const { contentType, expires, signature } = presented;
  if (!contentType || !expires || !signature || !/^\d{1,12}$/.test(expires)) return false;
  const expected = Buffer.from(signatureOf(app.downloadKey, { ...presented, contentType }, Number(expires)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  return app.clock.now().getTime() < Number(expires) * 1000;
}
