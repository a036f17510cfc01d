import { z } from 'zod';

/** Shared building blocks of request and response schemas. */

export const Id = z.string().min(1).max(200);

/** Page size of a JSON list: 1..max, a default when absent; anything else is a 400. */
export const pageLimit = (defaultValue: number, max = 50) =>
  z.coerce
    .number({ error: `limit must be an integer from 1 to ${max}` })
    .int({ error: `limit must be an integer from 1 to ${max}` })
    .min(1, { error: `limit must be an integer from 1 to ${max}` })
    .max(max, { error: `limit must be an integer from 1 to ${max}` })
    .default(defaultValue);

/** A query-parameter schema that refuses unknown parameters: a misspelt filter must not silently list everything. */
export const strictQuery = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `Unknown query parameter: ${issue.keys.join(', ')}` : undefined,
  });

/** `filter.changedSince`: the `syncToken` an earlier walk's first page answered (a PostgreSQL xid8 as digits). */
export const ChangedSince = z
  .string()
  .regex(/^\d{1,19}$/, { error: 'must be the syncToken of an earlier answer' })
  .optional()
  .meta({
    description:
      'Incremental sync: the `syncToken` of the first page of your previous walk. Only rows changed since then are listed — including changes whose transaction was still open during that walk, so no committed change is missed (a row may come again). Deletions are not listed.',
    example: '18237',
  });

/** The token to pass as `filter.changedSince` next time (on the first page of a walk only). */
export const SyncTokenField = z.string().optional().meta({
  description:
    'On the first page of a walk (no `cursor`): keep it and pass it as `filter.changedSince` in the next sync, after you have walked every page of this one',
});

export const Cursor = z.string().min(1).max(2000).optional().meta({ description: 'Opaque cursor from `nextCursor`' });

interface FlagOptions {
  /** Accept the text `true` alone: a flag that is given or absent, never `false`. */
  trueOnly?: boolean;
  /** The message of a 400 for any other text (default: zod's, naming the accepted texts). */
  error?: string;
}

const readFlag = (text: string) => text === 'true';
const flagText = ({ trueOnly, error }: FlagOptions) =>
  z.enum(trueOnly ? ['true'] : ['true', 'false'], error === undefined ? undefined : { error });
const optionalFlag = (options: FlagOptions) => flagText(options).transform(readFlag).optional();
const defaultedFlag = (options: FlagOptions & { absent: boolean }) =>
  flagText(options)
    .default(options.absent ? 'true' : 'false')
    .transform(readFlag);

/**
 * A boolean query flag: the text `true` or `false` (or `true` alone, `trueOnly`), read as a boolean. Absent, it
 * is `absent` when that is given (the document shows it as the default), else undefined.
 */
export function queryFlag(options: FlagOptions & { absent: boolean }): ReturnType<typeof defaultedFlag>;
export function queryFlag(options?: FlagOptions): ReturnType<typeof optionalFlag>;
export function queryFlag(options: FlagOptions & { absent?: boolean } = {}) {
  return options.absent === undefined ? optionalFlag(options) : defaultedFlag({ ...options, absent: options.absent });
}

/** A comma-separated OR list of at most `max` characters, split and trimmed. */
export const commaList = (max = 500) =>
  z
    .string()
    .max(max)
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    );

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
  });

/** Year 0 passes ISO 8601's pattern, but PostgreSQL has none (a failed cast, a 500): dates start at 0001-01-01. */
const notYearZero = [
  (value: string) => !value.startsWith('0000'),
  { error: 'out of range: dates run from 0001-01-01' },
] as const;

export const Timestamp = z.iso
  .datetime()
  .refine(...notYearZero)
  .meta({ description: 'ISO 8601 in UTC' });
export const DateOnly = z.iso
  .date()
  .refine(...notYearZero)
  .meta({ description: 'YYYY-MM-DD' });

export const OrgPath = z.object({ orgId: Id });
export const ProjectPath = z.object({ orgId: Id, projectId: Id });

/**
 * The `limit` of a list that also exports CSV. JSON pages take 1–50 (default 25), checked by the server's
 * jsonPageSize; CSV (`Accept: text/csv`) takes a row cap, default 100000, larger values clamped. The document
 * states the JSON bounds, which is what most callers use.
 */
export const csvCapableLimit = z.coerce
  .number({ error: 'limit must be a positive integer' })
  .int({ error: 'limit must be a positive integer' })
  .min(1, { error: 'limit must be a positive integer' })
  .optional()
  .meta({
    maximum: 50,
    default: 25,
    description:
      'JSON: page size 1 to 50, default 25. CSV (Accept: text/csv): maximum rows, default 100000; larger values are clamped to 100000',
  });

export const DateBound = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with Z or an offset',
  })
  .meta({ description: 'Inclusive bound: YYYY-MM-DD (a whole UTC day) or an ISO 8601 date-time with a zone' });
