import { type Caller, canAccessProject } from '../auth/caller.js';
import type { Db } from '../db/client.js';
import type { ScopeEntry } from '../explorer/compile.js';
import { ApiError } from '../http/errors.js';
import { findProjectOrg } from '../http/project-lookup.js';
import { findDocumentOwner } from './queries.js';

/** A project the caller reaches, as a one-project scope; otherwise a clear refusal. */
export async function projectScope(db: Db, caller: Caller, projectId: string): Promise<ScopeEntry[]> {
  const orgId = await findProjectOrg(db, projectId);
  if (!orgId) throw ApiError.notFound('Project');
  if (!canAccessProject(caller.scope, orgId, projectId)) {
    throw new ApiError('forbidden', `Project ${projectId} is outside your access`);
  }
  return [{ orgId, projects: [projectId] }];
}

/** The document's project, when the caller reaches it; an unreachable document is "not found". */
export async function documentScope(db: Db, caller: Caller, documentId: string): Promise<ScopeEntry[]> {
  const owner = await findDocumentOwner(db, documentId);
  if (!owner || !canAccessProject(caller.scope, owner.organizationId, owner.projectId)) {
    throw ApiError.notFound('Document');
  }
  return [{ orgId: owner.organizationId, projects: [owner.projectId] }];
}
