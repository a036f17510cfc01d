import { ApiError } from '../errors.js';
import { unreachableReason } from './wait.js';

/** node-postgres' message when no pooled connection came free within `connectionTimeoutMillis`. */
const POOL_WAIT_EXPIRED = 'timeout exceeded when trying to connect';
/** SQLSTATE query_canceled: statement_timeout stopped the statement. */
const QUERY_CANCELED = '57014';

/**
 * The 503 that a database failure of the server's own budgets stands for (README: `DATABASE_POOL_WAIT_MS`,
 * `DATABASE_STATEMENT_TIMEOUT_MS`): the pool stayed busy past its wait, or a statement ran past its
 * timeout; or that a lost connection stands for (a failover, `pg_terminate_backend`, an idle transaction ended):
 * its transaction was rolled back, so the request can be sent again. Undefined for any other error. drizzle
 * wraps the driver's error in `cause`.
 */
export function databaseUnavailableError(err: unknown): ApiError | undefined {
  for (let e = err as { message?: unknown; code?: unknown; cause?: unknown } | undefined; e; e = e.cause as never) {
    if (e.message === POOL_WAIT_EXPIRED) {
      return new ApiError(
        'service_unavailable',
        'The database is busy: no connection came free in time; retry shortly',
        {
          headers: { 'Retry-After': '1' },
        },
      );
    }
    if (e.code === QUERY_CANCELED) {
      return new ApiError('service_unavailable', "The database statement ran past the server's statement timeout");
    }
  }
  if (unreachableReason(err)) {
    return new ApiError(
      'service_unavailable',
      'The connection to the database was lost during the request; retry shortly',
      {
        headers: { 'Retry-After': '1' },
      },
    );
  }
  return undefined;
}
