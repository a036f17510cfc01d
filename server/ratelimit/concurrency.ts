import type { ConcurrencyKind, ConcurrencyLimit } from '../config.js';
import { ApiError } from '../errors.js';

/** Gives back a slot taken with `enter`; calling it again does nothing. */
export type Release = () => void;

export interface ConcurrencyGates {
  /**
   * A slot of `kind` for this caller: at once when the caller is under its own cap and all callers together
   * under the total; otherwise, when the kind has a `waitMs`, a slot freed within that time; else 429 (the
   * caller's own cap) or 503 (the instance's). Shared per caller first: a freed slot goes to the waiting caller
   * running the fewest (first come among equals), and where there is a total above one, one caller holds at
   * most all slots but one, so that another caller's work never waits on a single caller's alone.
   */
  enter(kind: ConcurrencyKind, callerKey: string): Promise<Release>;
}

const nouns: Record<ConcurrencyKind, string> = {
  export: 'CSV exports',
  explorer: 'explorer queries',
  filing: 'filings',
};

interface Waiter {
  callerKey: string;
  admit: () => void;
}

/**
 * Caps per caller and per instance on work that holds a database connection, a temporary file or megabytes
 * of memory while it runs. Counted in this process: what they protect (the pool, memory) is the instance's.
 */
export function createConcurrencyGates(limits: Record<ConcurrencyKind, ConcurrencyLimit>): ConcurrencyGates {
  const gates = Object.fromEntries(
    (Object.keys(limits) as ConcurrencyKind[]).map((kind) => [
      kind,
      { running: new Map<string, number>(), total: 0, waiting: [] as Waiter[] },
    ]),
  ) as Record<ConcurrencyKind, { running: Map<string, number>; total: number; waiting: Waiter[] }>;

  return {
    enter(kind, callerKey) {
      const gate = gates[kind];
      const { total = Number.POSITIVE_INFINITY, waitMs = 0 } = limits[kind];
      const perClient = Math.min(limits[kind].perClient, total > 1 ? total - 1 : total);
      const runningOf = (key: string) => gate.running.get(key) ?? 0;
      const fits = (key: string) => runningOf(key) < perClient && gate.total < total;
      const take = (key: string): Release => {
        gate.running.set(key, (gate.running.get(key) ?? 0) + 1);
        gate.total += 1;
        let released = false;
        return () => {
          if (released) return;
          released = true;
          const left = (gate.running.get(key) ?? 1) - 1;
          if (left === 0) gate.running.delete(key);
          else gate.running.set(key, left);
          gate.total -= 1;
          const next = gate.waiting.reduce<Waiter | undefined>(
            (best, waiter) =>
              fits(waiter.callerKey) && (!best || runningOf(waiter.callerKey) < runningOf(best.callerKey))
                ? waiter
                : best,
            undefined,
          );
          if (next) gate.waiting.splice(gate.waiting.indexOf(next), 1)[0]!.admit();
        };
      };
      const refusal = () =>
        runningOf(callerKey) >= perClient
          ? new ApiError('rate_limited', `At most ${perClient} ${nouns[kind]} at a time per caller; retry shortly`, {
              headers: { 'Retry-After': '1' },
            })
          : new ApiError('service_unavailable', `The server is running its ${total} ${nouns[kind]}; retry shortly`, {
              headers: { 'Retry-After': '1' },
            });
      if (fits(callerKey) && !gate.waiting.some((waiter) => waiter.callerKey === callerKey)) {
        return Promise.resolve(take(callerKey));
      }
      if (waitMs <= 0) return Promise.reject(refusal());
      return new Promise<Release>((resolve, reject) => {
        const waiter: Waiter = {
          callerKey,
          admit: () => {
            clearTimeout(timer);
            resolve(take(callerKey));
          },
        };
        const timer = setTimeout(() => {
          gate.waiting.splice(gate.waiting.indexOf(waiter), 1);
          reject(refusal());
        }, waitMs);
        gate.waiting.push(waiter);
      });
    },
  };
}
