import type { InvalidationBus } from '../cache/bus.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { insertRevokedGrant, liveRevokedGrantIds } from './queries.js';

export const GRANTS_CHANNEL = 'revoked-grants';

/**
 * The set of revoked sign-ins (grants) whose access tokens may still be alive, held in memory on every
 * instance so that checking a token costs a set lookup. A revocation is written to the database, then
 * published on the bus, which adds it to every instance's set at once. The set is reloaded from the
 * database when it is older than the cache TTL and whenever the bus reconnects, so a revocation whose
 * message was lost (Redis down) still takes effect within the TTL.
 */
export interface GrantRevocations {
  isRevoked(grantId: string): Promise<boolean>;
  /** Ends a grant on every instance; `until` is when its last access token expires. */
  revoke(grantId: string, until: Date): Promise<void>;
  /** Forces a reload before the next check (the bus reconnected: messages may have been missed). */
  markStale(): void;
}

export function createGrantRevocations(deps: {
  db: Db;
  bus: InvalidationBus;
  clock: Clock;
  ttlSeconds: number;
}): GrantRevocations {
  let revoked = new Set<string>();
  let loadedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | undefined;
  // Revocations heard while a reload is in flight: the reload's snapshot may predate them.
  let heardDuringLoad: string[] = [];

  deps.bus.subscribe(GRANTS_CHANNEL, (grantId) => {
    revoked.add(grantId);
    if (loading) heardDuringLoad.push(grantId);
  });

  const reload = () => {
    loading ??= (async () => {
      const startedAt = deps.clock.now();
      heardDuringLoad = [];
      try {
        const fresh = new Set(await liveRevokedGrantIds(deps.db, startedAt));
        for (const grantId of heardDuringLoad) fresh.add(grantId);
        revoked = fresh;
        loadedAt = startedAt.getTime();
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  };

  return {
    async isRevoked(grantId) {
      if (deps.clock.now().getTime() - loadedAt >= deps.ttlSeconds * 1000) await reload();
      return revoked.has(grantId);
    },
    async revoke(grantId, until) {
      await insertRevokedGrant(deps.db, { grantId, revokedAt: deps.clock.now(), expiresAt: until });
      await deps.bus.publish(GRANTS_CHANNEL, grantId);
    },
    markStale() {
      loadedAt = Number.NEGATIVE_INFINITY;
    },
  };
}
