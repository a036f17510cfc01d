// Filing e-mails on the S3 blob store beside the file store: the same raw messages (a short body and one PDF
// attachment of `--attachment-kb`) filed through POST …/emails on two servers of this process over one database,
// one keeping blobs in DATA_DIR, the other in an s3rver bucket on this machine. The two alternate message by
// message, so a busy machine slows both alike; the ratio is what matters. s3rver runs in this process: its work
// (what a remote S3 would add as latency) is in the S3 figure.
//
//   npx tsx bench/filing.ts [--messages 60] [--attachment-kb 500]
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/connection.js';
import { mime } from '../server/filing/messages.fixtures.js';
import { createOrganization, createProject } from '../server/organizations/service.js';
import { type RunningServer, startServer } from '../server/server.js';
import { createUser } from '../server/users/service.js';
import { startTestS3Server } from '../test/s3-server.js';
import { median, percentile } from './measure.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '60' },
    'attachment-kb': { type: 'string', default: '500' },
  },
});

const database = await openDatabase({ dataDir: mkdtempSync(path.join(tmpdir(), 'sitefile-bench-db-')) });
await database.migrate();
const org = await createOrganization(database.db, { name: 'Bench Builders' });
const project = await createProject(database.db, { organizationId: org.id, name: 'Filing bench' });
const member = await createUser(database.db, {
  email: 'filer@bench.test',
  name: 'Fay Filer',
  memberships: [{ orgId: org.id, role: 'member' }],
});
const s3 = await startTestS3Server();
const serverOn = (env: Record<string, string>) =>
  startServer({
    config: loadConfig({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitefile-bench-filing-')),
      LOG_LEVEL: 'silent',
      JWT_SIGNING_KEY: 'bench-signing-key-0123456789abcdefghijklmnop',
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    }),
    db: database.db,
    log: pino({ level: 'silent' }),
    port: 0,
  });
const servers = { file: await serverOn({}), s3: await serverOn(s3.env) };

const attachmentBytes = Number(values['attachment-kb']) * 1024;
let sequence = 0;
/** Files one new message (its own Message-ID and attachment bytes) and answers the milliseconds it took. */
async function fileOne(server: RunningServer): Promise<number> {
  sequence++;
  const raw = mime({
    messageId: `<bench-${sequence}@acme-eng.test>`,
    subject: `Pile cap reinforcement ${sequence}`,
    attachments: [{ name: `sketch-${sequence}.pdf`, type: 'application/pdf', content: randomBytes(attachmentBytes) }],
  });
  const token = server.app.context.tokens.sign(member.id, 'user').token;
  const t0 = performance.now();
  const res = await fetch(`${server.url}/v1/organization/${org.id}/project/${project.id}/emails`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'message/rfc822' },
    body: raw,
  });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 201) throw new Error(`filing answered ${res.status}`);
  return ms;
}

// One warm-up filing each (module loading, the SDK, connections), then alternate.
await fileOne(servers.file);
await fileOne(servers.s3);
const times = { file: [] as number[], s3: [] as number[] };
for (let i = 0; i < Number(values.messages); i++) {
  times.file.push(await fileOne(servers.file));
  times.s3.push(await fileOne(servers.s3));
}
const line = (name: string, xs: number[]) =>
  `  ${name.padEnd(10)} p50 ${median(xs).toFixed(1)} ms, p90 ${percentile(xs, 0.9).toFixed(1)} ms`;
console.log(
  [
    `Filing ${values.messages} messages of ${Math.round((attachmentBytes * 4) / 3 / 1024)} KB (one ${values['attachment-kb']} KB attachment) on each store:`,
    line('file store', times.file),
    line('S3', times.s3),
    `  ratio S3/file store: p50 ${(median(times.s3) / median(times.file)).toFixed(2)}x, p90 ${(percentile(times.s3, 0.9) / percentile(times.file, 0.9)).toFixed(2)}x`,
  ].join('\n'),
);
await servers.file.close();
await servers.s3.close();
await s3.close();
await database.close();
