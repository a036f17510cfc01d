import type { Request } from 'express';
import type { InvalidationBus } from '../cache/bus.js';
import type { Db } from '../db/client.js';
import { ApiError } from '../http/errors.js';
import type { Caller } from './caller.js';
import { loadClientCaller, loadUserCaller } from './queries.js';
import type { TokenService } from './tokens.js';

export const CALLERS_CHANNEL = 'callers';

/** Resolves `Authorization: Bearer …` to a Caller. Callers are cached per subject and dropped from
 *  the cache on every instance when a key or user changes, so a disabled key stops working at once. */
export interface BearerGuard {
  authenticate(req: Request): Promise<Caller>;
  /** The (cached) caller behind a verified token's subject; undefined when gone or disabled. Used by
   *  surfaces with their own token audience, such as /mcp. */
  callerOf(kind: 'client' | 'user', subject: string): Promise<Caller | undefined>;
  /** Call after changing a client or user (enable/disable, permissions, scopes, memberships, delete). */
  invalidate(callerKey: string): Promise<void>;
}

const CACHE_LIMIT = 10_000;

export function createBearerGuard(deps: { db: Db; tokens: TokenService; bus: InvalidationBus }): BearerGuard {
  const cache = new Map<string, Promise<Caller | undefined>>();
  deps.bus.subscribe(CALLERS_CHANNEL, (key) => cache.delete(key));

  const load = (kind: 'client' | 'user', subject: string) => {
    const key = `${kind}:${subject}`;
    let entry = cache.get(key);
    if (!entry) {
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
      entry = kind === 'client' ? loadClientCaller(deps.db, subject) : loadUserCaller(deps.db, subject);
      cache.set(key, entry);
      entry.catch(() => cache.delete(key));
    }
    return entry;
  };

  return {
    async authenticate(req) {
      const header = req.headers.authorization;
      const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
      if (!match) throw ApiError.unauthorized();
      const claims = deps.tokens.verify(match[1]!);
      if (!claims) throw ApiError.unauthorized('Invalid or expired token');
      const caller = await load(claims.typ, claims.sub);
      if (!caller) throw ApiError.unauthorized('Token no longer valid');
      return caller;
    },
    callerOf: load,
    invalidate: (callerKey) => deps.bus.publish(CALLERS_CHANNEL, callerKey),
  };
}
