// Two instances of the server, as on two machines: each its own DATA_DIR, database pool, Redis connections and
// blob-store client, sharing one PostgreSQL database, one Redis and one S3 server. Nothing is shared in memory
// (every cache hangs off an instance's own context or pool), so what one instance made is found by the other
// only through what they share.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../server/db/connection.js';
import { drawingRevisions, drawings } from '../server/db/schema.js';
import { sheetPdf } from '../server/drawings/sheets.fixtures.js';
import { mime } from '../server/filing/messages.fixtures.js';
import { newId } from '../server/ids.js';
import {
  createFixtures,
  createPostgresDatabase,
  type Fixtures,
  startTestServer,
  type TestServer,
  testRedisUrl,
} from './harness.js';
import { startTestS3Server, type TestS3Server } from './s3-server.js';

const newDir = () => mkdtempSync(path.join(tmpdir(), 'sitefile-instance-'));

/** How the two instances keep files: one bucket, or one blob folder both mount (as over NFS). */
const stores = {
  'an S3 bucket, each instance on its own DATA_DIR': (s3: TestS3Server) => [
    { DATA_DIR: newDir(), ...s3.env },
    { DATA_DIR: newDir(), ...s3.env },
  ],
  'the file store on a volume both instances mount': () => {
    const shared = newDir();
    return [{ DATA_DIR: shared }, { DATA_DIR: shared }];
  },
};

describe('two instances', () => {
  let s3: TestS3Server;
  beforeAll(async () => {
    s3 = await startTestS3Server();
  });
  afterAll(() => s3?.close());

  describe.each(Object.keys(stores) as (keyof typeof stores)[])('on %s', (store) => {
    let a: TestServer;
    let b: TestServer;
    let f: Fixtures;
    let dropDatabase: () => Promise<void>;

    beforeAll(async () => {
      const created = await createPostgresDatabase();
      dropDatabase = created.drop;
      // Both start at once on the empty database: one migrates, the other waits for it.
      const [databaseA, databaseB] = await Promise.all(
        [1, 2].map(async () => {
          const database = await openDatabase({ databaseUrl: created.url });
          await database.migrate();
          return database;
        }),
      );
      const shared = {
        DATABASE_URL: created.url,
        REDIS_URL: testRedisUrl,
        RATE_LIMIT_KEY_PREFIX: `sitefile:rl:${path.basename(newDir())}:`,
      };
      const [envA, envB] = stores[store](s3);
      a = await startTestServer({ database: databaseA, env: { ...shared, ...envA } });
      b = await startTestServer({ database: databaseB, env: { ...shared, ...envB } });
      f = await createFixtures(a);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await a?.database.close();
      await b?.database.close();
      await dropDatabase?.();
    });

    /** A signed URL (made with the public origin) fetched from `server`, with no bearer token. */
    const download = async (server: TestServer, url: string) => {
      const { pathname, search } = new URL(url);
      const res = await server.request(pathname + search);
      return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
    };

    it("accepts each one's tokens on the other", async () => {
      // A person's token signed by A, and a key's token issued by B's token endpoint.
      expect((await b.call('/v1/me', { token: f.member.token })).body.email).toBe('member@harbor.test');
      const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
      const issued = await b.call('/v1/oauth/token', {
        method: 'POST',
        json: { client_id: key.clientId, client_secret: key.secret },
      });
      expect(issued.status).toBe(200);
      const onA = await a.call(`/v1/organization/${f.orgA.id}`, { token: issued.body.access_token });
      expect(onA.status).toBe(200);
      expect(onA.body.name).toBe('Harbor Construction');
    });

    it("serves each one's filed e-mails and their signed downloads on the other", async () => {
      const sketch = Buffer.from('%PDF-1.4\nsketch of pile cap P-7\n%%EOF\n');
      const path = `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails`;
      for (const [filer, reader, n] of [[a, b, 1] as const, [b, a, 2] as const]) {
        const raw = mime({
          messageId: `<pile-cap-${store.length}-${n}@acme-eng.test>`,
          subject: `Pile cap reinforcement, round ${n}`,
          attachments: [{ name: 'sketch.pdf', type: 'application/pdf', content: sketch }],
        });
        const filed = await filer.call(path, {
          method: 'POST',
          token: f.member.token,
          headers: { 'content-type': 'message/rfc822' },
          body: raw,
        });
        expect(filed.status).toBe(201);
        const detail = await reader.call(`${path}/${filed.body.id}`, { token: f.member.token });
        expect(detail.status).toBe(200);
        expect(detail.body.subject).toBe(`Pile cap reinforcement, round ${n}`);
        // Signed by the reader, served by the filer; and the other way round.
        expect(await download(filer, detail.body.original.url)).toEqual({ status: 200, bytes: raw });
        const attachment = detail.body.attachments[0].download.url;
        expect(await download(reader, attachment)).toEqual({ status: 200, bytes: sketch });
      }
    });

    it('bundles on one instance the drawings stored by the other, and serves the bundle on both', async () => {
      const db = a.database.db;
      for (const [width, number] of [
        [410, 'A-1'],
        [420, 'A-2'],
        [430, 'A-3'],
      ] as const) {
        // Sheets stored through A's blob store.
        const stored = await a.app.context.blobs.put(await sheetPdf(width, `${number} ${store}`));
        const drawingId = newId('drw');
        const base = { organizationId: f.orgA.id };
        await db.insert(drawings).values({ ...base, id: drawingId, projectId: f.projectA2.id, number, title: number });
        await db.insert(drawingRevisions).values({
          ...base,
          id: newId('rev'),
          drawingId,
          revision: 'A',
          sequence: 1,
          blobKey: stored.key,
          fileName: `${number}.pdf`,
          fileSize: stored.size,
          uploadedAt: a.clock.now(),
        });
      }
      const key = await f.client(['document:read'], { orgs: [f.orgA.id] });
      const bundled = await b.call(`/v1/organization/${f.orgA.id}/project/${f.projectA2.id}/drawings/bundle`, {
        method: 'POST',
        token: key.token,
        json: {},
      });
      expect(bundled.status).toBe(200);
      expect(bundled.body).toMatchObject({ drawingCount: 3, skippedDrawings: [] });
      for (const server of [a, b]) {
        const { status, bytes } = await download(server, bundled.body.downloadUrl);
        expect(status).toBe(200);
        const pages = (await PDFDocument.load(bytes)).getPages().map((page) => page.getWidth());
        expect(pages).toEqual([410, 420, 430]);
      }
    });

    it("ends a deleted key's access on the other instance as soon as Redis delivers the invalidation", async () => {
      const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
      const read = () => b.call(`/v1/organization/${f.orgA.id}`, { token: key.token });
      expect((await read()).status).toBe(200); // B now holds the caller in its cache
      const deleted = await a.call(`/v1/organization/${f.orgA.id}/clients/${key.id}`, {
        method: 'DELETE',
        token: f.admin.token,
      });
      expect(deleted.status).toBe(204);
      // A publishes the invalidation after its commit and B hears it over Redis a moment later (pub/sub
      // delivery, about a millisecond), not after its cache's TTL (AUTH_CACHE_TTL_SECONDS, 30 s here).
      const deadline = Date.now() + 1000;
      let status = (await read()).status;
      while (status === 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await read()).status;
      }
      expect(status).toBe(401);
    });
  });
});
