import { createFailureThrottle, type FailureThrottle } from '../auth/failure-throttle.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';

/** Wrong passwords one address may give for one account before it must wait (1 s, 2 s, 4 s … an hour). */
export const PAIR_FREE_FAILURES = 5;
/** Wrong passwords for one account from all addresses before addresses that never signed in to it wait too. */
export const ACCOUNT_CEILING = 100;
/** Wrong passwords from one address over all accounts (spraying) before it waits. */
export const ADDRESS_CEILING = 30;
/** The longest wait: while failures go on, one guess an hour per address and account. */
export const SIGN_IN_MAX_WAIT_SECONDS = 60 * 60;
/** Failures are forgotten after a day without one. */
export const SIGN_IN_QUIET_SECONDS = 24 * 60 * 60;

/** The sign-in pages' throttle (see `auth/failure-throttle.ts`), keyed on the e-mail without regard to case. */
export function createSignInThrottle(db: Db, clock: Clock) {
  const throttle: FailureThrottle = createFailureThrottle({
    db,
    clock,
    scope: 'sign-in',
    freeFailures: PAIR_FREE_FAILURES,
    accountCeiling: ACCOUNT_CEILING,
    sourceCeiling: ADDRESS_CEILING,
    maxDelaySeconds: SIGN_IN_MAX_WAIT_SECONDS,
    quietSeconds: SIGN_IN_QUIET_SECONDS,
  });
  const account = (email: string) => email.trim().toLowerCase();
  return {
    startAttempt: (ip: string, email: string) => throttle.startAttempt(account(email), ip),
    recordFailure: (ip: string, email: string) => throttle.recordFailure(account(email), ip),
    recordSuccess: (ip: string, email: string) => throttle.recordSuccess(account(email), ip),
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;

/** "Try again in 8 seconds." / "Try again in 4 minutes." */
export const tryAgainIn = (seconds: number) =>
  seconds < 60
    ? `Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`
    : `Try again in ${Math.ceil(seconds / 60)} minutes.`;
