import type { OAuthClient } from '../../shared/clients.js';
import { isPermission, type Permission } from '../../shared/permissions.js';
import { hashSecret, newClientSecret } from '../auth/secrets.js';
import type { Db } from '../db/client.js';
import { ApiError } from '../http/errors.js';
import { newUuid } from '../ids.js';
import { existingScopeTargets, findClientRow, insertClient, toClientResources } from './queries.js';

export interface NewClient {
  name: string;
  description?: string;
  permissions: string[];
  orgIds: string[];
  projects: { orgId: string; projectId: string }[];
  superadmin?: boolean;
  enabled?: boolean;
  createdBy: string;
  createdByClientId?: string;
  createdByUserId?: string;
  /** Only for the CLI's reproducible demo key; otherwise a random secret is made. */
  secret?: string;
}

/** Creates a key; the returned secret is the only time it is ever visible. Unknown permission keys,
 *  unknown organizations and projects not in the named organization are a 400. */
export async function createClient(db: Db, input: NewClient): Promise<OAuthClient & { client_secret: string }> {
  const unknown = input.permissions.filter((p) => !isPermission(p));
  if (unknown.length > 0) throw ApiError.badRequest(`Unknown permission keys: ${unknown.join(', ')}`);
  const orgIds = [...new Set(input.orgIds)];
  const projects = [...new Map(input.projects.map((p) => [p.projectId, p])).values()];
  const found = await existingScopeTargets(
    db,
    [...new Set([...orgIds, ...projects.map((p) => p.orgId)])],
    projects.map((p) => p.projectId),
  );
  const missingOrgs = orgIds.filter((id) => !found.orgs.has(id));
  if (missingOrgs.length > 0) throw ApiError.badRequest(`Unknown organizations: ${missingOrgs.join(', ')}`);
  const badProjects = projects.filter((p) => found.projectOrg.get(p.projectId) !== p.orgId);
  if (badProjects.length > 0) {
    throw ApiError.badRequest(
      `Unknown projects for their organization: ${badProjects.map((p) => `${p.orgId}:${p.projectId}`).join(', ')}`,
    );
  }
  const secret = input.secret ?? newClientSecret();
  const id = newUuid();
  await db.transaction(async (tx) => {
    await insertClient(
      tx,
      {
        id,
        clientId: newUuid(),
        secretHash: await hashSecret(secret),
        name: input.name,
        description: input.description ?? '',
        superadmin: input.superadmin ?? false,
        enabled: input.enabled ?? true,
        permissions: [...new Set(input.permissions as Permission[])].sort(),
        createdBy: input.createdBy,
        createdByClientId: input.createdByClientId,
        createdByUserId: input.createdByUserId,
      },
      { orgs: orgIds, projects },
    );
  });
  const row = await findClientRow(db, id);
  const [resource] = await toClientResources(db, [row!]);
  return { ...resource!, client_secret: secret };
}
