import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { emailFilingSettings, organizations, projects } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { findProjectOrg } from '../http/project-lookup.js';
import { newId } from '../ids.js';

export async function createOrganization(db: Db, input: { name: string; id?: string }) {
  const id = input.id ?? newId('org');
  await db.transaction(async (tx) => {
    await tx.insert(organizations).values({ id, name: input.name });
    await tx.insert(emailFilingSettings).values({ organizationId: id, aiSuggest: false });
  });
  return { id, name: input.name };
}

export async function createProject(
  db: Db,
  input: { organizationId: string; name: string; code?: string; id?: string },
) {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, input.organizationId));
  if (!org) throw ApiError.badRequest(`Unknown organization: ${input.organizationId}`);
  const id = input.id ?? newId('prj');
  await db.insert(projects).values({ id, organizationId: input.organizationId, name: input.name, code: input.code });
  return { id, name: input.name, organizationId: input.organizationId };
}

export { findProjectOrg };
