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

/**
 * Both bounds are inclusive (spec). A date-only `from` starts at 00:00 UTC that day; a date-only `to` covers
 * that whole UTC day. Date-times carry their zone and are compared as instants. Timestamps are stored to the
 * millisecond, so an inclusive date-time `to` is the exclusive bound one millisecond later. A window that ends
 * before it starts matches nothing.
 */
export function inclusiveWindow(from: string | undefined, to: string | undefined): DateWindow {
  const window: DateWindow = {};
  if (from !== undefined) window.from = instantOf(from);
  if (to !== undefined) window.before = new Date(instantOf(to).getTime() + (isDateOnly(to) ? DAY_MS : 1));
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
