import type { IncomingHttpHeaders } from 'node:http';
import type { InvalidationBus } from '../cache/bus.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import type { Caller } from './caller.js';
import { loadClientCaller, loadUserCaller } from './queries.js';
import { createGrantRevocations } from './revocations.js';
import type { TokenClaims, TokenService } from './tokens.js';

export const CALLERS_CHANNEL = 'callers';

/** Resolves `Authorization: Bearer …` to a Caller. Callers are cached per subject and dropped from
 *  the cache on every instance when a key or user changes, so a disabled key stops working at once.
 *  Every cached entry (callers, revoked grants) also expires after the configured TTL, and all of them
 *  are dropped when the bus reconnects: an invalidation lost during a Redis outage heals by itself. */
export interface BearerGuard {
  authenticate(req: { headers: IncomingHttpHeaders }): Promise<Caller>;
  /** The claims of a valid token for `audience` whose grant is not revoked; undefined otherwise. */
  verify(token: string, audience?: string): Promise<TokenClaims | undefined>;
  /** The (cached) caller behind a verified token's subject; undefined when gone or disabled. Used by
   *  surfaces with their own token audience, such as /mcp. */
  callerOf(kind: 'client' | 'user', subject: string): Promise<Caller | undefined>;
  /** Call after changing a client or user (enable/disable, permissions, scopes, memberships, delete). */
  invalidate(callerKey: string): Promise<void>;
  /** Ends a sign-in on every instance: its access tokens are refused from the next request on.
   *  `until`: when its last access token expires. */
  revokeGrant(grantId: string, until: Date): Promise<void>;
}

const CACHE_LIMIT = 10_000;

interface CachedCaller {
  caller: Promise<Caller | undefined>;
  expiresAt: number;
}

export function createBearerGuard(deps: {
  db: Db;
  tokens: TokenService;
  bus: InvalidationBus;
  clock: Clock;
  /** Longest time a cached authorization entry is trusted without a bus message. */
  cacheTtlSeconds: number;
}): BearerGuard {
  const cache = new Map<string, CachedCaller>();
  const revocations = createGrantRevocations({ ...deps, ttlSeconds: deps.cacheTtlSeconds });
  deps.bus.subscribe(CALLERS_CHANNEL, (key) => cache.delete(key));
  deps.bus.onReconnect(() => {
    cache.clear();
    revocations.markStale();
  });

  const load = (kind: 'client' | 'user', subject: string) => {
    const key = `${kind}:${subject}`;
    const now = deps.clock.now().getTime();
    const cached = cache.get(key);
    if (cached && cached.expiresAt > now) return cached.caller;
    if (!cached && cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    const caller = kind === 'client' ? loadClientCaller(deps.db, subject) : loadUserCaller(deps.db, subject);
    const entry = { caller, expiresAt: now + deps.cacheTtlSeconds * 1000 };
    cache.set(key, entry);
    caller.catch(() => {
      if (cache.get(key) === entry) cache.delete(key);
    });
    return caller;
  };

  const check = async (token: string, audience?: string): Promise<TokenClaims | 'invalid' | 'revoked'> => {
    const claims = deps.tokens.verify(token, audience);
    if (!claims) return 'invalid';
    if (claims.gid && (await revocations.isRevoked(claims.gid))) return 'revoked';
    return claims;
  };

  return {
    async authenticate(req) {
      const header = req.headers.authorization;
      const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
      if (!match) throw ApiError.unauthorized();
      const claims = await check(match[1]!);
      if (claims === 'invalid') throw ApiError.unauthorized('Invalid or expired token');
      if (claims === 'revoked') throw ApiError.unauthorized('This sign-in has been revoked');
      const caller = await load(claims.typ, claims.sub);
      if (!caller) throw ApiError.unauthorized('Token no longer valid');
      return caller;
    },
    async verify(token, audience) {
      const claims = await check(token, audience);
      return typeof claims === 'string' ? undefined : claims;
    },
    callerOf: load,
    invalidate: (callerKey) => deps.bus.publish(CALLERS_CHANNEL, callerKey),
    revokeGrant: (grantId, until) => revocations.revoke(grantId, until),
  };
}
