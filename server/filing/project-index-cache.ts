import type { Db } from '../db/connection.js';
import { projectsOfOrgs, projectsVersions } from './queries.js';
import { indexProjects, type OrgProjects } from './score.js';

/** Organizations whose indexed projects one instance keeps; the least recently used go first. */
const MAX_ORGANIZATIONS = 1_000;

/**
 * Per instance and organization, its projects indexed for scoring (names, codes), so a suggestion does not
 * read every project and rebuild the index. Every change to an organization's projects, by any writer (API,
 * CLI, seed) on any instance, counts up its projects_version in the same transaction (database triggers,
 * migration 0008): each request reads the versions (a primary-key lookup) and reloads the organizations whose
 * version moved, so a project created, renamed or given an alias is matched from the next request on.
 */
export class ProjectIndexCache {
  private readonly entries = new Map<string, { version: number; index: OrgProjects }>();

  constructor(private readonly db: Db) {}

  async of(orgIds: readonly string[]): Promise<OrgProjects[]> {
    const versions = await projectsVersions(this.db, orgIds);
    const stale = versions.filter((v) => this.entries.get(v.organizationId)?.version !== v.version);
    // The reload reads rows and version in one snapshot: a change that lands in between gives a newer
    // version than `versions` says, which the next request reloads again — never an old index kept.
    for (const org of await projectsOfOrgs(
      this.db,
      stale.map((v) => v.organizationId),
    )) {
      this.entries.set(org.organizationId, { version: org.version, index: indexProjects(org.projects) });
    }
    const indexes = versions.flatMap(({ organizationId }) => {
      const entry = this.entries.get(organizationId);
      if (!entry) return [];
      // Most recently used last: the first key is the one to evict.
      this.entries.delete(organizationId);
      this.entries.set(organizationId, entry);
      return [entry.index];
    });
    this.evict();
    return indexes;
  }

  private evict() {
    while (this.entries.size > MAX_ORGANIZATIONS) this.entries.delete(this.entries.keys().next().value!);
  }
}

declare module '../context.js' {
  interface AppCaches {
    /** Each organization's projects indexed for suggestions. */
    projectIndex: ProjectIndexCache;
  }
}
