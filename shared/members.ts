import { z } from 'zod';
import { Cursor, Id, listEnvelope, pageLimit, strictQuery, Timestamp } from './common.js';

export const MemberRole = z.enum(['admin', 'member']).meta({
  description: "`admin` also manages the organization's settings, keys and people",
});

export const MemberPath = z.object({ orgId: Id, userId: Id });
export const UserPath = z.object({ userId: Id });

export const MembersQuery = strictQuery({
  cursor: Cursor,
  limit: pageLimit(20),
  search: z
    .string()
    .trim()
    .min(1, { error: 'search must not be empty' })
    .max(200, { error: 'search must be at most 200 characters' })
    .optional()
    .meta({ description: 'Case-insensitive contains-match on name, e-mail or company' }),
});

export const Member = z
  .object({
    uid: z.string().meta({ description: 'Membership UID (the directory entry UID)' }),
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    role: MemberRole,
    disabled: z
      .boolean()
      .meta({ description: 'The person is disabled platform-wide (by staff): no sign-in, no token' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Member' });

export const MemberList = listEnvelope(Member);
export const MemberResponse = z.object({ data: Member });

export const UpdateMemberBody = z.strictObject({ role: MemberRole }).meta({ id: 'UpdateMember' });

export const Person = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    staff: z.boolean(),
    disabledAt: Timestamp.nullable().meta({ description: 'When the person was disabled; null when enabled' }),
  })
  .meta({ id: 'Person' });

export const PersonResponse = z.object({ data: Person });

export const UpdatePersonBody = z
  .strictObject({
    disabled: z.boolean().meta({
      description: 'true: no sign-in, and every token of the person is refused from the next request on',
    }),
  })
  .meta({ id: 'UpdatePerson' });

export type Member = z.infer<typeof Member>;
export type Person = z.infer<typeof Person>;
