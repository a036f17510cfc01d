// Which organization a project belongs to: asked by the route mechanism on every project route (404 for a project
// of another organization) and by services that take a project outside the URL.
import type { Db } from '../db/connection.js';
import { findProjectOwner } from './queries.js';

// A project never changes organization, so its owner can be cached for the life of the process.
const owners = new WeakMap<Db, Map<string, string>>();

/** The organization that owns a project, or undefined when there is no such project. */
export async function findProjectOrg(db: Db, projectId: string): Promise<string | undefined> {
  let cache = owners.get(db);
  if (!cache) {
    cache = new Map();
    owners.set(db, cache);
  }
  const hit = cache.get(projectId);
  if (hit) return hit;
  const owner = await findProjectOwner(db, projectId);
  if (owner) {
    if (cache.size > 100_000) cache.clear();
    cache.set(projectId, owner);
  }
  return owner;
}
