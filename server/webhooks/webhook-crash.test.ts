// Nothing acknowledged is lost across a kill -9: the server runs as a child process (server/main.ts, as `npm run
// dev` does), an e-mail is filed (answered 201), the process is killed with SIGKILL before the receiver
// acknowledged the event (its first attempt held open by the receiver), and after a restart on the same database
// the receiver gets it, signed, with the same webhook-id.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresDatabase, freePort, keepsContract } from '../../test/harness.js';
import { loadKeyRing } from '../auth/keys.js';
import { createTokenService } from '../auth/tokens.js';
import { systemClock } from '../clock.js';
import { openDatabase } from '../db/connection.js';
import { mime } from '../filing/messages.fixtures.js';
import { createOrganization, createProject } from '../organizations/service.js';
import { repoRoot } from '../paths.js';
import { createUser } from '../users/service.js';
import { insertWebhook } from './queries.js';
import { type Receiver, startReceiver, verified } from './webhooks.fixtures.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-webhook-crash-'));
const signingKey = { id: 'crash', secret: 'crash-test-signing-key-0123456789abcdef' };
const publicUrl = 'http://sitefile.test';
const secret = `whsec_${randomBytes(32).toString('base64')}`;
/** A database of this file's own, dropped at the end. */
let scratch: { url: string; drop(): Promise<void> };

let receiver: Receiver;
let ids: { orgId: string; projectId: string; userId: string; webhookId: string };

beforeAll(async () => {
  receiver = await startReceiver();
  scratch = await createPostgresDatabase({ migrated: true });
  const database = await openDatabase({ databaseUrl: scratch.url });
  const org = await createOrganization(database.db, { name: 'Harbor Construction' });
  const project = await createProject(database.db, { organizationId: org.id, name: 'Pier 9 Terminal' });
  const user = await createUser(database.db, {
    email: 'admin@harbor.test',
    name: 'Ada Admin',
    memberships: [{ orgId: org.id, role: 'admin' }],
  });
  const webhook = await insertWebhook(database.db, {
    id: 'whk_crash',
    organizationId: org.id,
    url: receiver.url,
    events: ['email.filed'],
    secret,
    createdById: user.id,
  });
  ids = { orgId: org.id, projectId: project.id, userId: user.id, webhookId: webhook.id };
  await database.close();
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  await scratch?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Starts server/main.ts on `port` and resolves once it printed its banner (where it runs). */
function startChild(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: scratch.url,
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      LOG_LEVEL: 'warn',
      JWT_SIGNING_KEY: signingKey.secret,
      JWT_SIGNING_KEY_ID: signingKey.id,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
      // An attempt waits at most 1 s, so a dead process's claim is taken over after 3 s.
      WEBHOOK_TIMEOUT_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('API reference')) resolve(child);
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before starting:\n${output}`)));
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

it('delivers an e-mail filed just before a kill -9, after the restart', async () => {
  const port = await freePort();
  const token = createTokenService({
    keys: loadKeyRing({ dataDir: 'memory', fixed: signingKey }),
    clock: systemClock,
    publicUrl,
  }).sign(ids.userId, 'user').token;
  const base = `http://127.0.0.1:${port}/v1/organization/${ids.orgId}`;

  // The receiver holds every request without answering: nothing is acknowledged before the kill.
  receiver.hang(true);
  const first = await startChild(port);
  const filed = await fetch(`${base}/project/${ids.projectId}/emails`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'message/rfc822' },
    body: mime({ messageId: '<crash-1@acme-eng.test>', subject: 'Filed before the crash' }),
  });
  expect(filed.status).toBe(201);
  await keepsContract('POST', filed);
  const filedId = ((await filed.json()) as { id: string }).id;
  // The first attempt is under way (the receiver holds it) when the process dies: its claim must be taken over.
  await receiver.waitForRequests(1);
  await killed(first);
  const heldBeforeKill = receiver.received.length;

  receiver.hang(false);
  const second = await startChild(port);
  try {
    const [delivered] = (await receiver.waitForRequests(heldBeforeKill + 1)).slice(heldBeforeKill);
    expect(delivered!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    const payload = verified(secret, delivered!);
    expect(payload).toMatchObject({ type: 'email.filed', data: { id: filedId, subject: 'Filed before the crash' } });

    // The delivery log shows it delivered (after any attempt the killed process had started).
    for (;;) {
      const res = await fetch(`${base}/webhooks/${ids.webhookId}/deliveries`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await keepsContract('GET', res);
      const [delivery] = ((await res.json()) as { data: { state: string; eventId: string }[] }).data;
      if (delivery?.state === 'succeeded') {
        expect(delivery.eventId).toBe(delivered!.headers['webhook-id']);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await killed(second);
  }
}, 120_000);
