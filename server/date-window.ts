import { ApiError } from './errors.js';

/** A `from`/`to` filter as a half-open UTC interval: `from <= t < before`. */
export interface DateWindow {
  from?: Date;
  before?: Date;
}

const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const DAY_MS = 86_400_000;

/** A date-only value is the instant its UTC day starts; a date-time is the instant it names. */
const instantOf = (value: string) => new Date(isDateOnly(value) ? `${value}T00:00:00.000Z` : value);

/** The instants a bound may stand for: years 0001 to 9999 in UTC, what an ISO 8601 string (and so the SQL a
 *  window becomes) can write; beyond them PostgreSQL refuses the text (year 0, `+010000-01-01`). */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** The parameter names of a window's two bounds, for the 400 that names the one out of range. */
export interface BoundNames {
  from: string;
  to: string;
}

function withinRange(instant: Date, parameter: string): Date {
  const ms = instant.getTime();
  if (Number.isNaN(ms) || ms < EARLIEST || ms > LATEST) {
    throw new ApiError('validation_failed', `Invalid query parameter: ${parameter}`, {
      details: [
        {
          path: parameter,
          message:
            'out of range: dates run from 0001-01-01 to 9999-12-31 UTC, and an upper bound (which covers its whole day) to 9999-12-30',
        },
      ],
    });
  }
  return instant;
}

/**
 * Both bounds are inclusive (spec). A date-only `from` starts at 00:00 UTC that day; a date-only `to` covers
 * that whole UTC day. Date-times carry their zone and are compared as instants. Timestamps are stored to the
 * millisecond, so an inclusive date-time `to` is the exclusive bound one millisecond later. A window that ends
 * before it starts matches nothing. A bound outside years 0001–9999 (UTC) is a 400 naming its parameter.
 */
export function inclusiveWindow(
  from: string | undefined,
  to: string | undefined,
  names: BoundNames = { from: 'from', to: 'to' },
): DateWindow {
  const window: DateWindow = {};
  if (from !== undefined) window.from = withinRange(instantOf(from), names.from);
  if (to !== undefined) {
    window.before = withinRange(new Date(instantOf(to).getTime() + (isDateOnly(to) ? DAY_MS : 1)), names.to);
  }
  return window;
}

/** The `from`/`to` query parameters of a list as a window; `from` after `to` is a 400. */
export function dateWindow(from: string | undefined, to: string | undefined): DateWindow {
  const window = inclusiveWindow(from, to);
  if (window.from && window.before && window.from.getTime() >= window.before.getTime()) {
    throw new ApiError('validation_failed', 'Invalid query parameters: from, to', {
      details: [{ path: 'from', message: 'from must not be after to' }],
    });
  }
  return window;
}
