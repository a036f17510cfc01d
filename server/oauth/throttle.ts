import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';

/** Failed sign-ins allowed per window before the account or the address must wait. */
export const ACCOUNT_FAILURES = 5;
export const ADDRESS_FAILURES = 30;
const WINDOW_SECONDS = 15 * 60;

/**
 * Sign-in throttling: failures are counted per account (slows guessing one person's password) and
 * per client address (slows spraying many accounts). Only failures count, so a person who types the
 * password right is never slowed by others; a success clears the account's count.
 */
export interface SignInThrottle {
  /** Seconds to wait when either counter is exhausted, else 0. */
  retryAfterSeconds(ip: string, email: string): Promise<number>;
  recordFailure(ip: string, email: string): Promise<void>;
  recordSuccess(email: string): Promise<void>;
}

export function createSignInThrottle(): SignInThrottle {
  const byAccount = new RateLimiterMemory({
    keyPrefix: 'signin-account',
    points: ACCOUNT_FAILURES,
    duration: WINDOW_SECONDS,
  });
  const byAddress = new RateLimiterMemory({
    keyPrefix: 'signin-ip',
    points: ADDRESS_FAILURES,
    duration: WINDOW_SECONDS,
  });
  const accountKey = (email: string) => email.trim().toLowerCase();
  const waitOf = (res: RateLimiterRes | null, limit: number) =>
    res && res.consumedPoints >= limit ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
  // consume() rejects once the points are gone; the rejection is the expected "blocked" answer here.
  const count = (limiter: RateLimiterMemory, key: string) =>
    limiter.consume(key).then(
      () => undefined,
      () => undefined,
    );
  return {
    async retryAfterSeconds(ip, email) {
      const [account, address] = await Promise.all([byAccount.get(accountKey(email)), byAddress.get(ip)]);
      return Math.max(waitOf(account, ACCOUNT_FAILURES), waitOf(address, ADDRESS_FAILURES));
    },
    async recordFailure(ip, email) {
      await Promise.all([count(byAccount, accountKey(email)), count(byAddress, ip)]);
    },
    async recordSuccess(email) {
      await byAccount.delete(accountKey(email));
    },
  };
}
