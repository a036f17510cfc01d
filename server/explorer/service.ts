import { type SQL, sql } from 'drizzle-orm';
import type { ExplorerQuery, ExplorerResult } from '../../shared/explorer.js';
import { type Caller, canAccessOrg, projectsInOrg } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { type Db, isPglite } from '../db/client.js';
import { ApiError } from '../errors.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { findProjectOrg } from '../organizations/service.js';
import { compileExplorerQuery, cursorBinding, type ScopeEntry } from './compile.js';

/** The organizations an explorer query runs over: one named organization, or all of the caller's. */
export function explorerScope(caller: Caller, organizationId: string | undefined): ScopeEntry[] {
  if (organizationId) {
    if (!canAccessOrg(caller.scope, organizationId)) {
      throw new ApiError('forbidden', `Organization ${organizationId} is outside your access`);
    }
    return [{ orgId: organizationId, projects: projectsInOrg(caller.scope, organizationId) }];
  }
  if (caller.scope.allOrgs) throw ApiError.badRequest('organizationId is required for platform-wide keys');
  const orgIds = new Set([...caller.scope.orgs, ...caller.scope.projects.keys()]);
  return [...orgIds].sort().map((orgId) => ({ orgId, projects: projectsInOrg(caller.scope, orgId) }));
}

type Row = Record<string, string | number | boolean | null>;

const sqlStateOf = (err: unknown): string | undefined =>
  (err as { code?: string }).code ?? ((err as { cause?: { code?: string } }).cause?.code || undefined);

/**
 * PostgreSQL stops a statement with statement_timeout. PGlite ignores that setting, and while its
 * WebAssembly engine runs nothing in this process can interrupt it, so there the statement checks its
 * own clock row by row: this filter (migration 0004), which raises the same error code.
 */
const deadlineGuard = (db: Db, timeoutMs: number): SQL | undefined =>
  isPglite(db) ? sql`explorer_within_deadline(${timeoutMs})` : undefined;

async function runWithin(db: Db, timeoutMs: number, statement: SQL, guarded: boolean): Promise<Row[]> {
  try {
    return await db.transaction(async (tx) => {
      if (!guarded) await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${timeoutMs}`));
      const result = await tx.execute(statement);
      return (result as unknown as { rows: Row[] }).rows;
    });
  } catch (err) {
    // drizzle wraps the driver's error; the SQLSTATE is on its cause.
    if (sqlStateOf(err) === '57014') {
      throw new ApiError(
        'service_unavailable',
        `The query ran longer than ${timeoutMs / 1000} s and was stopped; add filters or group by fewer fields`,
      );
    }
    throw err;
  }
}

/** Compiles, checks and runs one explorer query within the configured time (both databases). */
export async function runExplorerQuery(
  app: Pick<AppContext, 'db' | 'config'>,
  query: ExplorerQuery,
  scope: ScopeEntry[],
): Promise<ExplorerResult> {
  const { db, config } = app;
  const after = query.cursor ? decodeCursor(query.cursor, cursorBinding(query)) : undefined;
  const guard = deadlineGuard(db, config.explorerTimeoutMs);
  const plan = compileExplorerQuery(query, scope, { after, guard });
  for (const projectId of plan.projectIds) {
    const orgId = await findProjectOrg(db, projectId);
    const entry = scope.find((s) => s.orgId === orgId);
    if (!entry || (entry.projects !== 'all' && !entry.projects.includes(projectId))) {
      throw ApiError.badRequest(`where: project ${projectId} is outside your access`);
    }
  }
  const rows = await runWithin(db, config.explorerTimeoutMs, plan.sql, guard !== undefined);
  const hasMore = rows.length > plan.limit;
  const page = rows.slice(0, plan.limit);
  const last = page.at(-1);
  const nextCursor =
    hasMore && !plan.grouped && last
      ? encodeCursor({ k: [last.__sort as string | number], id: String(last.__id) }, cursorBinding(query))
      : null;
  return {
    entity: query.entity,
    columns: plan.columns,
    rows: page.map((row) => Object.fromEntries(plan.columns.map((c) => [c.name, row[c.name] ?? null]))),
    hasMore,
    nextCursor,
  };
}
