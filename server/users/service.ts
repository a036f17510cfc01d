import { eq, sql } from 'drizzle-orm';
import { hashSecret } from '../auth/secrets.js';
import type { Db } from '../db/client.js';
import { organizationMembers, organizations, users } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { newId } from '../ids.js';

export interface NewUser {
  email: string;
  name: string;
  password?: string;
  staff?: boolean;
  memberships?: { orgId: string; role: 'admin' | 'member' }[];
  company?: string;
  title?: string;
  phone?: string;
}

export async function createUser(db: Db, input: NewUser) {
  const email = input.email.trim();
  const [existing] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${email})`);
  if (existing) throw new ApiError('conflict', `A user with e-mail ${email} already exists`);
  for (const m of input.memberships ?? []) {
    const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, m.orgId));
    if (!org) throw ApiError.badRequest(`Unknown organization: ${m.orgId}`);
  }
  const id = newId('usr');
  const passwordHash = input.password ? await hashSecret(input.password) : null;
  await db.transaction(async (tx) => {
    await tx.insert(users).values({
      id,
      email,
      name: input.name,
      passwordHash,
      staff: input.staff ?? false,
      company: input.company,
      title: input.title,
      phone: input.phone,
    });
    if (input.memberships?.length) {
      await tx
        .insert(organizationMembers)
        .values(
          input.memberships.map((m) => ({ id: newId('mem'), organizationId: m.orgId, userId: id, role: m.role })),
        );
    }
  });
  return { id, email, name: input.name, staff: input.staff ?? false };
}

export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return user;
}
