import type { Logger } from 'pino';

/** Reports a dependency's outage as two lines, whatever the number of failures in between. */
export interface OutageLog {
  /** A failure: logged (message only, no stack) when it starts an outage, else counted silently. */
  failed(err: unknown): void;
  /** A success: ends an outage in progress with one line saying how many failures it saw. */
  recovered(): void;
}

/**
 * One warning (`failing`) when a dependency starts failing and one line (`working`) when it works again: a retry
 * loop (the webhook relay every second, Redis reconnecting) would otherwise log a stack trace per attempt for as
 * long as the outage lasts.
 */
export function outageLog(log: Logger, messages: { failing: string; working: string }): OutageLog {
  let failures = 0;
  return {
    failed(err) {
      failures++;
      if (failures === 1) log.warn({ err: err instanceof Error ? err.message : String(err) }, messages.failing);
    },
    recovered() {
      if (failures > 0) log.info({ failures }, messages.working);
      failures = 0;
    },
  };
}
