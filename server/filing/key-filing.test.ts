import { expect, it } from 'vitest';
import { configureFixtureServer } from '../../test/fixture-server.js';
import { receiverForFile, verified } from '../webhooks/webhooks.fixtures.js';
import { emailsPath, f, fileRaw, rfiId, server } from './filing.fixtures.js';
import { mime } from './messages.fixtures.js';

// Server-side ingestion: an API key holding `email:file` files e-mail into the projects it reaches, and the
// answer, the activity and the `email.filed` event say the key filed it.

configureFixtureServer({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' } });

const receiver = receiverForFile();

/** Raw MIME of a new message (its own Message-ID). */
const message = (subject: string) => mime({ messageId: `<${subject.replace(/\W/g, '-')}@ingest.test>`, subject });

it('a key holding email:file files into its project; the answer, activity and webhook name the key', async () => {
  const hook = await server.call(`/v1/organization/${f.orgA.id}/webhooks`, {
    method: 'POST',
    token: f.admin.token,
    json: { url: receiver.url, events: ['email.filed'] },
  });
  expect(hook.status).toBe(201);
  const key = await f.client(['email:file', 'email:read'], { orgs: [f.orgA.id] });
  const keyAsFiler = { kind: 'apiKey', id: key.id, name: 'test key', email: 'tests@sitefile.test' };
  const before = receiver.received.length;

  const filed = await fileRaw(message('Ingested pile cap report'), {
    token: key.token,
    path: `${emailsPath()}?documentId=${rfiId}`,
  });
  expect(filed.status).toBe(201);
  expect(filed.body.filedBy).toEqual(keyAsFiler);

  // A person reading it later sees the key as its filer, in the detail and the project's list.
  const detail = await server.call(`${emailsPath()}/${filed.body.id}`, { token: f.member.token });
  expect(detail.body.filedBy).toEqual(keyAsFiler);
  const list = await server.call(emailsPath(), { token: f.member.token });
  expect(list.body.data.find((e: { id: string }) => e.id === filed.body.id)?.filedBy).toEqual(keyAsFiler);

  const activity = await server.call(`/v1/organization/${f.orgA.id}/activity?action=email_filed`, {
    token: f.admin.token,
  });
  const entry = activity.body.data.find(
    (a: { details: { filedEmailId?: string } }) => a.details.filedEmailId === filed.body.id,
  );
  expect(entry?.actor).toEqual({ uid: key.id, name: 'test key', email: 'tests@sitefile.test' });

  const [request] = (await receiver.waitForRequests(before + 1)).slice(before);
  expect(verified(hook.body.data.secret, request!)).toMatchObject({
    type: 'email.filed',
    data: { id: filed.body.id, filedBy: keyAsFiler },
  });
  await server.call(`/v1/organization/${f.orgA.id}/webhooks/${hook.body.data.id}`, {
    method: 'DELETE',
    token: f.admin.token,
  });
});

it('a key holding email:file for one project files there only', async () => {
  const key = await f.client(['email:file'], { projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id }] });
  expect((await fileRaw(message('Scoped ingest A1'), { token: key.token })).status).toBe(201);
  const elsewhere = await fileRaw(message('Scoped ingest A2'), { token: key.token, path: emailsPath(f.projectA2.id) });
  expect(elsewhere.status).toBe(403);
});

it('a key without email:file gets 403 naming the permission it needs', async () => {
  const key = await f.client(['email:read', 'document:read'], { orgs: [f.orgA.id] });
  const res = await fileRaw(message('Refused ingest'), { token: key.token });
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({
    errorCode: 'forbidden',
    details: [{ path: 'permissions', message: 'Needs email:file, which this token does not hold' }],
  });
});
