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
   * `alone`: the work runs with no other of its kind on the instance (a large message, parsed, holds its size
   * several times over); it is admitted before any later work, so that a stream of small ones never starves it.
   */
  enter(kind: ConcurrencyKind, callerKey: string, options?: { alone?: boolean }): Promise<Release>;
}

const nouns: Record<ConcurrencyKind, string> = {
  export: 'CSV exports',
  explorer: 'explorer queries',
  filing: 'filings',
};

interface Waiter {
  callerKey: string;
  alone: boolean;
  admit: () => void;
}

interface Gate {
  running: Map<string, number>;
  total: number;
  /** Work that runs alone is running. */
  alone: boolean;
  waiting: Waiter[];
}

/**
 * Caps per caller and per instance on work that holds a database connection, a temporary file or megabytes
 * of memory while it runs. Counted in this process: what they protect (the pool, memory) is the instance's.
 */
export function createConcurrencyGates(limits: Record<ConcurrencyKind, ConcurrencyLimit>): ConcurrencyGates {
  const gates = Object.fromEntries(
    (Object.keys(limits) as ConcurrencyKind[]).map((kind) => [
      kind,
      { running: new Map<string, number>(), total: 0, alone: false, waiting: [] } as Gate,
    ]),
  ) as Record<ConcurrencyKind, Gate>;

  return {
    enter(kind, callerKey, { alone = false } = {}) {
      const gate = gates[kind];
      const { total = Number.POSITIVE_INFINITY, waitMs = 0 } = limits[kind];
      const perClient = Math.min(limits[kind].perClient, total > 1 ? total - 1 : total);
      const runningOf = (key: string) => gate.running.get(key) ?? 0;
      const fits = (waiter: Pick<Waiter, 'callerKey' | 'alone'>) =>
        runningOf(waiter.callerKey) < perClient && !gate.alone && gate.total < (waiter.alone ? 1 : total);
      /** The waiter a freed slot goes to: the first that runs alone, once it fits; else the fitting caller running
       *  the fewest. */
      const nextWaiter = (): Waiter | undefined => {
        const firstAlone = gate.waiting.find((waiter) => waiter.alone);
        if (firstAlone) return fits(firstAlone) ? firstAlone : undefined;
        return gate.waiting.reduce<Waiter | undefined>(
          (best, waiter) =>
            fits(waiter) && (!best || runningOf(waiter.callerKey) < runningOf(best.callerKey)) ? waiter : best,
          undefined,
        );
      };
      const take = (key: string): Release => {
        gate.running.set(key, (gate.running.get(key) ?? 0) + 1);
        gate.total += 1;
        gate.alone = alone;
        let released = false;
        return () => {
          if (released) return;
          released = true;
          const left = (gate.running.get(key) ?? 1) - 1;
          if (left === 0) gate.running.delete(key);
          else gate.running.set(key, left);
          gate.total -= 1;
          if (alone) gate.alone = false;
          admitWaiting();
        };
      };
      /** Admits whom the slots free now let in: the end of work that ran alone frees them all. */
      const admitWaiting = () => {
        for (let next = nextWaiter(); next; next = nextWaiter()) {
          gate.waiting.splice(gate.waiting.indexOf(next), 1);
          next.admit();
        }
      };
      const refusal = () =>
        runningOf(callerKey) >= perClient
          ? new ApiError('rate_limited', `At most ${perClient} ${nouns[kind]} at a time per caller; retry shortly`, {
              headers: { 'Retry-After': '1' },
            })
          : new ApiError('service_unavailable', `The server is running its ${total} ${nouns[kind]}; retry shortly`, {
              headers: { 'Retry-After': '1' },
            });
      const overtakes = gate.waiting.some((waiter) => waiter.callerKey === callerKey || waiter.alone);
      if (fits({ callerKey, alone }) && !overtakes) return Promise.resolve(take(callerKey));
      if (waitMs <= 0) return Promise.reject(refusal());
      return new Promise<Release>((resolve, reject) => {
        const waiter: Waiter = {
          callerKey,
          alone,
          admit: () => {
            clearTimeout(timer);
            resolve(take(callerKey));
          },
        };
        const timer = setTimeout(() => {
          gate.waiting.splice(gate.waiting.indexOf(waiter), 1);
          admitWaiting(); // work that waited behind it may fit now
          reject(refusal());
        }, waitMs);
        gate.waiting.push(waiter);
      });
    },
  };
}
