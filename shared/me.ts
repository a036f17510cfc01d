import { z } from 'zod';

/** The most organizations GET /v1/me lists for staff (who reach every organization). */
export const MAX_ME_ORGANIZATIONS = 500;

export const MyOrganization = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(['admin', 'member', 'staff']).meta({ description: 'staff: reached through the staff flag' }),
});

export const Me = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    staff: z.boolean(),
    organizations: z.array(MyOrganization).meta({ description: 'Organizations this person may act in, by name' }),
    organizationsTruncated: z
      .boolean()
      .meta({ description: `true when more than ${MAX_ME_ORGANIZATIONS} organizations exist (staff only)` }),
  })
  .meta({ id: 'Me' });

export type Me = z.infer<typeof Me>;
export type MyOrganization = z.infer<typeof MyOrganization>;
