import type { ExplorerQuery, ExplorerResult } from '../../shared/explorer.js';
import { type Caller, projectsInOrg } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { cutPage, decodeCursor, encodeCursor } from '../cursor.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { compileExplorerQuery, cursorBinding, type ExplorerPlan, type ScopeEntry } from './compile.js';
import { runExplorerPlan, stoppedByTimeout } from './queries.js';

/** An explorer query that ran past its time: a 503 that says what to change. */
async function runWithin(db: Db, timeoutMs: number, plan: ExplorerPlan) {
  try {
    return await runExplorerPlan(db, timeoutMs, plan);
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
 * Compiles, checks and runs one explorer query over the projects of `orgId` the caller reaches (the route has
 * checked the organization) within the configured time (both databases), as one of the caller's explorer slots
 * (`EXPLORER_QUERIES_PER_CLIENT`, `EXPLORER_QUERIES_MAX` on the instance).
 */
export async function runExplorerQuery(
  app: Pick<AppContext, 'db' | 'config' | 'gates' | 'cursorKey' | 'caches'>,
  caller: Caller,
  query: ExplorerQuery,
  orgId: string,
): Promise<ExplorerResult> {
  const scope = [{ orgId, projects: projectsInOrg(caller.scope, orgId) }];
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
  const plan = compileExplorerQuery(query, scope, { after });
  for (const projectId of plan.projectIds) {
    const orgId = await app.caches.projectOwners.of(projectId);
    const entry = scope.find((s) => s.orgId === orgId);
    if (!entry || (entry.projects !== 'all' && !entry.projects.includes(projectId))) {
      throw ApiError.badRequest(`where: project ${projectId} is outside your access`);
    }
  }
  const rows = await runWithin(db, config.explorerTimeoutMs, plan);
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
