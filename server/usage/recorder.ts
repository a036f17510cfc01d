import type { Logger } from 'pino';

/** Requests of one client to one route template, and the milliseconds they took. */
export interface UsageDelta {
  clientRowId: string;
  endpoint: string;
  count: number;
  totalMs: number;
}

/**
 * Per-client request counters, kept off the request path: a finished response adds to an in-memory
 * tally; a timer (and shutdown) writes the tally to `request_usage` in batched upserts. A failed write
 * puts its counts back, so nothing is lost while the database is briefly unreachable.
 */
export interface UsageRecorder {
  record(clientRowId: string, endpoint: string, ms: number): void;
  /** Counts not yet written, for these clients (summaries add them so they are current on this instance). */
  pending(clientRowIds: readonly string[]): UsageDelta[];
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

const FLUSH_INTERVAL_MS = 10_000;
const BATCH_SIZE = 500;

/** `write` stores a batch of counts (the API keys' usage table); the recorder is below every resource. */
export function createUsageRecorder(deps: {
  write: (deltas: UsageDelta[]) => Promise<void>;
  log: Logger;
  flushIntervalMs?: number;
}): UsageRecorder {
  let tally = new Map<string, UsageDelta>();
  let flushing: Promise<void> = Promise.resolve();

  const add = (delta: UsageDelta) => {
    const key = `${delta.clientRowId}\n${delta.endpoint}`;
    const entry = tally.get(key);
    if (entry) {
      entry.count += delta.count;
      entry.totalMs += delta.totalMs;
    } else {
      tally.set(key, { ...delta });
    }
  };

  // Counts being written: still reported by pending() until their batch has landed.
  let writing: UsageDelta[] = [];
  const writeOut = async () => {
    writing = [...tally.values()];
    tally = new Map();
    while (writing.length > 0) {
      const rows = writing.slice(0, BATCH_SIZE);
      try {
        await deps.write(rows);
      } catch (err) {
        deps.log.error({ err, rows: rows.length }, 'usage flush failed; counts kept for the next flush');
        for (const row of rows) add(row);
      }
      writing = writing.slice(rows.length);
    }
  };

  // One flush at a time, so two flushes never write the same counts.
  const flush = () => {
    flushing = flushing.then(writeOut);
    return flushing;
  };

  const timer = setInterval(() => void flush(), deps.flushIntervalMs ?? FLUSH_INTERVAL_MS);
  timer.unref();

  return {
    record: (clientRowId, endpoint, ms) => add({ clientRowId, endpoint, count: 1, totalMs: ms }),
    pending(clientRowIds) {
      const wanted = new Set(clientRowIds);
      return [...writing, ...tally.values()].filter((d) => wanted.has(d.clientRowId)).map((d) => ({ ...d }));
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
