import type { Clock } from '../clock.js';

/**
 * Slows guessing without letting a stranger lock the owner out. Failures are counted per (account, source):
 * the first `freeFailures` cost nothing, each one after doubles the wait before that source may try that
 * account again (1 s, 2 s, 4 s … up to `maxDelaySeconds`), so a source guessing one account is slowed to a
 * crawl while the owner, elsewhere, is untouched. Two ceilings catch what one source cannot do alone:
 * `accountCeiling` failures of one account from all sources (a guess spread over many addresses) and
 * `sourceCeiling` failures of one source over all accounts (one address spraying many accounts); past either,
 * the waits grow the same way — except that a source which signed in to the account before (the owner's own
 * office or home) is not held by the account's ceiling. A success forgets the pair's failures. Counts are
 * forgotten `windowSeconds` after their last failure. Only failures count: a right answer never waits for
 * someone else's wrong ones.
 */
export interface FailureThrottle {
  /** Seconds before `source` may try `account` again; 0 when it may now. */
  waitSeconds(account: string, source: string): number;
  recordFailure(account: string, source: string): void;
  recordSuccess(account: string, source: string): void;
}

export interface FailureThrottleOptions {
  clock: Clock;
  freeFailures: number;
  maxDelaySeconds: number;
  windowSeconds: number;
  accountCeiling?: number;
  sourceCeiling?: number;
}

interface Count {
  failures: number;
  lastAt: number;
}

/** Entries kept per map; the oldest are dropped first (a flood of made-up accounts cannot grow memory). */
const MAX_ENTRIES = 50_000;

/** A bounded map in insertion (= last touched) order. */
function boundedMap<V>() {
  const map = new Map<string, V>();
  return {
    get: (key: string) => map.get(key),
    set(key: string, value: V) {
      map.delete(key);
      map.set(key, value);
      if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
    },
    delete: (key: string) => map.delete(key),
  };
}

export function createFailureThrottle(options: FailureThrottleOptions): FailureThrottle {
  const pairs = boundedMap<Count>();
  const accounts = boundedMap<Count>();
  const sources = boundedMap<Count>();
  const known = boundedMap<true>();
  const now = () => options.clock.now().getTime();
  const pairKey = (account: string, source: string) => JSON.stringify([account, source]);

  const live = (count: Count | undefined, at: number) =>
    count && at - count.lastAt < options.windowSeconds * 1000 ? count : undefined;

  /** Milliseconds still to wait after `free` failures allowed in `count`. */
  const waitMs = (count: Count | undefined, free: number, at: number) => {
    if (!count || count.failures < free) return 0;
    const delay = Math.min(options.maxDelaySeconds, 2 ** (count.failures - free)) * 1000;
    return Math.max(0, count.lastAt + delay - at);
  };

  const bump = (map: ReturnType<typeof boundedMap<Count>>, key: string, at: number) => {
    map.set(key, { failures: (live(map.get(key), at)?.failures ?? 0) + 1, lastAt: at });
  };

  return {
    waitSeconds(account, source) {
      const at = now();
      const waits = [waitMs(live(pairs.get(pairKey(account, source)), at), options.freeFailures, at)];
      if (options.accountCeiling !== undefined && !known.get(pairKey(account, source)))
        waits.push(waitMs(live(accounts.get(account), at), options.accountCeiling, at));
      if (options.sourceCeiling !== undefined)
        waits.push(waitMs(live(sources.get(source), at), options.sourceCeiling, at));
      const longest = Math.max(...waits);
      return longest > 0 ? Math.ceil(longest / 1000) : 0;
    },
    recordFailure(account, source) {
      const at = now();
      bump(pairs, pairKey(account, source), at);
      if (options.accountCeiling !== undefined) bump(accounts, account, at);
      if (options.sourceCeiling !== undefined) bump(sources, source, at);
    },
    recordSuccess(account, source) {
      pairs.delete(pairKey(account, source));
      if (options.accountCeiling !== undefined) known.set(pairKey(account, source), true);
    },
  };
}
