import { type AnyColumn, asc, desc, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { KeysetPosition } from '../cursor.js';

/** A list order by one sort key then the id, both in one direction: its ORDER BY and where a page starts. */
export interface KeysetOrder {
  orderBy: [SQL, SQL];
  /** Rows strictly after `position` in this order; undefined (no condition) without a position. */
  after(position: KeysetPosition<string | number> | undefined): SQL | undefined;
}

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
    after: (position) => {
      if (!position) return undefined;
      const value = cast ? sql`${position.key}::${sql.raw(cast)}` : sql`${position.key}`;
      return sql`(${key}, ${id}) ${beyond} (${value}, ${position.id})`;
    },
  };
}
