import { type AnyColumn, asc, desc, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { KeysetPosition } from '../cursor.js';
import type { CsvKey } from './csv-copy.js';
import { isoUtc } from './sql-text.js';

/** A list order by one sort key then the id, both in one direction: its ORDER BY and where a page starts. */
export interface KeysetOrder {
  orderBy: [SQL, SQL];
  /** Rows strictly after `position` in this order; undefined (no condition) without a position. */
  after(position: KeysetPosition<string | number> | undefined): SQL | undefined;
  /** A row's key and id as text, as a cursor carries them (a timestamp in ISO 8601): an export's page key. */
  keyText: [SQL, SQL];
}

/** The position after the row whose `keyText` an export's page read (db/csv-copy.ts). */
export const positionOfKey = (key: CsvKey): KeysetPosition => ({ key: String(key[0]), id: String(key[1]) });

/**
 * `key direction, id direction`. A page after a position is one row comparison, which PostgreSQL reads as a
 * range of an index on (key, id). `cast` types the cursor's text as the key's column (a timestamp travels in
 * the cursor as ISO 8601 text).
 */
export function keysetOrder(
  key: AnyColumn | SQLWrapper,
  id: AnyColumn | SQLWrapper,
  direction: 'asc' | 'desc',
  cast?: 'timestamptz',
): KeysetOrder {
  const by = direction === 'asc' ? asc : desc;
  const beyond = sql.raw(direction === 'asc' ? '>' : '<');
  return {
    orderBy: [by(key), by(id)],
    keyText: [cast === 'timestamptz' ? isoUtc(key) : sql`${key}::text`, sql`${id}::text`],
    after: (position) => {
      if (!position) return undefined;
      const value = cast ? sql`${position.key}::${sql.raw(cast)}` : sql`${position.key}`;
      return sql`(${key}, ${id}) ${beyond} (${value}, ${position.id})`;
    },
  };
}
