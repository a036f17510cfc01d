import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { outageLog } from '../outage-log.js';

/** Cache invalidation across server instances: Redis pub/sub when REDIS_URL is set, in-process otherwise. */
export interface InvalidationBus {
  /** Resolves once every instance subscribed to `channel` has applied it, this one first: ended access ends on the
   *  next request, whichever instance serves it. The Redis bus waits at most CONFIRM_WITHIN_MS for the others, and a
   *  Redis outage does not fail the write (the others heal by the cache TTL and on reconnecting). */
  publish(channel: string, key: string): Promise<void>;
  subscribe(channel: string, listener: (key: string) => void): void;
  /** Called when the connection to the other instances comes back after a loss: messages sent in
   *  between were missed, so caches must be dropped. Never called for the in-process bus. */
  onReconnect(listener: () => void): void;
  close(): Promise<void>;
}

export function createLocalBus(): InvalidationBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, key) {
      emitter.emit(channel, key);
    },
    subscribe(channel, listener) {
      emitter.on(channel, listener);
    },
    onReconnect() {},
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/** The longest a publish waits for the other instances to confirm: one that is frozen, or cut off while Redis still
 *  counts it as a receiver, must not hold every write longer. */
export const CONFIRM_WITHIN_MS = 1000;

/** How a publish ended: every receiver applied it; some did not say so in time; Redis never took it. */
type Outcome = 'confirmed' | 'unconfirmed' | 'unsent';

interface Pending {
  /** The subscriber connections that received the message, as PUBLISH counts them: known once it answers. */
  receivers?: number;
  confirmations: number;
  settle(outcome: Outcome): void;
}

interface Message {
  key: string;
  /** Where the receiver confirms, once it has applied the message, by publishing `id`. */
  confirm?: { id: string; to: string };
}

/** Anything but a message of ours is a bare key, as earlier releases sent, which wait for no confirmation: a rolling
 *  upgrade loses none of their invalidations. */
function parseMessage(payload: string): Message {
  try {
    const message = JSON.parse(payload);
    if (typeof message?.key === 'string' && typeof message.confirm?.id === 'string') return message;
  } catch {}
  return { key: payload };
}

export function createRedisBus(redisUrl: string, log: Logger): InvalidationBus {
  const prefix = 'sitefile:invalidate:';
  const confirmTo = `sitefile:confirm:${randomUUID()}`;
  const publisher = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
  // Its commands wait for Redis however long it is away: a SUBSCRIBE that gave up would never be sent again.
  const subscriber = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: null });
  const local = createLocalBus();
  const channels = new Set<string>();
  // ioredis reports each failed reconnection: one line per outage, not one per attempt.
  const outage = outageLog(log, {
    failing: 'redis bus: Redis unavailable, invalidations reach this instance only until it returns',
    working: 'redis bus: Redis reachable again',
  });
  const unconfirmed = outageLog(log, {
    failing: `redis bus: an instance did not confirm an invalidation within ${CONFIRM_WITHIN_MS} ms; each write waits that long for it`,
    working: 'redis bus: every instance confirms invalidations again',
  });
  for (const client of [publisher, subscriber]) {
    client.on('error', outage.failed);
    client.on('ready', outage.recovered);
  }

  const pending = new Map<string, Pending>();
  let published = 0;
  const settleIfComplete = (entry: Pending) => {
    if (entry.receivers !== undefined && entry.confirmations >= entry.receivers) entry.settle('confirmed');
  };
  const confirmed = (id: string) => {
    // No entry: the publish stopped waiting before this confirmation came.
    const entry = pending.get(id);
    if (!entry) return;
    entry.confirmations++;
    settleIfComplete(entry);
  };
  // Confirmations of a PUBLISH sent before this subscription is active would be lost.
  const confirmationsHeard = subscriber.subscribe(confirmTo).catch(outage.failed);

  subscriber.on('message', (channel: string, payload: string) => {
    if (channel === confirmTo) return confirmed(payload);
    if (!channel.startsWith(prefix)) return;
    const { key, confirm } = parseMessage(payload);
    void local.publish(channel.slice(prefix.length), key).then(() => {
      if (confirm?.to === confirmTo) confirmed(confirm.id);
      else if (confirm) publisher.publish(confirm.to, confirm.id).catch(outage.failed);
    });
  });
  // ioredis resubscribes by itself on reconnecting; every 'ready' after the first is a reconnection.
  const reconnectListeners: Array<() => void> = [];
  let readyBefore = false;
  subscriber.on('ready', () => {
    if (readyBefore) {
      log.info('redis bus reconnected: dropping cached authorizations');
      for (const listener of reconnectListeners) listener();
    }
    readyBefore = true;
  });
  return {
    async publish(channel, key) {
      await local.publish(channel, key);
      const id = String(++published);
      let timer: NodeJS.Timeout | undefined;
      const entry: Pending = { confirmations: 0, settle: () => {} };
      const outcome = new Promise<Outcome>((resolve) => {
        entry.settle = resolve;
        timer = setTimeout(() => resolve('unconfirmed'), CONFIRM_WITHIN_MS);
      });
      pending.set(id, entry);
      // Not awaited: whatever Redis does (down, or taking connections without answering), the bound holds.
      void (async () => {
        // Once Redis has refused a connection, waiting for the subscription would only hold the write.
        if (subscriber.status !== 'reconnecting') await Promise.race([confirmationsHeard, outcome]);
        const message: Message = { key, confirm: { id, to: confirmTo } };
        entry.receivers = await publisher.publish(prefix + channel, JSON.stringify(message));
        settleIfComplete(entry);
      })().catch((err) => {
        outage.failed(err);
        entry.settle('unsent');
      });
      const ended = await outcome;
      clearTimeout(timer);
      pending.delete(id);
      if (ended === 'confirmed') unconfirmed.recovered();
      if (ended === 'unconfirmed')
        unconfirmed.failed(
          entry.receivers === undefined
            ? 'Redis did not answer in time'
            : `${entry.confirmations} of ${entry.receivers} receivers confirmed`,
        );
    },
    subscribe(channel, listener) {
      local.subscribe(channel, listener);
      if (!channels.has(channel)) {
        channels.add(channel);
        subscriber.subscribe(prefix + channel).catch(outage.failed);
      }
    },
    onReconnect(listener) {
      reconnectListeners.push(listener);
    },
    async close() {
      for (const entry of pending.values()) entry.settle('unsent');
      await local.close();
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
