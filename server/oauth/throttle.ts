import { createFailureThrottle, type FailureThrottle } from '../auth/failure-throttle.js';
import type { Clock } from '../clock.js';

/** Wrong passwords one address may give for one account before it must wait (1 s, 2 s, 4 s … 15 min). */
export const PAIR_FREE_FAILURES = 5;
/** Wrong passwords for one account from all addresses before addresses that never signed in to it wait too. */
export const ACCOUNT_CEILING = 100;
/** Wrong passwords from one address over all accounts (spraying) before it waits. */
export const ADDRESS_CEILING = 30;
const QUARTER_HOUR = 15 * 60;

/** The sign-in pages' throttle (see `auth/failure-throttle.ts`), keyed on the e-mail without regard to case. */
export function createSignInThrottle(clock: Clock) {
  const throttle: FailureThrottle = createFailureThrottle({
    clock,
    freeFailures: PAIR_FREE_FAILURES,
    accountCeiling: ACCOUNT_CEILING,
    sourceCeiling: ADDRESS_CEILING,
    maxDelaySeconds: QUARTER_HOUR,
    windowSeconds: QUARTER_HOUR,
  });
  const account = (email: string) => email.trim().toLowerCase();
  return {
    waitSeconds: (ip: string, email: string) => throttle.waitSeconds(account(email), ip),
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
