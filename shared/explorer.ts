import { z } from 'zod';

/** The explorer: a small structured query language over the caller's data (never raw SQL). */

export const explorerEntities = [
  'documents',
  'submittals',
  'activity',
  'dispatches',
  'emails',
  'drawings',
  'reports',
] as const;
export const explorerOperators = ['eq', 'in', 'contains', 'gte', 'lte', 'between', 'isNull'] as const;

export const EXPLORER_MAX_LIMIT = 500;
/** Nesting of and/or/not groups, counting the top level. */
export const EXPLORER_MAX_DEPTH = 4;
export const EXPLORER_MAX_CONDITIONS = 50;

const FieldName = z
  .string()
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9]*$/, { error: 'field names are letters and digits, e.g. createdAt' });
const Scalar = z.union([z.string().max(500), z.number().finite(), z.boolean()]);

export const ExplorerComparison = z
  .object({
    field: FieldName,
    op: z.enum(explorerOperators),
    value: z
      .union([Scalar, z.array(Scalar).min(1).max(100)])
      .optional()
      .meta({
        description: 'A value; an array for `in` (1-100 values) and `between` ([from, to]); true/false for isNull',
      }),
  })
  .strict();

export type ExplorerComparison = z.infer<typeof ExplorerComparison>;
export type ExplorerCondition =
  | ExplorerComparison
  | { and: ExplorerCondition[] }
  | { or: ExplorerCondition[] }
  | { not: ExplorerCondition };

const ExplorerConditionTree: z.ZodType<ExplorerCondition> = z
  .lazy(() =>
    z.union([
      ExplorerComparison,
      z.object({ and: z.array(ExplorerConditionTree).min(1).max(20) }).strict(),
      z.object({ or: z.array(ExplorerConditionTree).min(1).max(20) }).strict(),
      z.object({ not: ExplorerConditionTree }).strict(),
    ]),
  )
  .meta({ id: 'ExplorerCondition' });

/** Depth of nested objects/arrays, walked without recursion so hostile input cannot exhaust the stack. */
export function nestingDepth(value: unknown, stopAt: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > stopAt) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

// A comparison inside `EXPLORER_MAX_DEPTH` groups sits at most this many objects/arrays deep.
const MAX_RAW_DEPTH = EXPLORER_MAX_DEPTH * 2 + 2;

// The depth is checked (iteratively) before the recursive schema runs, so hostile nesting is a clear
// 400 instead of a stack overflow; a failed check stops the pipe before the tree is parsed.
export const ExplorerWhere = z
  .preprocess((value, ctx) => {
    if (nestingDepth(value, MAX_RAW_DEPTH) > MAX_RAW_DEPTH) {
      ctx.addIssue({
        code: 'custom',
        message: `where is nested too deeply (at most ${EXPLORER_MAX_DEPTH} levels)`,
        input: value,
      });
    }
    return value;
  }, ExplorerConditionTree)
  .meta({
    description:
      'A comparison {field, op, value}, or {and: [...]}, {or: [...]}, {not: {...}} of them (at most 4 levels, 50 comparisons).',
  });

export const ExplorerAggregate = z
  .object({
    fn: z.enum(['count', 'min', 'max']),
    field: FieldName.optional().meta({ description: 'Required for min and max; omitted for count' }),
  })
  .strict();

export const ExplorerQuery = z
  .object({
    entity: z.enum(explorerEntities),
    fields: z
      .array(FieldName)
      .min(1)
      .max(30)
      .optional()
      .meta({ description: 'Columns to return (default: a useful set)' }),
    where: ExplorerWhere.optional(),
    groupBy: z.array(FieldName).min(1).max(3).optional(),
    aggregates: z
      .array(ExplorerAggregate)
      .min(1)
      .max(5)
      .optional()
      .meta({ description: 'With groupBy; default [{fn: "count"}]. Result columns: count, min_<field>, max_<field>' }),
    orderBy: z
      .array(z.object({ field: FieldName, direction: z.enum(['asc', 'desc']).default('asc') }).strict())
      .min(1)
      .max(3)
      .optional(),
    limit: z
      .number({ error: `limit must be an integer from 1 to ${EXPLORER_MAX_LIMIT}` })
      .int({ error: `limit must be an integer from 1 to ${EXPLORER_MAX_LIMIT}` })
      .min(1, { error: `limit must be an integer from 1 to ${EXPLORER_MAX_LIMIT}` })
      .max(EXPLORER_MAX_LIMIT, { error: `limit must be an integer from 1 to ${EXPLORER_MAX_LIMIT}` })
      .default(100),
    cursor: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .meta({ description: 'nextCursor of the previous page (not with groupBy)' }),
  })
  .strict()
  .meta({ id: 'ExplorerQuery' });

export type ExplorerQuery = z.infer<typeof ExplorerQuery>;

export const ExplorerValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const ExplorerResult = z
  .object({
    entity: z.enum(explorerEntities),
    columns: z.array(
      z.object({ name: z.string(), type: z.enum(['string', 'number', 'timestamp', 'date', 'boolean']) }),
    ),
    rows: z.array(z.record(z.string(), ExplorerValue)),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'ExplorerResult' });

export type ExplorerResult = z.infer<typeof ExplorerResult>;
