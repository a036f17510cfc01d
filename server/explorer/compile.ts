import { type SQL, sql } from 'drizzle-orm';
import {
  EXPLORER_MAX_CONDITIONS,
  EXPLORER_MAX_DEPTH,
  type ExplorerComparison,
  type ExplorerCondition,
  type ExplorerQuery,
  type ExplorerResult,
} from '../../shared/explorer.js';
import type { CursorPayload } from '../cursor.js';
import { isoUtc } from '../db/sql-text.js';
import { ApiError } from '../errors.js';
import { isIsoDate, isIsoTimestamp } from '../iso-dates.js';
import { type EntityDef, explorerEntityDefs, type FieldDef, type FieldType } from './entities.js';

/** What the caller may reach: organizations whole ('all') or some of their projects. */
export interface ScopeEntry {
  orgId: string;
  projects: 'all' | readonly string[];
}

export interface ExplorerPlan {
  /** The statement (table alias `t`). */
  sql: SQL;
  columns: ExplorerResult['columns'];
  grouped: boolean;
  limit: number;
  /** Project ids named in filters: the caller checks them against its scope before running. */
  projectIds: string[];
  /** Ungrouped queries: the keyset sort field (for the next cursor). */
  sortField?: string;
}

const refuse = (message: string) => ApiError.badRequest(message);

const castOf: Record<FieldType, string> = {
  string: 'text',
  number: 'numeric',
  timestamp: 'timestamptz',
  date: 'date',
  boolean: 'boolean',
};

/** Whether a value fits a field's type as PostgreSQL will read it (dates that exist, finite numbers). */
const fitsType = (def: FieldDef, value: unknown): boolean =>
  (def.type === 'string' && typeof value === 'string') ||
  (def.type === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
  (def.type === 'boolean' && typeof value === 'boolean') ||
  (def.type === 'date' && isIsoDate(value)) ||
  (def.type === 'timestamp' && isIsoTimestamp(value));

/** A caller value as a typed bound parameter, after checking it fits the field's type. */
function param(fieldName: string, def: FieldDef, value: unknown): SQL {
  if (!fitsType(def, value)) {
    const expected = {
      string: 'a string',
      number: 'a number',
      boolean: 'true or false',
      date: 'a date YYYY-MM-DD',
      timestamp: 'an ISO 8601 date or date-time',
    }[def.type];
    throw refuse(`where: ${fieldName} expects ${expected}, got ${JSON.stringify(value)}`);
  }
  return sql`${value}::${sql.raw(castOf[def.type])}`;
}

const columnOf = (def: FieldDef) => sql.raw(def.sql);

/** The value as the API shows it: timestamps as ISO strings in UTC, dates as YYYY-MM-DD. */
function output(def: FieldDef, expr: SQL = columnOf(def)): SQL {
  if (def.type === 'timestamp') return isoUtc(expr);
  if (def.type === 'date') return sql`to_char(${expr}, 'YYYY-MM-DD')`;
  if (def.type === 'number') return sql`(${expr})::float8`;
  return expr;
}

function fieldOf(entity: EntityDef, entityName: string, name: string, where: string): FieldDef {
  const def = Object.hasOwn(entity.fields, name) ? entity.fields[name] : undefined;
  if (!def) {
    throw refuse(
      `${where}: unknown field "${name}" for ${entityName}; known: ${Object.keys(entity.fields).join(', ')}`,
    );
  }
  return def;
}

interface WhereContext {
  entity: EntityDef;
  entityName: string;
  scope: readonly ScopeEntry[];
  projectIds: Set<string>;
  comparisons: number;
}

function compileComparison(ctx: WhereContext, c: ExplorerComparison): SQL {
  const def = fieldOf(ctx.entity, ctx.entityName, c.field, 'where');
  const col = columnOf(def);
  const values = Array.isArray(c.value) ? c.value : undefined;
  const scalar = Array.isArray(c.value) ? undefined : c.value;
  const needScalar = () => {
    if (scalar === undefined) throw refuse(`where: ${c.op} on ${c.field} needs a single value`);
    return scalar;
  };
  const needRange = (op: string) => {
    if (def.type === 'string' || def.type === 'boolean') {
      throw refuse(`where: ${op} works on numbers, dates and timestamps, not on ${def.type} field ${c.field}`);
    }
  };
  // Scope fields: a value outside the caller's organizations or projects is refused, not just empty.
  if (def.scope && c.op !== 'eq' && c.op !== 'in' && c.op !== 'isNull') {
    throw refuse(`where: ${c.field} supports only eq, in and isNull`);
  }
  if (def.scope && (c.op === 'eq' || c.op === 'in')) {
    for (const value of values ?? [scalar]) {
      if (typeof value !== 'string') throw refuse(`where: ${c.field} expects a string id`);
      if (def.scope === 'org' && !ctx.scope.some((s) => s.orgId === value)) {
        throw refuse(`where: organization ${value} is outside your access`);
      }
      if (def.scope === 'project') ctx.projectIds.add(value);
    }
  }
  switch (c.op) {
    case 'eq':
      return sql`${col} = ${param(c.field, def, needScalar())}`;
    case 'in': {
      if (!values) throw refuse(`where: in on ${c.field} needs an array of 1 to 100 values`);
      return sql`${col} IN (${sql.join(
        values.map((v) => param(c.field, def, v)),
        sql`, `,
      )})`;
    }
    case 'contains': {
      if (def.type !== 'string')
        throw refuse(`where: contains works on text fields, not on ${def.type} field ${c.field}`);
      const needle = needScalar();
      if (typeof needle !== 'string' || needle.length === 0) throw refuse(`where: contains on ${c.field} needs text`);
      // What ILIKE '%needle%' means (PostgreSQL lowers both sides), in time linear in the text: strpos searches
      // with Boyer-Moore-Horspool, where the LIKE matcher backtracks at each start (a long needle over a long
      // text of near-matches: 500 times slower).
      return sql`strpos(lower(${col}), lower(${needle}::text)) > 0`;
    }
    case 'gte':
      needRange('gte');
      return sql`${col} >= ${param(c.field, def, needScalar())}`;
    case 'lte':
      needRange('lte');
      return sql`${col} <= ${param(c.field, def, needScalar())}`;
    case 'between': {
      needRange('between');
      if (values?.length !== 2) throw refuse(`where: between on ${c.field} needs [from, to]`);
      return sql`${col} BETWEEN ${param(c.field, def, values[0])} AND ${param(c.field, def, values[1])}`;
    }
    case 'isNull': {
      const wanted = c.value === undefined ? true : c.value;
      if (typeof wanted !== 'boolean') throw refuse(`where: isNull on ${c.field} takes true or false`);
      if (!def.nullable) throw refuse(`where: ${c.field} is never empty; isNull does not apply`);
      return wanted ? sql`${col} IS NULL` : sql`${col} IS NOT NULL`;
    }
  }
}

function compileCondition(ctx: WhereContext, condition: ExplorerCondition, depth: number): SQL {
  if (depth > EXPLORER_MAX_DEPTH) throw refuse(`where is nested too deeply (at most ${EXPLORER_MAX_DEPTH} levels)`);
  if ('field' in condition) {
    ctx.comparisons += 1;
    if (ctx.comparisons > EXPLORER_MAX_CONDITIONS) {
      throw refuse(`where has too many comparisons (at most ${EXPLORER_MAX_CONDITIONS})`);
    }
    return compileComparison(ctx, condition);
  }
  if ('not' in condition) return sql`NOT (${compileCondition(ctx, condition.not, depth + 1)})`;
  const [parts, joiner] = 'and' in condition ? [condition.and, sql` AND `] : [condition.or, sql` OR `];
  return sql`(${sql.join(
    parts.map((part) => compileCondition(ctx, part, depth + 1)),
    joiner,
  )})`;
}

/** The tenant predicate every explorer query carries, whatever the caller asked for. */
function scopePredicate(scope: readonly ScopeEntry[]): SQL {
  if (scope.length === 0) throw refuse('You have no organizations to query');
  const wholeOrgs = scope.filter((s) => s.projects === 'all').map((s) => s.orgId);
  const parts: SQL[] = [];
  if (wholeOrgs.length > 0) {
    parts.push(
      sql`t.organization_id IN (${sql.join(
        wholeOrgs.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  for (const entry of scope) {
    if (entry.projects === 'all') continue;
    if (entry.projects.length === 0) continue;
    parts.push(
      sql`(t.organization_id = ${entry.orgId} AND t.project_id IN (${sql.join(
        entry.projects.map((id) => sql`${id}`),
        sql`, `,
      )}))`,
    );
  }
  if (parts.length === 0) throw refuse('You have no projects to query');
  return sql`(${sql.join(parts, sql` OR `)})`;
}

export const cursorBinding = (query: ExplorerQuery) => ({
  e: query.entity,
  f: query.fields ?? null,
  w: query.where ?? null,
  o: query.orderBy ?? null,
});

/**
 * Compiles an explorer query to one parameterised statement. Every check (fields,
 * operators, value types, nesting, scope ids) happens here, before any SQL runs; the statement always carries
 * the tenant predicate and a LIMIT of at most 501 rows.
 */
export function compileExplorerQuery(
  query: ExplorerQuery,
  scope: readonly ScopeEntry[],
  options: { after?: CursorPayload } = {},
): ExplorerPlan {
  const { after } = options;
  const entity = explorerEntityDefs[query.entity]!;
  const ctx: WhereContext = { entity, entityName: query.entity, scope, projectIds: new Set(), comparisons: 0 };
  const predicates: SQL[] = [scopePredicate(scope)];
  if (entity.where) predicates.push(sql.raw(entity.where));
  if (query.where) predicates.push(compileCondition(ctx, query.where, 1));
  const base = { limit: query.limit, projectIds: [...ctx.projectIds] };
  if (query.groupBy || query.aggregates) return { ...base, ...compileGrouped(query, entity, predicates) };
  return { ...base, ...compileRows(query, entity, predicates, after) };
}

type CompiledStatement = Omit<ExplorerPlan, 'limit' | 'projectIds'>;

const tableOf = (entity: EntityDef) => sql.raw(`${entity.table} t`);

/** A grouped query: its groupBy fields and aggregates (count by default), sorted by count or the first group. */
function compileGrouped(query: ExplorerQuery, entity: EntityDef, predicates: SQL[]): CompiledStatement {
  if (!query.groupBy) throw refuse('aggregates need groupBy');
  if (query.fields)
    throw refuse('fields cannot be combined with groupBy; the result has the groupBy fields and aggregates');
  if (query.cursor) throw refuse('cursor does not apply to grouped queries; narrow the filters instead');
  const groups = query.groupBy.map((name) => ({ name, def: fieldOf(entity, query.entity, name, 'groupBy') }));
  const aggregates = (query.aggregates ?? [{ fn: 'count' as const }]).map((a) => {
    if (a.fn === 'count') {
      if (a.field) throw refuse('count takes no field');
      return {
        name: 'count',
        type: 'number' as const,
        expr: sql`count(*)::int`,
      };
    }
    if (!a.field) throw refuse(`${a.fn} needs a field`);
    const def = fieldOf(entity, query.entity, a.field, 'aggregates');
    if (def.type === 'boolean') throw refuse(`${a.fn} does not apply to true/false field ${a.field}`);
    const fn = sql.raw(a.fn === 'min' ? 'min' : 'max');
    return {
      name: `${a.fn}_${a.field}`,
      type: def.type,
      expr: output(def, sql`${fn}(${columnOf(def)})`),
    };
  });
  const names = new Set([...groups.map((g) => g.name), ...aggregates.map((a) => a.name)]);
  if (names.size !== groups.length + aggregates.length) throw refuse('groupBy and aggregates repeat a column');
  const order = (
    query.orderBy ?? [
      aggregates.some((a) => a.name === 'count')
        ? { field: 'count', direction: 'desc' as const }
        : { field: groups[0]!.name, direction: 'asc' as const },
    ]
  ).map((o) => {
    if (!names.has(o.field))
      throw refuse(`orderBy: ${o.field} is not a groupBy field or aggregate (${[...names].join(', ')})`);
    return sql`${sql.identifier(o.field)} ${sql.raw(o.direction === 'desc' ? 'DESC' : 'ASC')} NULLS LAST`;
  });
  const select = [
    ...groups.map((g) => sql`${output(g.def)} AS ${sql.identifier(g.name)}`),
    ...aggregates.map((a) => sql`${a.expr} AS ${sql.identifier(a.name)}`),
  ];
  const groupColumns = sql.join(
    groups.map((g) => columnOf(g.def)),
    sql`, `,
  );
  const orderBy = sql.join(order, sql`, `);
  return {
    grouped: true,
    columns: [
      ...groups.map((g) => ({ name: g.name, type: g.def.type })),
      ...aggregates.map((a) => ({ name: a.name, type: a.type })),
    ],
    sql: sql`SELECT ${sql.join(select, sql`, `)} FROM ${tableOf(entity)} WHERE ${sql.join(predicates, sql` AND `)} GROUP BY ${groupColumns} ORDER BY ${orderBy} LIMIT ${query.limit + 1}`,
  };
}

/** An ungrouped query: its fields, keyset-paginated on one sortable field and the id (after `after`). */
function compileRows(
  query: ExplorerQuery,
  entity: EntityDef,
  predicates: SQL[],
  after: CursorPayload | undefined,
): CompiledStatement {
  if (query.orderBy && query.orderBy.length > 1) throw refuse('orderBy takes one field unless you use groupBy');
  const sort = query.orderBy?.[0] ?? entity.defaultOrder;
  const sortDef = fieldOf(entity, query.entity, sort.field, 'orderBy');
  if (!sortDef.sortable) {
    const sortable = Object.entries(entity.fields)
      .filter(([, d]) => d.sortable)
      .map(([n]) => n);
    throw refuse(`orderBy: ${sort.field} cannot be sorted on; use one of ${sortable.join(', ')}`);
  }
  const fields = [...new Set(query.fields ?? entity.defaultFields)].map((name) => ({
    name,
    def: fieldOf(entity, query.entity, name, 'fields'),
  }));
  const direction = sql.raw(sort.direction === 'desc' ? 'DESC' : 'ASC');
  const idCol = sql.raw('t.id');
  if (after) {
    // The cursor's key is checked like a filter value: a forged one is a 400, never a failed cast.
    if (after.k.length !== 1 || !fitsType(sortDef, after.k[0])) throw refuse('Invalid cursor');
    const comparator = sql.raw(sort.direction === 'desc' ? '<' : '>');
    predicates.push(
      sql`(${columnOf(sortDef)}, ${idCol}) ${comparator} (${param(sort.field, sortDef, after.k[0])}, ${after.id})`,
    );
  }
  const select = [
    ...fields.map((f) => sql`${output(f.def)} AS ${sql.identifier(f.name)}`),
    sql`${idCol} AS "__id"`,
    sql`${output(sortDef)} AS "__sort"`,
  ];
  return {
    grouped: false,
    sortField: sort.field,
    columns: fields.map((f) => ({ name: f.name, type: f.def.type })),
    sql: sql`SELECT ${sql.join(select, sql`, `)} FROM ${tableOf(entity)} WHERE ${sql.join(predicates, sql` AND `)} ORDER BY ${columnOf(sortDef)} ${direction}, ${idCol} ${direction} LIMIT ${query.limit + 1}`,
  };
}
