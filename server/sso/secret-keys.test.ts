import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureFixtureServer, f, server, startInstance } from '../../test/fixture-server.js';
import type { TestServer } from '../../test/harness.js';
import { commandLineActor } from '../audit/service.js';
import { createBrowser, pkce } from '../oauth/browser.fixtures.js';
import { ADDIN_CLIENT_ID } from '../oauth/first-party.js';
import { type IdentityProvider, startIdentityProvider } from './identity-provider.fixtures.js';
import { findSsoConnection } from './queries.js';
import { seal, sealingKeys, unseal } from './sealed-secret.js';
import { resealSsoSecrets, verifySsoDomain } from './service.js';

// The SSO client secret sealed under SECRETS_KEYS, not the token signing key: instances over one database with
// different keys, as an operator rotating them would run.
const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');
const keyC = randomBytes(32).toString('base64');
const env = (keys: string) => ({ SSO_ALLOW_HTTP_ISSUERS: '1', SECRETS_KEYS: keys });
configureFixtureServer({ env: env(keyA) });

let idp: IdentityProvider;
beforeAll(async () => {
  idp = await startIdentityProvider(server);
  const res = await server.call(`/v1/organization/${f.orgA.id}/sso`, {
    method: 'PUT',
    token: f.admin.token,
    json: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, domains: ['harbor.test'] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // Staff approval, as `npm run cli -- verify-domain` records it: a pending domain signs no one in.
  await verifySsoDomain(server.app.context, f.orgA.id, 'harbor.test', 'operator', commandLineActor());
});
afterAll(async () => {
  await idp?.close();
});

/** "Sign in with your organization" on the add-in's sign-in page of `instance`: its answer. */
async function startSignIn(instance: TestServer) {
  const browser = createBrowser(instance);
  const redirectUri = encodeURIComponent(`${instance.config.publicUrl}/addin/auth-callback.html`);
  const page = await browser.get(
    `${instance.config.publicUrl}/oauth/authorize?response_type=code&code_challenge_method=S256&client_id=${ADDIN_CLIENT_ID}&redirect_uri=${redirectUri}&code_challenge=${pkce().challenge}`,
  );
  return browser.post(page, { step: 'sso', email: 'member@harbor.test' });
}

const storedSecret = async () => (await findSsoConnection(server.app.context.db, f.orgA.id))!.clientSecretSealed;
const keys = (...configured: string[]) =>
  sealingKeys(
    configured.map((k) => Buffer.from(k, 'base64')),
    server.app.context.cursorKey,
  );

describe('sealing keys', () => {
  it('opens a value sealed under A with [B, A], and names the key it was sealed with', () => {
    const sealed = seal(keys(keyA), 'the secret');
    expect(unseal(keys(keyB, keyA), sealed)).toBe('the secret');
    expect(sealed.split(':')[0]).not.toBe(seal(keys(keyB, keyA), 'the secret').split(':')[0]);
  });

  it('opens a value sealed before SECRETS_KEYS (under the signing secret) with any configured keys', () => {
    const sealed = seal(keys(), 'old secret');
    expect(unseal(keys(keyB), sealed)).toBe('old secret');
  });
});

describe('rotating SECRETS_KEYS', () => {
  it('signs in with [B, A]; after reseal-secrets with [B] alone; with an unknown key says to re-enter the secret', async () => {
    const rotated = await startInstance({ env: env(`${keyB},${keyA}`) });
    const started = await startSignIn(rotated);
    expect(started.status, started.html).toBe(303);
    expect(started.location).toContain(idp.issuer);

    // What `npm run cli -- reseal-secrets` runs, on the instance configured with [B, A]: audited as the operator.
    expect(await resealSsoSecrets(rotated.app.context, commandLineActor())).toEqual({ resealed: 1, unreadable: [] });
    expect(unseal(keys(keyB), await storedSecret())).toBe(idp.clientSecret);
    expect(await resealSsoSecrets(rotated.app.context, commandLineActor())).toEqual({ resealed: 0, unreadable: [] });
    const audit = await server.call(`/v1/organization/${f.orgA.id}/audit-events?action=sso.updated`, {
      token: f.admin.token,
    });
    expect(audit.body.data.map((e: { actor: { kind: string } }) => e.actor.kind)).toContain('cli');

    const onlyB = await startInstance({ env: env(keyB) });
    expect((await startSignIn(onlyB)).status).toBe(303);

    const wrong = await startInstance({ env: env(keyC) });
    const refused = await startSignIn(wrong);
    expect(refused.status).toBe(503);
    expect(refused.html).toContain('must enter the client secret again');
    // Saving the connection without a new secret there: a JSON answer with the same remedy, not a 500.
    const saved = await wrong.call(`/v1/organization/${f.orgA.id}/sso`, {
      method: 'PUT',
      token: f.admin.token,
      json: { issuer: idp.issuer, clientId: idp.clientId, domains: ['harbor.test'] },
    });
    expect(saved.status).toBe(503);
    expect(saved.body.error).toContain('must enter the client secret again');
  });

  it('re-seals a secret kept from an older key when the connection is next saved', async () => {
    const onA = await startInstance({ env: env(keyA) });
    const put = (instance: TestServer, extra: object = {}) =>
      instance.call(`/v1/organization/${f.orgA.id}/sso`, {
        method: 'PUT',
        token: f.admin.token,
        json: { issuer: idp.issuer, clientId: idp.clientId, domains: ['harbor.test'], ...extra },
      });
    expect((await put(onA, { clientSecret: idp.clientSecret })).status).toBe(200);
    const rotated = await startInstance({ env: env(`${keyB},${keyA}`) });
    expect((await put(rotated)).status).toBe(200);
    expect(unseal(keys(keyB), await storedSecret())).toBe(idp.clientSecret);
  });
});
