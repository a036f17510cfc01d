import type { Permission } from '../../shared/permissions.js';

/** Which organizations and projects a caller may reach. */
export interface Scope {
  /** superadmin keys: every organization. */
  allOrgs: boolean;
  /** Organizations granted whole (every project in them). */
  orgs: ReadonlySet<string>;
  /** Projects granted one by one, by organization. */
  projects: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface Caller {
  kind: 'client' | 'user';
  /** Client row id or user id. */
  id: string;
  /** Public client id (keys) or user id (people): what rate limits and idempotency keys hang on. */
  subject: string;
  /** `client:<clientId>` or `user:<userId>`. */
  callerKey: string;
  /** For audit fields such as createdBy: the user's e-mail, or the key's creator. */
  email: string;
  name: string;
  staff: boolean;
  superadmin: boolean;
  permissions: ReadonlySet<Permission>;
  scope: Scope;
  /** For users: role per organization membership. */
  roles: ReadonlyMap<string, 'admin' | 'member'>;
}

export const canAccessOrg = (scope: Scope, orgId: string): boolean =>
  scope.allOrgs || scope.orgs.has(orgId) || scope.projects.has(orgId);

/** The whole organization: granted whole, or every organization (superadmin); a key reaching some of its projects
 *  does not. */
export const canAccessWholeOrg = (scope: Scope, orgId: string): boolean => scope.allOrgs || scope.orgs.has(orgId);

export const canAccessProject = (scope: Scope, orgId: string, projectId: string): boolean =>
  canAccessWholeOrg(scope, orgId) || (scope.projects.get(orgId)?.has(projectId) ?? false);

/** Within one organization: every project ('all'), or only these. */
export const projectsInOrg = (scope: Scope, orgId: string): 'all' | readonly string[] =>
  canAccessWholeOrg(scope, orgId) ? 'all' : [...(scope.projects.get(orgId) ?? [])];

/** The organizations a scope reaches: 'all' (superadmin), or these ids (whole, or through one of their projects). */
export const reachableOrgIds = (scope: Scope): 'all' | string[] =>
  scope.allOrgs ? 'all' : [...new Set([...scope.orgs, ...scope.projects.keys()])].sort();

/** Organization admins (and staff) manage an organization's settings. */
export const isOrgAdmin = (caller: Caller, orgId: string): boolean =>
  caller.staff || (caller.kind === 'user' && caller.roles.get(orgId) === 'admin');

/** Who a record belongs to: the person who made it, in its organization. */
export interface RecordOwner {
  organizationId: string;
  userId: string;
}

/** The person who made a record may act on it, and so may its organization's admins (and staff). */
export const isOwnerOrOrgAdmin = (caller: Caller, owner: RecordOwner): boolean =>
  (caller.kind === 'user' && caller.id === owner.userId) || isOrgAdmin(caller, owner.organizationId);
