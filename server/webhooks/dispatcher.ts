import type { Runner } from 'graphile-worker';
import type pg from 'pg';
import type { WebhookDispatcher } from '../context.js';
import { poolOf, type Tx } from '../db/connection.js';
import { outageLog } from '../outage-log.js';
import { attemptDelivery, type DeliveryDeps } from './delivery.js';
import { anyDeliveryDue, claimDueDeliveries, deleteEventsBefore, enqueueDeliveryJobs } from './queries.js';
import { retainedSince } from './service.js';

/** Who performs the attempts: graphile-worker. */
interface Executor {
  /** Called before the first hand-off only (so an instance without webhooks never starts a worker). */
  start(): Promise<void>;
  /** In the claim's transaction. */
  enqueue(tx: Tx, deliveryIds: readonly string[]): Promise<void>;
  stop(): Promise<void>;
}

const TICK_MS = 1000;
const BATCH = 20;
/** How often (by the app's clock) an instance deletes the events older than the retention, and how many at once. */
const PURGE_INTERVAL_MS = 3_600_000;
const PURGE_BATCH = 1000;

/**
 * The outbox relay. Every second (and when nudged) it claims the deliveries that are due by the app's clock —
 * pending ones whose time came, and claimed ones whose worker died (claimed longer ago than an attempt can take)
 * — and hands them to the executor in the claim's transaction. A kill at any point leaves each delivery either
 * pending or claimed, and both come round again: at least once.
 */
export function createWebhookDispatcher(deps: DeliveryDeps): WebhookDispatcher {
  const executor = graphileExecutor(poolOf(deps.db), deps);
  const leaseMs = 2 * deps.settings.timeoutMs + 1000;
  let closed = false;
  let again = false;
  let running: Promise<void> | undefined;
  // A lost database fails every tick: one line when that starts and one when it ends.
  const outage = outageLog(deps.log, {
    failing: 'webhook relay failing: deliveries wait until it works again',
    working: 'webhook relay working again',
  });

  let lastPurgeAt: number | undefined;
  /** Events past the retention: nothing sends or replays them any more. A full batch leaves the rest to the next tick. */
  const purge = async (now: Date) => {
    if (lastPurgeAt !== undefined && now.getTime() - lastPurgeAt < PURGE_INTERVAL_MS) return;
    const deleted = await deleteEventsBefore(deps.db, retainedSince(now), PURGE_BATCH);
    if (deleted < PURGE_BATCH) lastPurgeAt = now.getTime();
  };

  const relay = async () => {
    const now = deps.clock.now();
    await purge(now);
    const staleClaim = new Date(now.getTime() - leaseMs);
    if (!(await anyDeliveryDue(deps.db, now, staleClaim))) return;
    await executor.start();
    const claimed = await deps.db.transaction(async (tx) => {
      const ids = await claimDueDeliveries(tx, now, staleClaim, BATCH);
      await executor.enqueue(tx, ids);
      return ids;
    });
    if (claimed.length === BATCH) again = true;
  };

  const nudge = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await relay().then(outage.recovered, outage.failed);
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
    });
  };

  const timer = setInterval(nudge, TICK_MS);
  timer.unref();
  return {
    nudge,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
      await executor.stop();
    },
  };
}

/**
 * graphile-worker runs the attempts (concurrency, LISTEN/NOTIFY pick-up, retry of a task that threw),
 * on the app's own pool; its jobs are added in the claim's transaction.
 */
function graphileExecutor(pool: pg.Pool, deps: DeliveryDeps): Executor {
  let runner: Promise<Runner> | undefined;
  const startRunner = async () => {
    // Imported on first use: a start (and every instance without webhooks) does not load the job engine.
    const { Logger, run } = await import('graphile-worker');
    const logger = new Logger(() => (level, message, meta) => {
      if (level === 'error') deps.log.error(meta ?? {}, message);
      else if (level === 'warning') deps.log.warn(meta ?? {}, message);
      else deps.log.debug(meta ?? {}, message);
    });
    return run({
      pgPool: pool,
      concurrency: 8,
      noHandleSignals: true,
      pollInterval: 2000,
      logger,
      taskList: {
        webhook_deliver: (payload) => attemptDelivery(deps, (payload as { deliveryId: string }).deliveryId),
      },
    });
  };
  return {
    async start() {
      runner ??= startRunner().catch((err) => {
        runner = undefined; // the next relay tries again
        throw err;
      });
      await runner;
    },
    enqueue: enqueueDeliveryJobs,
    async stop() {
      if (runner) await (await runner).stop();
    },
  };
}
