import { sql } from 'drizzle-orm';
import type { ExplorerQuery, ExplorerResult } from '../../shared/explorer.js';
import { type Caller, canAccessOrg, projectsInOrg } from '../auth/caller.js';
import type { Db } from '../db/client.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { ApiError } from '../http/errors.js';
import { findProjectOrg } from '../http/project-lookup.js';
import { compileExplorerQuery, cursorBinding, type ScopeEntry } from './compile.js';

export const EXPLORER_STATEMENT_TIMEOUT_MS = 5000;

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

/** Compiles, checks and runs one explorer query under a statement timeout. */
export async function runExplorerQuery(db: Db, query: ExplorerQuery, scope: ScopeEntry[]): Promise<ExplorerResult> {
  const after = query.cursor ? decodeCursor(query.cursor, cursorBinding(query)) : undefined;
  const plan = compileExplorerQuery(query, scope, after);
  for (const projectId of plan.projectIds) {
    const orgId = await findProjectOrg(db, projectId);
    const entry = scope.find((s) => s.orgId === orgId);
    if (!entry || (entry.projects !== 'all' && !entry.projects.includes(projectId))) {
      throw ApiError.badRequest(`where: project ${projectId} is outside your access`);
    }
  }
  let rows: Row[];
  try {
    rows = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${EXPLORER_STATEMENT_TIMEOUT_MS}`));
      const result = await tx.execute(plan.sql);
      return (result as unknown as { rows: Row[] }).rows;
    });
  } catch (err) {
    if ((err as { code?: string }).code === '57014') {
      throw new ApiError(
        'service_unavailable',
        `The query ran longer than ${EXPLORER_STATEMENT_TIMEOUT_MS / 1000} s; add filters or group by fewer fields`,
      );
    }
    throw err;
  }
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
