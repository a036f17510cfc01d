import { z } from 'zod';
import { Cursor, listEnvelope, pageLimit, strictQuery, Timestamp } from './common.js';

export const Organization = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Organization' });

export const MAX_REFERENCE_NUMBERS = 30;
/** "KL-MT-B": three parts or more joined by . # _ / - (no spaces), five letters and digits or more. */
const isLetteredCode = (v: string) =>
  !/\s/.test(v) && v.split(/[.#_/-]+/).filter(Boolean).length >= 3 && v.replace(/[^\p{L}\p{N}]/gu, '').length >= 5;

const ReferenceNumber = z
  .strictObject({
    label: z
      .string()
      .trim()
      .min(1)
      .max(60)
      .meta({ description: 'What the number is: "Permit", "Owner project no.", "PO".' }),
    value: z
      .string()
      .trim()
      .min(3)
      .max(60)
      .regex(/^[\p{L}\p{N}][\p{L}\p{N} .#_/-]*$/u, {
        error: 'must be letters and digits, optionally with space . # _ / -',
      })
      // A code of three parts is read by its segments, digits or not (server/filing/clues/project-fields.ts);
      // a word ("pending"), words ("phase one b") or a short number ("BP-12") would match mail by chance.
      .refine((v) => (v.match(/\d/g) ?? []).length >= 3 || isLetteredCode(v), {
        error: 'must have at least 3 digits, or be a code of 3 parts such as KL-MT-B (a number or code mail can quote)',
      })
      .meta({ description: 'As written on the documents: "BP26-0113", "PO 4471", "CP-4488", "KL-MT-B".' }),
  })
  .meta({ id: 'ReferenceNumber' });
const ReferenceNumbers = z
  .array(ReferenceNumber)
  .max(MAX_REFERENCE_NUMBERS)
  .refine((list) => new Set(list.map((r) => r.value.toLowerCase())).size === list.length, {
    error: 'values must not repeat',
  });
const SiteAddress = z
  .string()
  .trim()
  .max(300)
  .regex(/\d[\p{L}\p{N}-]*\s+\p{L}/u, { error: 'must have a street number and street ("1450 Mercer St")' });

export const Project = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    name: z.string(),
    code: z.string().nullable().meta({
      description:
        'Project number or job number ("4410"). When none is set, a job number at the start of the name counts as the code for e-mail suggestions.',
    }),
    aliases: z.array(z.string()).meta({ description: 'Other names people use for the project ("Lakeshore Library").' }),
    siteAddress: z.string().nullable().meta({
      description:
        'Where the site is ("1450 Mercer St, Denver"). An e-mail naming its street number and street counts for the project in suggestions.',
    }),
    referenceNumbers: z.array(ReferenceNumber).meta({
      description:
        'Numbers others give the project — the owner’s project number, permits, purchase orders, contracts — each with what it is. E-mail suggestions match them like the code, from the first e-mail on.',
    }),
    createdAt: Timestamp,
  })
  .meta({ id: 'Project' });

export const MAX_PROJECT_ALIASES = 20;
const ProjectName = z.string().trim().min(1).max(200);
const ProjectCode = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N}._/-]*$/u, { error: 'must be letters and digits, optionally with . _ / -' });
const ProjectAliases = z
  .array(z.string().trim().min(2).max(200))
  .max(MAX_PROJECT_ALIASES)
  .refine((list) => new Set(list.map((a) => a.toLowerCase())).size === list.length, { error: 'must not repeat' });

export const CreateProjectBody = z
  .strictObject({
    name: ProjectName,
    code: ProjectCode.optional(),
    aliases: ProjectAliases.default([]),
    siteAddress: SiteAddress.optional(),
    referenceNumbers: ReferenceNumbers.default([]),
  })
  .meta({ id: 'CreateProjectBody' });

export const UpdateProjectBody = z
  .strictObject({
    name: ProjectName.optional(),
    code: ProjectCode.nullable().optional().meta({ description: 'null removes the code.' }),
    aliases: ProjectAliases.optional().meta({ description: 'Replaces the whole list; [] removes every alias.' }),
    siteAddress: SiteAddress.nullable().optional().meta({ description: 'null removes the address.' }),
    referenceNumbers: ReferenceNumbers.optional().meta({
      description: 'Replaces the whole list; [] removes every one.',
    }),
  })
  .refine((b) => Object.keys(b).length > 0, {
    error: 'Give at least one of name, code, aliases, siteAddress, referenceNumbers',
  })
  .meta({ id: 'UpdateProjectBody' });

export const ProjectListQuery = strictQuery({
  cursor: Cursor,
  limit: pageLimit(25),
  search: z
    .string()
    .trim()
    .min(1, { error: 'search must not be empty' })
    .max(200, { error: 'search must be at most 200 characters' })
    .optional()
    .meta({
      description:
        'Words of the name, code or aliases, in any order, ignoring case, accents and punctuation, a typo forgiven ' +
        'in words of three letters or more; best match first (the type-ahead)',
    }),
});

export const OrganizationListQuery = strictQuery({ cursor: Cursor, limit: pageLimit(25) });

export const OrganizationList = listEnvelope(Organization).meta({ id: 'OrganizationList' });

export const ProjectList = listEnvelope(Project).meta({ id: 'ProjectList' });

export type Organization = z.infer<typeof Organization>;
export type Project = z.infer<typeof Project>;
export type ReferenceNumber = z.infer<typeof ReferenceNumber>;
