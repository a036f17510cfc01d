import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';

/** First pause between attempts; it doubles up to the longest. */
export const FIRST_RETRY_MS = 500;
export const LONGEST_RETRY_MS = 5000;

/** Errors that mean "the server is not there (yet)", not "it refused us": those are worth waiting out. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01', // the connection was ended by an administrator (pg_terminate_backend) or a fast shutdown
  '57P02', // the server ended every connection after a crash of one of its processes
  '57P03', // the database system is starting up (or shutting down)
  '25P03', // the server ended a transaction left idle past idle_in_transaction_session_timeout
  '53300', // too many connections
]);
/** node-postgres' messages for a lost connection: the one that was lost, and a query on a client that lost it. */
const UNREACHABLE_MESSAGES =
  /Connection terminated|timeout expired|the database system is|encountered a connection error and is not queryable/i;

/** Why `err` (or an error it wraps: drizzle wraps the driver's) says the database is unreachable; else undefined. */
export function unreachableReason(err: unknown): string | undefined {
  for (let e = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code))
      return e.message.includes(code) ? e.message : `${code}: ${e.message}`;
    if (UNREACHABLE_MESSAGES.test(e.message)) return e.message;
  }
  return undefined;
}

/**
 * Runs `attempt` (connect and migrate) until it succeeds, retrying while the database is unreachable with a pause
 * that doubles from 0.5 s to 5 s, for at most `waitSeconds`; one warning line per failed attempt. Any other
 * failure (a refused password, a failing migration) is thrown at once: waiting would not cure it.
 */
export async function waitForDatabase<T>(
  attempt: () => Promise<T>,
  options: { waitSeconds: number; log: Logger },
): Promise<T> {
  const deadline = performance.now() + options.waitSeconds * 1000;
  for (let attempts = 1, pause = FIRST_RETRY_MS; ; attempts++, pause = Math.min(pause * 2, LONGEST_RETRY_MS)) {
    try {
      return await attempt();
    } catch (err) {
      const reason = unreachableReason(err);
      if (!reason) throw err;
      const left = deadline - performance.now();
      if (left <= 0) {
        throw new Error(`database unreachable after ${options.waitSeconds} s (${attempts} attempts): ${reason}`);
      }
      const retryInMs = Math.round(Math.min(pause, left));
      options.log.warn({ attempt: attempts, retryInMs, reason }, 'database not reachable yet; retrying');
      await sleep(retryInMs);
    }
  }
}
