import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { openDatabase } from '../db/connection.js';
import { repoRoot } from '../paths.js';

// The embedded mode end to end: a server on its own DATA_DIR (database, blobs, generated keys) files an e-mail
// (two blobs: the raw message and its attachment);
// `backup` writes one file (mode 0600); `restore` makes a new DATA_DIR of it; a server there answers the first
// one's tokens and signed download URLs with the same records and bytes.

interface Run {
  code: number;
  stdout: string;
  stderr: string[];
}

function cli(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', 'server/cli/main.ts', ...args],
      { cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env } },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          stdout,
          stderr: stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn')),
        }),
    );
  });
}

const scratch = mkdtempSync(path.join(tmpdir(), 'sitefile-backup-test-'));
const original = path.join(scratch, 'original');
const restored = path.join(scratch, 'restored');
const backupFile = path.join(scratch, 'nightly.tar.gz');
// Keys generated into DATA_DIR/keys (not the harness's fixed JWT_SIGNING_KEY): the backup must carry them.
const ownKeys = (dataDir: string) => ({ DATA_DIR: dataDir, JWT_SIGNING_KEY: '', JWT_SIGNING_KEY_ID: '' });

async function serverOn(dataDir: string): Promise<TestServer> {
  const database = await openDatabase({ dataDir });
  await database.migrate();
  const server = await startTestServer({ database, env: ownKeys(dataDir) });
  return {
    ...server,
    async close() {
      await server.close();
      await database.close();
    },
  };
}

const drawing = Buffer.from('%PDF-1.4\npile cap P-7, rev C\n%%EOF\n');
let f: Fixtures;
let emailPath: string;
let filed: { subject: string; attachmentUrl: string; originalUrl: string };

beforeAll(async () => {
  const server = await serverOn(original);
  try {
    f = await createFixtures(server);
    emailPath = `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails`;
    const res = await server.call(emailPath, {
      method: 'POST',
      token: f.member.token,
      json: {
        subject: 'Pile cap P-7 rev C',
        from: 'rita@acme-eng.test',
        to: ['member@harbor.test'],
        internetMessageId: '<p7-rev-c@acme-eng.test>',
        bodyText: 'Revised pile cap attached.',
        attachments: [{ name: 'P-7.pdf', contentType: 'application/pdf', contentBase64: drawing.toString('base64') }],
      },
    });
    expect(res.status).toBe(201);
    emailPath = `${emailPath}/${res.body.id}`;
    const detail = await server.call(emailPath, { token: f.member.token });
    filed = {
      subject: detail.body.subject,
      attachmentUrl: detail.body.attachments[0].download.url,
      originalUrl: detail.body.original.url,
    };
  } finally {
    await server.close();
  }
}, 120_000);
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** The signed URL as a path on `server` (URLs carry the configured public origin). */
const bytesOf = async (server: TestServer, url: string) => {
  const parsed = new URL(url);
  const res = await server.request(parsed.pathname + parsed.search);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
};

describe('npm run cli -- backup / restore', () => {
  it('round-trips the database, blobs and keys: the restored server serves the same records, files and tokens', async () => {
    const made = await cli(['backup', '--out', backupFile, '--json'], original);
    expect(made.code, made.stderr.join('\n')).toBe(0);
    const summary = JSON.parse(made.stdout);
    expect(summary).toMatchObject({ file: backupFile, blobs: 2, keys: ['downloads.key', 'jwt.json'] });
    expect(summary.bytes).toBeGreaterThan(1000);
    // It holds the signing keys and the whole database: its owner's only.
    expect((await stat(backupFile)).mode & 0o777).toBe(0o600);
    expect((await readdir(scratch)).sort()).toEqual(['nightly.tar.gz', 'original']); // no staging left behind

    const back = await cli(['restore', '--from', backupFile, '--json'], restored);
    expect(back.code, back.stderr.join('\n')).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({ blobs: 2, keys: ['downloads.key', 'jwt.json'] });
    expect((await readdir(restored)).sort()).toEqual(['blobs', 'keys', 'postgres']);
    expect(await readFile(path.join(restored, 'keys/jwt.json'), 'utf8')).toBe(
      await readFile(path.join(original, 'keys/jwt.json'), 'utf8'),
    );

    const server = await serverOn(restored);
    try {
      // A token the first server signed, read by the restored one.
      const detail = await server.call(emailPath, { token: f.member.token });
      expect(detail.status).toBe(200);
      expect(detail.body.subject).toBe(filed.subject);
      // Download URLs the first server signed, and the bytes behind them.
      const attachment = await bytesOf(server, filed.attachmentUrl);
      expect(attachment.status).toBe(200);
      expect(attachment.bytes.equals(drawing)).toBe(true);
      expect((await bytesOf(server, filed.originalUrl)).bytes.toString()).toContain(
        'Message-ID: <p7-rev-c@acme-eng.test>',
      );
      // Still a working database: filing again is a duplicate of the restored record.
      const again = await server.call(emailPath.replace(/\/[^/]+$/, ''), {
        method: 'POST',
        token: f.member.token,
        json: {
          subject: 'x',
          from: 'rita@acme-eng.test',
          to: [],
          internetMessageId: '<p7-rev-c@acme-eng.test>',
          bodyText: '',
        },
      });
      expect(again.status).toBe(200);
      expect(again.body.duplicate).toBe(true);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('refuses to restore over a DATA_DIR that holds anything, and leaves it as it was', async () => {
    const busy = path.join(scratch, 'busy');
    const marker = path.join(busy, 'notes.txt');
    await rm(busy, { recursive: true, force: true });
    await mkdir(busy);
    await writeFile(marker, 'keep me');
    const run = await cli(['restore', '--from', backupFile], busy);
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([expect.stringMatching(/^error: .*busy \(DATA_DIR\) is not empty/)]);
    expect(await readdir(busy)).toEqual(['notes.txt']);
  }, 60_000);

  it('refuses a file that is not a backup, leaving the directory empty', async () => {
    const junk = path.join(scratch, 'junk.tar.gz');
    writeFileSync(junk, 'not a tar at all');
    const target = path.join(scratch, 'from-junk');
    const run = await cli(['restore', '--from', junk], target);
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([expect.stringMatching(/^error: .*is not a Sitefile backup/)]);
    expect(await readdir(target).catch(() => [])).toEqual([]);
  }, 60_000);

  it('points a PostgreSQL deployment to its own tools', async () => {
    const run = await cli(['backup', '--out', path.join(scratch, 'pg.tar.gz')], restored, {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
      JWT_SIGNING_KEY: 'backup-test-signing-key-0123456789abcdef',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([expect.stringMatching(/^error: backup and restore cover the embedded mode .*pg_dump/)]);
  }, 60_000);

  it('refuses to back up while a server has the embedded database open', async () => {
    const database = await openDatabase({ dataDir: restored });
    try {
      const run = await cli(['backup', '--out', path.join(scratch, 'open.tar.gz')], restored);
      expect(run.code).toBe(1);
      expect(run.stderr).toEqual([
        expect.stringMatching(/^error: the embedded database in .* is open: stop the server/),
      ]);
    } finally {
      await database.close();
    }
  }, 60_000);
});
