import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type Db, poolOf } from '../db/connection.js';

/** How one AI re-ranking request ended (`sitefile_ai_requests_total{outcome}`). */
export type AiOutcome =
  | 'reranked'
  | 'none'
  | 'http_error'
  | 'timeout'
  | 'invalid_answer'
  | 'no_ranking'
  | 'network_error';

/**
 * The process's Prometheus metrics, one registry per app (made by createApp: two apps in one process, as in the
 * tests, count apart). The names are listed in docs/operations.md.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  httpInFlight: Gauge;
  connectionsClosed: Counter<'reason'>;
  rateLimitRefusals: Counter<'bucket'>;
  filings: Counter<'result'>;
  suggestionDuration: Histogram<'source'>;
  aiRequests: Counter<'outcome'>;
}

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const labelled = { method: 'HTTP method', route: 'route template (/v1/organization/:orgId …)', status: 'status' };
  const metrics: Metrics = {
    registry,
    httpRequests: new Counter({
      name: 'sitefile_http_requests_total',
      help: `Requests answered, by ${Object.values(labelled).join(', ')}`,
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'sitefile_http_request_duration_seconds',
      help: 'Time from the request to the end of its response, in seconds',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    httpInFlight: new Gauge({
      name: 'sitefile_http_requests_in_flight',
      help: 'Requests received whose response has not ended',
      registers,
    }),
    connectionsClosed: new Counter({
      name: 'sitefile_http_connections_closed_total',
      help: 'Sockets closed by the connection limits, by reason (idle_evicted: idle, to make room; address_share, full: a newcomer with no room)',
      labelNames: ['reason'],
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'sitefile_rate_limit_refusals_total',
      help: 'Requests refused with 429 by the rate limiter, by bucket (api, token-ip, token-client)',
      labelNames: ['bucket'],
      registers,
    }),
    filings: new Counter({
      name: 'sitefile_filings_total',
      help: 'E-mails filed into a project (result: filed, or duplicate of one already filed there)',
      labelNames: ['result'],
      registers,
    }),
    suggestionDuration: new Histogram({
      name: 'sitefile_suggestion_duration_seconds',
      help: 'Time to answer a project suggestion, in seconds, by source (local, local+ai)',
      labelNames: ['source'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
      registers,
    }),
    aiRequests: new Counter({
      name: 'sitefile_ai_requests_total',
      help: 'Requests to the AI provider, by outcome (reranked, http_error, timeout, invalid_answer, no_ranking, network_error)',
      labelNames: ['outcome'],
      registers,
    }),
  };
  const pool = poolOf(db);
  // node-postgres's own counts, read at each scrape.
  const poolGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  poolGauge('sitefile_db_pool_connections', 'PostgreSQL connections the pool holds', () => pool.totalCount);
  poolGauge('sitefile_db_pool_idle', 'Pool connections not in use', () => pool.idleCount);
  poolGauge('sitefile_db_pool_waiting', 'Queries waiting for a pool connection', () => pool.waitingCount);
  poolGauge('sitefile_db_pool_max', 'Most connections the pool opens', () => pool.options.max);
  return metrics;
}
