import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { outageLog } from '../outage-log.js';

/** Cache invalidation across server instances: Redis pub/sub when REDIS_URL is set, in-process otherwise. */
export interface InvalidationBus {
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

export function createRedisBus(redisUrl: string, log: Logger): InvalidationBus {
  const prefix = 'sitefile:invalidate:';
  const publisher = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const subscriber = new Redis(redisUrl, { lazyConnect: false });
  const local = createLocalBus();
  const channels = new Set<string>();
  // ioredis reports each failed reconnection: one line per outage, not one per attempt.
  const outage = outageLog(log, {
    failing: 'redis bus: Redis unavailable, invalidations reach this instance only until it returns',
    working: 'redis bus: Redis reachable again',
  });
  for (const client of [publisher, subscriber]) {
    client.on('error', outage.failed);
    client.on('ready', outage.recovered);
  }
  subscriber.on('message', (channel: string, key: string) => {
    if (channel.startsWith(prefix)) void local.publish(channel.slice(prefix.length), key);
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
      // Apply locally at once, then tell the other instances; a Redis outage must not fail the write.
      await local.publish(channel, key);
      await publisher.publish(prefix + channel, key).catch(outage.failed);
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
      await local.close();
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
