import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configureFixtureServer } from '../../test/fixture-server.js';
import { emailsPath, f, fileRaw, server } from '../filing/filing.fixtures.js';
import { mime } from '../filing/messages.fixtures.js';

// Unfiling lets go of an e-mail's blobs; the sweep deletes those nothing refers to once the grace period (36 s
// here) has passed by the app's clock, and keeps a blob another filing still refers to.

configureFixtureServer({ env: { BLOB_SWEEP_GRACE_HOURS: '0.01', BLOB_SWEEP_INTERVAL_SECONDS: '1' } });

const GRACE_MS = 36_000;
const keyOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const blobFile = (key: string) => path.join(server.config.dataDir, 'blobs', key.slice(0, 2), key.slice(2, 4), key);

/** Files an e-mail with these attachments into project A1; answers its id and its stored .eml's blob file. */
async function fileWith(subject: string, attachments: { name: string; content: Buffer }[]) {
  const raw = mime({
    messageId: `<${randomUUID()}@acme-eng.test>`,
    subject,
    attachments: attachments.map((a) => ({ ...a, type: 'application/pdf' })),
  });
  const res = await fileRaw(raw);
  expect(res.status).toBe(201);
  const eml = blobFile(keyOf(raw));
  expect(existsSync(eml)).toBe(true);
  return { id: res.body.id as string, eml };
}

const unfile = async (id: string) => {
  const res = await server.call(`${emailsPath()}/${id}`, { method: 'DELETE', token: f.member.token });
  expect(res.status).toBe(204);
};

const pdfSaying = (text: string) => Buffer.from(`%PDF-1.4\n${text}\n%%EOF\n`);

describe('blob sweep', () => {
  it('deletes an unfiled e-mail’s blobs after the grace period, keeping one another filing still refers to', async () => {
    const shared = pdfSaying(`shared drawing ${randomUUID()}`);
    const own = pdfSaying(`own sketch ${randomUUID()}`);
    const first = await fileWith('Level 3 slab pour', [
      { name: 'shared.pdf', content: shared },
      { name: 'own.pdf', content: own },
    ]);
    const second = await fileWith('Level 3 slab pour (copy to the engineer)', [
      { name: 'shared.pdf', content: shared },
    ]);

    await unfile(first.id);
    // Past the grace period by the real clock too: a blob's write time is its file's (real) modification time, and
    // the test's clock stood still since the server started, perhaps seconds before these filings.
    server.clock.set(new Date(Date.now() + GRACE_MS + 1000));
    // The first unfiling's grace period is over; this one's has just begun.
    const later = await fileWith('Unfiled later, still in its grace period', []);
    await unfile(later.id);

    // One sweep deletes the released blobs one after another: wait for both of the first filing's own.
    await expect
      .poll(() => [existsSync(first.eml), existsSync(blobFile(keyOf(own)))], { timeout: 15_000, interval: 250 })
      .toEqual([false, false]);
    expect(existsSync(blobFile(keyOf(shared)))).toBe(true);
    expect(existsSync(second.eml)).toBe(true);
    expect(existsSync(later.eml)).toBe(true);

    // Still filed: the shared attachment downloads from the second filing.
    const detail = await server.call(`${emailsPath()}/${second.id}`, { token: f.member.token });
    expect(detail.status).toBe(200);
  });
});
