import type { Logger } from 'pino';
import type { BearerGuard } from './auth/guard.js';
import type { TokenService } from './auth/tokens.js';
import type { BlobStore } from './blobs/store.js';
import type { InvalidationBus } from './cache/bus.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/client.js';

/** Everything a handler may use, built once by createApp: no module-level globals. */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  blobs: BlobStore;
  bus: InvalidationBus;
  tokens: TokenService;
  guard: BearerGuard;
}
