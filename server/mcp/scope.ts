import { type Caller, canAccessOrg, canAccessProject } from '../auth/caller.js';
import { findProjectOrg } from '../auth/project-owner.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import type { ScopeEntry } from '../explorer/compile.js';
import { findDocumentOwner, findMessageOwners } from './queries.js';

/**
 * A project the caller reaches, as a one-project scope. A project of an organization the caller does not
 * reach is "not found", exactly like an unknown id, so the answer never tells that it exists elsewhere;
 * only a project of the caller's own organization outside a project-scoped grant is "outside your access".
 */
export async function projectScope(db: Db, caller: Caller, projectId: string): Promise<ScopeEntry[]> {
  const orgId = await findProjectOrg(db, projectId);
  if (!orgId || !canAccessOrg(caller.scope, orgId)) throw ApiError.notFound('Project');
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

/**
 * The projects of one mailer message that the caller reaches (a message goes to one project, but nothing
 * relies on that); none → "not found". Works for platform-wide keys too, which have no organization list.
 */
export async function messageScope(db: Db, caller: Caller, mailerMessageId: string): Promise<ScopeEntry[]> {
  const owners = await findMessageOwners(db, mailerMessageId);
  const reached = owners.filter((o) => canAccessProject(caller.scope, o.organizationId, o.projectId));
  if (reached.length === 0) throw ApiError.notFound('E-mail');
  return reached.map((o) => ({ orgId: o.organizationId, projects: [o.projectId] }));
}
