import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { projects } from '../db/schema.js';

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
  const [row] = await db
    .select({ organizationId: projects.organizationId })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (row) {
    if (cache.size > 100_000) cache.clear();
    cache.set(projectId, row.organizationId);
  }
  return row?.organizationId;
}
