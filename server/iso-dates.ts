/**
 * Strict ISO 8601 checks for values that reach SQL as dates or timestamps. `Date.parse` rolls impossible
 * days over (2025-02-30 → 2 March) while PostgreSQL refuses them, so a value that passed `Date.parse`
 * could still fail in the database as a 500; these checks refuse it first.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-](\d{2}):(\d{2}))?)?$/;

const isLeap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysIn = (year: number, month: number) =>
  month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

function isIso(value: unknown, allowTime: boolean): value is string {
  if (typeof value !== 'string') return false;
  const m = ISO.exec(value);
  if (!m || (m[4] !== undefined && !allowTime)) return false;
  const [year, month, day, hour, minute, second, zoneHour, zoneMinute] = [1, 2, 3, 5, 6, 7, 8, 9].map((i) =>
    Number(m[i] ?? 0),
  ) as [number, number, number, number, number, number, number, number];
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    zoneHour <= 15 &&
    zoneMinute <= 59
  );
}

/** A calendar date YYYY-MM-DD that exists (no 2025-02-30, no year 0). */
export const isIsoDate = (value: unknown): value is string => isIso(value, false);

/** A date, or a date and time (minutes, optional seconds and fraction, optional Z or ±hh:mm), that exists. */
export const isIsoTimestamp = (value: unknown): value is string => isIso(value, true);
