import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import type { SsoConnection, SsoConnectionInput, SsoDomain } from '../../shared/sso.js';
import { type AuditActor, recordAudit, recordChanges, recordSignIn } from '../audit/queries.js';
import type { AppContext } from '../context.js';
import type { Db, Tx } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { findOrganization } from '../organizations/queries.js';
import { findMember, findUserByEmail } from '../users/queries.js';
import { createUser } from '../users/service.js';
import { challengeName, challengeRecords, challengeValue } from './domain-challenge.js';
import {
  allSsoConnections,
  deleteSsoConnection,
  domainVerifiedElsewhere,
  findSsoConnection,
  findSsoConnectionByVerifiedDomain,
  findSsoDomain,
  findSsoDomains,
  insertSsoLogin,
  markSsoDomainVerified,
  replaceSsoDomains,
  type SsoConnectionRow,
  type SsoDomainRow,
  setSealedSecret,
  ssoDomainPending,
  takeSsoLogin,
  upsertSsoConnection,
} from './queries.js';
import { type SealingKeys, seal, sealedUnderOldKey, sealingKeys, unseal } from './sealed-secret.js';

export type SsoDeps = Pick<AppContext, 'db' | 'clock' | 'config' | 'cursorKey' | 'caches'>;

/** How long a person may take at the identity provider before the sign-in must start again. */
const LOGIN_LIFETIME_MS = 10 * 60 * 1000;
export const SSO_CALLBACK_PATH = '/oauth/sso/callback';
/** Entra ID's multi-tenant issuer: discovered through `organizations`, whose document names this template and whose
 *  ID tokens name the person's tenant (openid-client checks the token's `iss` against the template filled with `tid`). */
const ENTRA_TEMPLATE = 'https://login.microsoftonline.com/{tenantid}/v2.0';
const ENTRA_MULTI_TENANT = 'https://login.microsoftonline.com/organizations/v2.0';

export const ssoRedirectUri = (deps: Pick<AppContext, 'config'>) => `${deps.config.publicUrl}${SSO_CALLBACK_PATH}`;

/** The keys client secrets are sealed with (`SECRETS_KEYS`, then the one derived from the signing secret). */
export const secretKeysOf = (deps: Pick<AppContext, 'config' | 'cursorKey'>): SealingKeys =>
  sealingKeys(deps.config.secretsKeys, deps.cursorKey);

const toDomain = (row: SsoDomainRow): SsoDomain => ({
  domain: row.domain,
  status: row.verifiedAt ? 'verified' : 'pending',
  verifiedAt: row.verifiedAt?.toISOString() ?? null,
  verifiedBy: row.verifiedBy ?? null,
  txtName: challengeName(row.domain),
  txtValue: challengeValue(row.token),
});

const toConnection = (deps: SsoDeps, row: SsoConnectionRow, domains: SsoDomainRow[]): SsoConnection => ({
  issuer: row.issuer,
  clientId: row.clientId,
  domains: domains.map((d) => d.domain),
  domainStatus: domains.map(toDomain),
  requireSso: row.requireSso,
  redirectUri: ssoRedirectUri(deps),
  updatedAt: row.updatedAt.toISOString(),
});

/** A connection with its domains, as the audit log and the answers see it. */
type ConnectionState = SsoConnectionRow & { domains: string[] };
const withDomains = async (db: Db | Tx, row: SsoConnectionRow | undefined) =>
  row && { ...row, domains: (await findSsoDomains(db, row.organizationId)).map((d) => d.domain) };

/** What the audit log keeps of a connection: never the secret (a change to it shows as "rotated"). */
const audited = (row: ConnectionState) => ({
  issuer: row.issuer,
  clientId: row.clientId,
  clientSecret: row.clientSecretSealed === '' ? null : 'set',
  domains: row.domains,
  requireSso: row.requireSso,
});

/** The random value the admin publishes in DNS to prove the domain is theirs. */
const newToken = () => randomBytes(16).toString('hex');

async function assertOrganization(deps: SsoDeps, orgId: string): Promise<void> {
  if (!(await findOrganization(deps.db, orgId))) throw ApiError.notFound('Organization');
}

export async function getSsoConnection(deps: SsoDeps, orgId: string): Promise<SsoConnection | null> {
  await assertOrganization(deps, orgId);
  const row = await findSsoConnection(deps.db, orgId);
  return row ? toConnection(deps, row, await findSsoDomains(deps.db, orgId)) : null;
}

/** Connects (or reconnects) the organization's identity provider. Audited as `sso.configured` or `sso.updated`. */
export async function saveSsoConnection(
  deps: SsoDeps,
  orgId: string,
  input: SsoConnectionInput,
  actor: AuditActor,
): Promise<SsoConnection> {
  await assertOrganization(deps, orgId);
  const issuer = input.issuer.replace(/\/+$/, '');
  if (!deps.config.sso.allowHttpIssuers && !issuer.startsWith('https://')) {
    throw ApiError.badRequest('The issuer must be an https:// URL');
  }
  const domains = [...new Set(input.domains)];
  const claimed = await domainVerifiedElsewhere(deps.db, orgId, domains);
  if (claimed) throw new ApiError('conflict', `The domain ${claimed} is verified by another organization`);
  const now = deps.clock.now();
  const saved = await deps.db.transaction(async (tx) => {
    const before = await withDomains(tx, await findSsoConnection(tx, orgId));
    if (!before && input.clientSecret === undefined) {
      throw ApiError.badRequest('clientSecret is required when connecting an identity provider');
    }
    // A secret kept from before is re-sealed under the first key if an older one sealed it (key rotation).
    const keys = secretKeysOf(deps);
    const kept = before?.clientSecretSealed;
    const clientSecretSealed =
      input.clientSecret !== undefined
        ? seal(keys, input.clientSecret)
        : sealedUnderOldKey(keys, kept!)
          ? seal(keys, unseal(keys, kept!))
          : kept!;
    const after = await upsertSsoConnection(
      tx,
      {
        organizationId: orgId,
        issuer,
        clientId: input.clientId,
        clientSecretSealed,
        requireSso: input.requireSso,
      },
      now,
    );
    await replaceSsoDomains(
      tx,
      orgId,
      domains.map((domain) => ({ domain, token: newToken() })),
      now,
    );
    const changes = recordChanges(before, { ...after, domains }, audited);
    if (before && input.clientSecret !== undefined) changes.clientSecret = { before: 'set', after: 'rotated' };
    await recordAudit(tx, actor, {
      organizationId: orgId,
      action: before ? 'sso.updated' : 'sso.configured',
      target: { type: 'sso_connection', id: orgId },
      changes,
      at: now,
    });
    return toConnection(deps, after, await findSsoDomains(tx, orgId));
  });
  return saved;
}

/**
 * Re-seals every stored client secret sealed under an older key with the first of `SECRETS_KEYS`, so that the older
 * key can then be dropped. One transaction; each re-sealed connection is audited `sso.updated` (clientSecret:
 * resealed). A secret no configured key opens is left as it is and named in `unreadable` (its organization's admin
 * must enter it again): one lost secret must not keep the others under a key the operator is retiring.
 */
export async function resealSsoSecrets(
  deps: Pick<AppContext, 'db' | 'clock' | 'config' | 'cursorKey'>,
  actor: AuditActor,
): Promise<{ resealed: number; unreadable: string[] }> {
  const keys = secretKeysOf(deps);
  return deps.db.transaction(async (tx) => {
    let count = 0;
    const unreadable: string[] = [];
    for (const row of await allSsoConnections(tx)) {
      if (!sealedUnderOldKey(keys, row.clientSecretSealed)) continue;
      const secret = openedOrUndefined(keys, row.clientSecretSealed);
      if (secret === undefined) {
        unreadable.push(row.organizationId);
        continue;
      }
      await setSealedSecret(tx, row.organizationId, seal(keys, secret));
      await recordAudit(tx, actor, {
        organizationId: row.organizationId,
        action: 'sso.updated',
        target: { type: 'sso_connection', id: row.organizationId },
        changes: { clientSecret: { before: 'set', after: 'resealed' } },
        at: deps.clock.now(),
      });
      count++;
    }
    return { resealed: count, unreadable };
  });
}

function openedOrUndefined(keys: SealingKeys, sealed: string): string | undefined {
  try {
    return unseal(keys, sealed);
  } catch (err) {
    if (err instanceof ApiError) return undefined;
    throw err;
  }
}

/** Disconnects the provider: its people sign in with passwords again (those who have one). Audited `sso.removed`. */
export async function removeSsoConnection(deps: SsoDeps, orgId: string, actor: AuditActor): Promise<void> {
  await assertOrganization(deps, orgId);
  await deps.db.transaction(async (tx) => {
    const before = await withDomains(tx, await findSsoConnection(tx, orgId));
    if (!before) throw ApiError.notFound('Identity provider');
    // Its domains go with it (the foreign key cascades).
    await deleteSsoConnection(tx, orgId);
    await recordAudit(tx, actor, {
      organizationId: orgId,
      action: 'sso.removed',
      target: { type: 'sso_connection', id: orgId },
      changes: recordChanges(before, undefined, audited),
      at: deps.clock.now(),
    });
  });
}

/**
 * Marks one of the organization's domains verified, from then on signing its people in. `dns`: proven by the TXT
 * record `_sitefile-challenge.<domain>` = `sitefile-verification=<token>` (asked of `SSO_DNS_SERVERS`); `operator`:
 * staff approve it (`npm run cli -- verify-domain`). A verified domain is answered as it is. Audited as
 * `sso.domain_verified`, by the admin or the operator.
 */
export async function verifySsoDomain(
  deps: Pick<AppContext, 'db' | 'clock' | 'config'>,
  orgId: string,
  domain: string,
  how: 'dns' | 'operator',
  actor: AuditActor,
): Promise<SsoDomain> {
  const name = domain.toLowerCase();
  const noSuchDomain = () => new ApiError('not_found', `The organization's identity provider has no domain ${name}`);
  const taken = () => new ApiError('conflict', `The domain ${name} is verified by another organization`);
  const pending = await findSsoDomain(deps.db, orgId, name);
  if (!pending) throw noSuchDomain();
  if (pending.verifiedAt) return toDomain(pending);
  if (await domainVerifiedElsewhere(deps.db, orgId, [name])) throw taken();
  if (how === 'dns') await expectChallenge(deps.config.sso.dnsServers, pending);
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const row = await markSsoDomainVerified(tx, orgId, name, how, now);
      if (!row) throw noSuchDomain();
      await recordAudit(tx, actor, {
        organizationId: orgId,
        action: 'sso.domain_verified',
        target: { type: 'sso_domain', id: name },
        changes: { status: { before: 'pending', after: 'verified' }, verifiedBy: { before: null, after: how } },
        at: now,
      });
      return toDomain(row);
    });
  } catch (err) {
    // Another organization verified it between the check and the update: the unique index on verified domains.
    if ((err as { cause?: { code?: string } }).cause?.code === '23505') throw taken();
    throw err;
  }
}

/** The domain's TXT record holds its token, or a 400 saying what was found instead. */
async function expectChallenge(servers: string[] | undefined, row: SsoDomainRow): Promise<void> {
  const records = await challengeRecords(servers, row.domain);
  const expected = challengeValue(row.token);
  if (records.includes(expected)) return;
  const name = challengeName(row.domain);
  const ours = records.filter((r) => r.startsWith(challengeValue('')));
  throw ApiError.badRequest(
    ours.length
      ? `The TXT record at ${name} is ${ours.map((r) => `"${r}"`).join(', ')}, not "${expected}".`
      : `No TXT record "${expected}" was found at ${name}. Publish it and try again (DNS changes can take a while to be seen).`,
  );
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
const stateDigest = (state: string) => createHash('sha256').update(state).digest('base64url');

/**
 * Whether passwords are off for this person: the organization that verified their e-mail's domain requires single
 * sign-on and they are its member. Members only, so that claiming a domain turns off no one else's password.
 */
export async function passwordsOffFor(deps: Pick<AppContext, 'db'>, user: { id: string; email: string }) {
  const row = await findSsoConnectionByVerifiedDomain(deps.db, domainOf(user.email));
  return Boolean(row?.requireSso && (await findMember(deps.db, row.organizationId, user.id)));
}

/** The provider's configuration for one sign-in step: a new one each time, so that a key the provider rotated in is
 *  looked up on the sign-in that meets it; its discovery document and key set come from the instance's copy
 *  (ProviderDocuments) when an earlier sign-in fetched them. */
async function providerConfiguration(deps: SsoDeps, row: SsoConnectionRow): Promise<oidc.Configuration> {
  const issuer = row.issuer === ENTRA_TEMPLATE ? ENTRA_MULTI_TENANT : row.issuer;
  // Any change to the connection (even the secret alone: sealed anew each time) is a provider fetched anew.
  const sealedDigest = createHash('sha256').update(row.clientSecretSealed).digest('base64url');
  const documents = [row.organizationId, issuer, row.clientId, sealedDigest].join(' ');
  const config = await oidc
    .discovery(
      new URL(issuer),
      row.clientId,
      undefined,
      oidc.ClientSecretPost(unseal(secretKeysOf(deps), row.clientSecretSealed)),
      {
        execute: deps.config.sso.allowHttpIssuers ? [oidc.allowInsecureRequests] : [],
        [oidc.customFetch]: deps.caches.ssoProviders.fetchFor(documents),
      },
    )
    .catch((err: unknown) => {
      throw new ApiError(
        'service_unavailable',
        `Your organization's identity provider cannot be reached (${(err as Error).message}). Try again later.`,
      );
    });
  // Token endpoint answers are trusted over TLS by default; we check the ID token's signature against the
  // provider's published keys as well, as the issue asks (a re-signed token is refused).
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/**
 * Starts a sign-in at the identity provider of the e-mail's domain: the URL to send the browser to (authorization
 * code with PKCE, state and nonce) and the state, which the browser keeps in a cookie for the callback.
 * `resume` is what the callback hands back once the person is known.
 */
export async function startSsoSignIn(
  deps: SsoDeps,
  email: string,
  resume: Record<string, unknown>,
): Promise<{ url: string; state: string }> {
  const domain = email.includes('@') ? domainOf(email) : '';
  const row = domain ? await findSsoConnectionByVerifiedDomain(deps.db, domain) : undefined;
  if (!row) {
    throw ApiError.badRequest(
      (await ssoDomainPending(deps.db, domain))
        ? `Single sign-on for ${domain} is not ready yet: your organization has not verified the domain. Ask your organization admin.`
        : 'No organization signs in people of this e-mail domain through single sign-on.',
    );
  }
  const config = await providerConfiguration(deps, row);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const state = oidc.randomState();
  await insertSsoLogin(
    deps.db,
    {
      stateDigest: stateDigest(state),
      organizationId: row.organizationId,
      codeVerifier,
      nonce,
      authorization: resume,
      expiresAt: new Date(deps.clock.now().getTime() + LOGIN_LIFETIME_MS),
    },
    deps.clock.now(),
  );
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: ssoRedirectUri(deps),
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    login_hint: email,
  });
  return { url: url.href, state };
}

/**
 * The provider vouches for the e-mail: `email_verified` (OpenID Connect), or Entra ID's `xms_edov` ("e-mail domain
 * owner verified", an optional claim the admin adds; Entra sends no `email_verified`, and an unverified `email` is
 * what another tenant's admin can set to anything).
 */
const emailVerified = (claims: oidc.IDToken | undefined) =>
  claims?.email_verified === true || [true, 1, '1', 'true'].includes(claims?.xms_edov as string);

/** A sign-in refused at the callback, with the sentence the person is shown. */
const refused = (message: string) => new ApiError('unauthorized', message);

/**
 * Completes a sign-in at the callback: the code is exchanged and the ID token checked (issuer, audience, nonce,
 * signature by the provider's keys, expiry) by openid-client, then the e-mail: verified by the provider, of a
 * domain the organization verified, of a person who is not disabled and is a member (or, first time, is created as
 * one). Answers the person and what `startSsoSignIn` was given to resume.
 */
export async function finishSsoSignIn(
  deps: SsoDeps,
  callback: { url: URL; state: string | undefined; ip: string },
): Promise<{ userId: string; resume: Record<string, unknown> }> {
  const given = callback.url.searchParams.get('state');
  // The state must come back to the browser that started the sign-in (its cookie): no one else's sign-in completes here.
  if (!given || given !== callback.state)
    throw refused('This sign-in was not started in this browser. Please sign in again.');
  const login = await takeSsoLogin(deps.db, stateDigest(given), deps.clock.now());
  if (!login) throw refused('This sign-in has expired or was already used. Please sign in again.');
  try {
    return {
      userId: await signedInPerson(deps, login.organizationId, callback, given, login),
      resume: login.authorization as Record<string, unknown>,
    };
  } catch (err) {
    // Each refused sign-in is in the organization's audit log, with the reason the person was shown.
    if (err instanceof ApiError) {
      await recordAudit(
        deps.db,
        { kind: 'anonymous', id: null, name: '', email: '', ip: callback.ip },
        {
          organizationId: login.organizationId,
          action: 'signin.failed',
          target: { type: 'person', id: null },
          changes: { reason: { before: null, after: err.message } },
          at: deps.clock.now(),
        },
      );
    }
    throw err;
  }
}

/** The provider's answer checked (the ID token, then the e-mail) and the person it names, signed in. */
async function signedInPerson(
  deps: SsoDeps,
  orgId: string,
  callback: { url: URL; ip: string },
  state: string,
  login: { codeVerifier: string; nonce: string },
): Promise<string> {
  const providerError = callback.url.searchParams.get('error');
  if (providerError) throw refused(`Your identity provider refused the sign-in (${providerError.slice(0, 100)}).`);
  const row = await findSsoConnection(deps.db, orgId);
  if (!row) throw refused('Your organization no longer signs in through single sign-on.');
  const config = await providerConfiguration(deps, row);
  let claims: oidc.IDToken | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callback.url, {
      pkceCodeVerifier: login.codeVerifier,
      expectedNonce: login.nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (err) {
    // openid-client's own message is generic ("unexpected JWT claim value"); its cause names the claim or check.
    const { cause } = err as { cause?: unknown };
    throw refused(
      `Your identity provider’s answer was refused: ${(cause instanceof Error ? cause : (err as Error)).message}`,
    );
  }
  const email = typeof claims?.email === 'string' ? claims.email.trim() : '';
  if (!email || !emailVerified(claims)) {
    throw refused('Your identity provider did not confirm your e-mail address.');
  }
  const verified = await findSsoDomain(deps.db, row.organizationId, domainOf(email));
  if (!verified?.verifiedAt) {
    throw refused(`The e-mail domain ${domainOf(email)} is not one your organization has verified.`);
  }
  const user = await personFor(deps, row.organizationId, email, typeof claims?.name === 'string' ? claims.name : email);
  await recordSignIn(deps.db, { email, user, ip: callback.ip, succeeded: true, at: deps.clock.now() });
  return user.id;
}

/** The member signing in, created at their first sign-in (role member); disabled or removed people are refused. */
async function personFor(deps: SsoDeps, orgId: string, email: string, name: string) {
  const existing = await findUserByEmail(deps.db, email);
  if (!existing) {
    const actor: AuditActor = { kind: 'anonymous', id: null, name: 'Single sign-on', email, ip: null };
    const created = await createUser(
      deps.db,
      { email, name, memberships: [{ orgId, role: 'member' }] },
      {
        actor,
        at: deps.clock.now(),
      },
    );
    return { id: created.id, name: created.name };
  }
  if (existing.disabledAt || !(await findMember(deps.db, orgId, existing.id))) {
    throw refused('Your account is disabled or not a member of this organization. Ask your organization admin.');
  }
  return existing;
}
