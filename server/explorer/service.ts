import type { SQL } from 'drizzle-orm';
import type { ExplorerQuery, ExplorerResult } from '../../shared/explorer.js';
import { type Caller, canAccessOrg, projectsInOrg } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { cutPage, decodeCursor, encodeCursor } from '../cursor.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { compileExplorerQuery, cursorBinding, type ScopeEntry } from './compile.js';
import { deadlineGuard, runExplorerStatement, stoppedByTimeout } from './queries.js';

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

/** An explorer query that ran past its time: a 503 that says what to change. */
async function runWithin(db: Db, timeoutMs: number, statement: SQL, guarded: boolean) {
  try {
    return await runExplorerStatement(db, timeoutMs, statement, guarded);
  } catch (err) {
    if (stoppedByTimeout(err)) {
      throw new ApiError(
        'service_unavailable',
        `The query ran longer than ${timeoutMs / 1000} s and was stopped; add filters or group by fewer fields`,
      );
    }
    throw err;
  }
}

/**
 * Compiles, checks and runs one explorer query over `organizationId` (or all of the caller's organizations)
 * within the configured time (both databases), as one of the caller's explorer slots
 * (`EXPLORER_QUERIES_PER_CLIENT`, `EXPLORER_QUERIES_MAX` on the instance).
 */
export async function runExplorerQuery(
  app: Pick<AppContext, 'db' | 'config' | 'gates' | 'cursorKey' | 'caches'>,
  caller: Caller,
  query: ExplorerQuery,
  organizationId: string | undefined,
): Promise<ExplorerResult> {
  const scope = explorerScope(caller, organizationId);
  const release = await app.gates.enter('explorer', caller.callerKey);
  try {
    return await runWithinScope(app, query, scope);
  } finally {
    release();
  }
}

async function runWithinScope(
  app: Pick<AppContext, 'db' | 'config' | 'cursorKey' | 'caches'>,
  query: ExplorerQuery,
  scope: ScopeEntry[],
): Promise<ExplorerResult> {
  const { db, config } = app;
  const binding = cursorBinding(query);
  const after = query.cursor ? decodeCursor(app.cursorKey, query.cursor, binding) : undefined;
  const guard = deadlineGuard(db, config.explorerTimeoutMs);
  const plan = compileExplorerQuery(query, scope, { after, guard });
  for (const projectId of plan.projectIds) {
    const orgId = await app.caches.projectOwners.of(projectId);
    const entry = scope.find((s) => s.orgId === orgId);
    if (!entry || (entry.projects !== 'all' && !entry.projects.includes(projectId))) {
      throw ApiError.badRequest(`where: project ${projectId} is outside your access`);
    }
  }
  const rows = await runWithin(db, config.explorerTimeoutMs, plan.sql, guard !== undefined);
  // A grouped result is not paged (a cursor on it is refused): it answers one page.
  const { page, hasMore, nextCursor } = cutPage(rows, plan.limit, (last) =>
    plan.grouped
      ? null
      : encodeCursor(app.cursorKey, { k: [last.__sort as string | number], id: String(last.__id) }, binding),
  );
  return {
    entity: query.entity,
    columns: plan.columns,
    rows: page.map((row) => Object.fromEntries(plan.columns.map((c) => [c.name, row[c.name] ?? null]))),
    hasMore,
    nextCursor,
  };
}
