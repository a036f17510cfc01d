// Which organization a project belongs to: asked by the route mechanism on every project route (404 for a project
// of another organization) and by services that take a project outside the URL (through `app.caches`).
import type { Db } from '../db/connection.js';
import { findProjectOwner } from './queries.js';

/** Projects whose owner one instance keeps before it starts over. */
const MAX_PROJECTS = 100_000;

/** A project never changes organization, so its owner is kept for the life of the app (`app.caches`). */
export class ProjectOwners {
  private readonly owners = new Map<string, string>();

  constructor(private readonly db: Db) {}

  /** The organization that owns a project, or undefined when there is no such project. */
  async of(projectId: string): Promise<string | undefined> {
    const hit = this.owners.get(projectId);
    if (hit) return hit;
    const owner = await findProjectOwner(this.db, projectId);
    if (owner) {
      if (this.owners.size >= MAX_PROJECTS) this.owners.clear();
      this.owners.set(projectId, owner);
    }
    return owner;
  }
}
