import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';

const dialect = new PgDialect();

/**
 * The text of a drizzle query with its parameters written in as literals, for statements that take no
 * parameters (`COPY (query) TO STDOUT`). Strings go through node-postgres' `escapeLiteral` (safe whatever
 * `standard_conforming_strings` says); only strings and finite numbers are accepted.
 */
export function withInlineParams(query: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string') return pg.escapeLiteral(value);
    throw new TypeError(`Cannot inline a parameter of type ${typeof value}`);
  });
}

/** A `timestamptz(3)` as the API's ISO 8601 text in UTC, written by the database, identical on every driver. */
export const isoUtc = (column: SQLWrapper): SQL =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
