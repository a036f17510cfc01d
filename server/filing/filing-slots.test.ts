import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { emailsPath, f, outsider, server } from './filing.fixtures.js';
import { mime } from './messages.fixtures.js';

// Issue 36 (high 3): the instance files two e-mails at once (FILINGS_MAX), and took a slot before the upload had
// arrived, so two uploads that never finish held both for up to HTTP_REQUEST_TIMEOUT_MS, renewably. A slot is now
// taken once the body has all arrived.

/** A filing by `token` whose client sends its headers and part of its body, then nothing more. */
async function stalledUpload(token: string): Promise<{ socket: Socket; closed: () => boolean }> {
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
  let closed = false;
  socket.on('error', () => undefined);
  socket.once('close', () => {
    closed = true;
  });
  await new Promise((resolve) => socket.once('connect', resolve));
  await new Promise((resolve) =>
    socket.write(
      `POST ${emailsPath()} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: message/rfc822\r\nContent-Length: 1000000\r\n\r\nFrom: a@b.test\r\nSubject: half a message\r\n',
      resolve,
    ),
  );
  return { socket, closed: () => closed };
}

it("two uploads that never finish leave another tenant's filing answered within 5 s", async () => {
  const stalled = await Promise.all([stalledUpload(f.member.token), stalledUpload(f.member.token)]);
  try {
    // Time for the two to pass their access checks, where the slot used to be taken.
    await sleep(1000);
    const filing = await server.call(emailsPath(f.projectB1.id, f.orgB.id), {
      method: 'POST',
      token: outsider.token,
      headers: { 'content-type': 'message/rfc822' },
      body: mime({ messageId: '<other-tenant@ridgeline.test>' }),
      signal: AbortSignal.timeout(5000),
    });
    expect(filing.status).toBe(201);
    expect(stalled.map((upload) => upload.closed())).toEqual([false, false]);
  } finally {
    for (const { socket } of stalled) socket.destroy();
  }
}, 30_000);
