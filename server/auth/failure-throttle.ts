import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import {
  addFailures,
  claimAttempt,
  deleteFailures,
  type FailureCount,
  failureCounts,
  isKnownSource,
  purgeThrottleRows,
  rememberSource,
} from './queries.js';
import { digest } from './secrets.js';

/**
 * Slows guessing without letting a stranger lock the owner out. Failures are counted per (account, source):
 * the first `freeFailures` cost nothing, each one after doubles the wait before that source may try that
 * account again (1 s, 2 s, 4 s … up to `maxDelaySeconds`), so a source guessing one account is slowed to a
 * crawl while the owner, elsewhere, is untouched. Two ceilings catch what one source cannot do alone:
 * `accountCeiling` failures of one account from all sources (a guess spread over many addresses) and
 * `sourceCeiling` failures of one source over all accounts (one address spraying many accounts); past either,
 * the waits grow the same way — except that a source which signed in to the account before (the owner's own
 * office or home) is not held by the account's ceiling. A success forgets the pair's failures. Only failures
 * count: a right answer never waits for someone else's wrong ones. An attempt claims its turn before the secret is
 * checked, so many sent at once when a wait ends get one turn, not one each.
 *
 * Counts are forgotten only after `quietSeconds` without a failure, well past the longest wait: a guesser who waits
 * out each wait keeps the longest one (issue 36: counts forgotten as the longest wait ended gave each address 28
 * guesses an hour). They live in the database every instance shares, so a wait holds on every instance and across
 * restarts; the known addresses too, for `KNOWN_SOURCE_DAYS` after their last sign-in.
 */
export interface FailureThrottle {
  /**
   * Seconds before `source` may try `account` again; 0 when it may now, and then this attempt already counts as a
   * failure of the pair (attempts racing on any instance cannot all pass) until `recordSuccess` clears it.
   */
  startAttempt(account: string, source: string): Promise<number>;
  /** The attempt failed: counted against the account's and the source's ceilings too. */
  recordFailure(account: string, source: string): Promise<void>;
  recordSuccess(account: string, source: string): Promise<void>;
}

export interface FailureThrottleOptions {
  db: Db;
  clock: Clock;
  /** What is counted (`sign-in`, `key-secret`): each throttle's counts are its own. */
  scope: string;
  freeFailures: number;
  maxDelaySeconds: number;
  /** Failures are forgotten this long after the last one; more than `maxDelaySeconds`. */
  quietSeconds: number;
  accountCeiling?: number;
  sourceCeiling?: number;
}

/** An address that signed in to an account stays known this long after its last sign-in. */
export const KNOWN_SOURCE_DAYS = 90;
/** Each instance removes forgotten rows at most this often, a batch at a time. */
const PURGE_INTERVAL_MS = 60_000;
const PURGE_BATCH = 1000;

export function createFailureThrottle(options: FailureThrottleOptions): FailureThrottle {
  if (options.quietSeconds <= options.maxDelaySeconds) throw new Error('quietSeconds must exceed maxDelaySeconds');
  const { db } = options;
  const quietMs = options.quietSeconds * 1000;
  const key = (...parts: string[]) => digest(JSON.stringify([options.scope, ...parts]));
  const keysOf = (account: string, source: string) => ({
    pair: key('pair', account, source),
    account: options.accountCeiling !== undefined ? key('account', account) : undefined,
    source: options.sourceCeiling !== undefined ? key('source', source) : undefined,
    known: key('known', account, source),
  });
  const counted = (keys: ReturnType<typeof keysOf>) =>
    [keys.pair, keys.account, keys.source].filter((k): k is string => k !== undefined);
  let lastPurgeAt: number | undefined;

  /** Milliseconds still to wait after `free` failures allowed in `count`. */
  const waitMs = (count: FailureCount | undefined, free: number | undefined, at: number) => {
    if (!count || free === undefined || count.failures < free) return 0;
    const lastAt = count.lastFailureAt.getTime();
    if (at - lastAt >= quietMs) return 0;
    const delay = Math.min(options.maxDelaySeconds, 2 ** (count.failures - free)) * 1000;
    return Math.max(0, lastAt + delay - at);
  };

  const purgeNow = async (at: number) => {
    if (lastPurgeAt !== undefined && at - lastPurgeAt < PURGE_INTERVAL_MS) return;
    lastPurgeAt = at;
    await purgeThrottleRows(db, new Date(at - quietMs), new Date(at - KNOWN_SOURCE_DAYS * 86_400_000), PURGE_BATCH);
  };

  return {
    async startAttempt(account, source) {
      const at = options.clock.now().getTime();
      const keys = keysOf(account, source);
      const [counts, known] = await Promise.all([
        failureCounts(db, counted(keys)),
        keys.account ? isKnownSource(db, keys.known) : false,
      ]);
      const ceilingWait = Math.max(
        known || !keys.account ? 0 : waitMs(counts.get(keys.account), options.accountCeiling, at),
        keys.source ? waitMs(counts.get(keys.source), options.sourceCeiling, at) : 0,
      );
      if (ceilingWait > 0) return Math.ceil(ceilingWait / 1000);
      const rule = { free: options.freeFailures, maxDelaySeconds: options.maxDelaySeconds };
      if (await claimAttempt(db, keys.pair, new Date(at), new Date(at - quietMs), rule)) return 0;
      // Held by the pair's wait (or by an attempt that claimed it a moment ago): at least a second.
      return Math.max(1, Math.ceil(waitMs(counts.get(keys.pair), options.freeFailures, at) / 1000));
    },
    async recordFailure(account, source) {
      const at = options.clock.now().getTime();
      const keys = keysOf(account, source);
      const ceilings = [keys.account, keys.source].filter((k): k is string => k !== undefined);
      if (ceilings.length) await addFailures(db, ceilings, new Date(at), new Date(at - quietMs));
      await purgeNow(at);
    },
    async recordSuccess(account, source) {
      const keys = keysOf(account, source);
      await deleteFailures(db, keys.pair);
      if (keys.account) await rememberSource(db, keys.known, options.clock.now());
    },
  };
}
