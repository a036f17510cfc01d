// SCIM 2.0 wire shapes (RFC 7643/7644): the User resource as Sitefile keeps a person, what a provider sends, and
// the messages around them. The zod schemas here are what the code shapes and parses with, and what the OpenAPI
// document declares (server/scim/openapi.ts).
import { z } from 'zod';
import { ApiError } from '../errors.js';

export const SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  config: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** A resource's or message's `schemas`: this one URN (an array of one, rather than a tuple, which some tools misread). */
export const schemasOf = <T extends string>(urn: T) => z.array(z.literal(urn)).length(1);

/** RFC 7644 §3.12's `scimType` values (table 9). */
export const ScimType = z.enum([
  'invalidFilter',
  'tooMany',
  'uniqueness',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'invalidVers',
  'sensitive',
]);
export type ScimType = z.infer<typeof ScimType>;

/** Every failure on /scim/v2, RFC 7644 §3.12. */
export const ScimError = z
  .object({
    schemas: schemasOf(SCHEMA.error),
    status: z
      .string()
      .regex(/^[45]\d\d$/)
      .meta({ description: 'The HTTP status code, as a string (RFC 7644 §3.12)' }),
    scimType: ScimType.optional().meta({ description: 'Where RFC 7644 names one for this failure (400, 409, 403)' }),
    detail: z.string().meta({ description: 'What went wrong, in English' }),
  })
  .meta({ id: 'ScimError', description: 'A SCIM error (RFC 7644 §3.12), answered as `application/scim+json`' });
export type ScimError = z.infer<typeof ScimError>;

/** An ApiError answered on /scim/v2 with RFC 7644 §3.12's `scimType`. */
export const scimError = (code: 'bad_request' | 'conflict' | 'forbidden', scimType: ScimType, message: string) =>
  new ApiError(code, message, { scimType });

/** A provider's value checked against `schema`; a mismatch is a 400 with `scimType`, naming the attribute. */
export function parseScim<T extends z.ZodType>(schema: T, value: unknown, scimType: ScimType, field = ''): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = [field, ...(issue?.path ?? []).map(String)].filter(Boolean).join('.');
  throw scimError('bad_request', scimType, `${where || 'The body'}: ${issue?.message ?? 'invalid'}`);
}

const MAX_TEXT = 320;
/** A provider's string value, trimmed. */
const ProviderText = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(MAX_TEXT, { error: `must be at most ${MAX_TEXT} characters` });

/** A boolean as providers send it: Entra ID sends `"True"`/`"False"` strings for `active` (documented). */
export const ProviderBoolean = z
  .union([
    z.boolean(),
    z
      .string()
      .transform((value) => value.toLowerCase())
      .pipe(z.enum(['true', 'false'], { error: 'must be true or false' }))
      .transform((value) => value === 'true'),
  ])
  .meta({ description: 'true or false; the strings "True" and "False" (any case) are read as booleans too' });

/** A provider's `emails` (POST, PUT, and PATCH's value for `emails`). */
export const ScimEmails = z
  .array(
    z.looseObject({
      value: z.string().optional().meta({ description: 'An e-mail address' }),
      type: z.string().optional().meta({ description: 'The `work` address is the one kept' }),
      primary: ProviderBoolean.optional(),
    }),
  )
  .meta({ description: 'The work address is kept, else the primary one, else the first' });
export type ScimEmails = z.output<typeof ScimEmails>;

/**
 * A User resource as a provider sends it (POST, PUT). Sitefile keeps one name and one e-mail address; attributes
 * it does not keep (title, phoneNumbers, roles, the enterprise extension, password, …) are accepted and ignored.
 */
export const ScimUserRequest = z
  .looseObject({
    schemas: z
      .array(z.string())
      .optional()
      .meta({ description: `Names ${SCHEMA.user}; not checked` }),
    userName: ProviderText.meta({
      description: 'Unique in the organization; the e-mail address too when `emails` gives none',
    }),
    externalId: ProviderText.nullable().optional().meta({ description: "The identity provider's own id" }),
    displayName: z.string().optional().meta({ description: 'The name Sitefile shows (first choice)' }),
    name: z
      .looseObject({
        formatted: z.string().optional().meta({ description: 'The name, when there is no displayName' }),
        givenName: z.string().optional(),
        familyName: z.string().optional(),
      })
      .optional()
      .meta({ description: 'Used when there is no displayName: `formatted`, else the parts joined' }),
    emails: ScimEmails.optional(),
    active: ProviderBoolean.optional().meta({ description: 'false: the person is disabled (default true)' }),
  })
  .meta({ id: 'ScimUserRequest' });
export type ScimUserRequest = z.output<typeof ScimUserRequest>;

/** A person as SCIM answers them (RFC 7643 §4.1): one name, one work e-mail address. */
export const ScimUser = z
  .object({
    schemas: schemasOf(SCHEMA.user),
    id: z.string().meta({ description: "Sitefile's id of the person" }),
    externalId: z.string().optional().meta({ description: "The identity provider's id, when it gave one" }),
    userName: z.string(),
    name: z.object({
      formatted: z.string(),
      givenName: z.string().meta({ description: "The name's first word" }),
      familyName: z.string().meta({ description: "The name's other words" }),
    }),
    displayName: z.string(),
    emails: z.array(z.object({ value: z.string(), type: z.literal('work'), primary: z.literal(true) })).length(1),
    active: z.boolean().meta({ description: 'false: disabled (every session and token of theirs refused)' }),
    meta: z.object({
      resourceType: z.literal('User'),
      created: z.iso.datetime(),
      lastModified: z.iso.datetime(),
      location: z.url(),
    }),
  })
  .meta({ id: 'ScimUser' });
export type ScimUser = z.infer<typeof ScimUser>;

/** RFC 7644 §3.4.2's list response of `resource`. */
export const scimListOf = <T extends z.ZodType>(resource: T, id: string) =>
  z
    .object({
      schemas: schemasOf(SCHEMA.list),
      totalResults: z.int().min(0).meta({ description: 'How many match, on every page' }),
      startIndex: z.int().min(1),
      itemsPerPage: z.int().min(0).meta({ description: 'How many this page lists' }),
      Resources: z.array(resource),
    })
    .meta({ id });

export const ScimUserList = scimListOf(ScimUser, 'ScimUserList');
export type ScimUserList = z.infer<typeof ScimUserList>;

/**
 * A person as SCIM provisioning sees and sets them. Sitefile keeps one name and one e-mail address: `name` is the
 * displayName (or the name's parts joined), `email` the work (or primary, or only) address. `userName` is kept
 * apart only when it is not the e-mail address.
 */
export interface ScimUserState {
  userName: string;
  email: string;
  name: string;
  externalId: string | null;
  active: boolean;
}

export interface ScimPersonView {
  id: string;
  email: string;
  name: string;
  disabledAt: Date | null;
  externalId: string | null;
  scimUserName: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const stateOf = (row: ScimPersonView): ScimUserState => ({
  userName: row.scimUserName ?? row.email,
  email: row.email,
  name: row.name,
  externalId: row.externalId,
  active: row.disabledAt === null,
});

/** The name's parts for providers that compare them: the first word, and the rest. */
export const nameParts = (name: string) => {
  const [given = '', ...rest] = name.trim().split(/\s+/);
  return { givenName: given, familyName: rest.join(' ') };
};

export const toScimUser = (row: ScimPersonView, baseUrl: string): ScimUser => {
  const state = stateOf(row);
  return {
    schemas: [SCHEMA.user],
    id: row.id,
    ...(state.externalId === null ? {} : { externalId: state.externalId }),
    userName: state.userName,
    name: { formatted: state.name, ...nameParts(state.name) },
    displayName: state.name,
    emails: [{ value: state.email, type: 'work', primary: true }],
    active: state.active,
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: `${baseUrl}/Users/${row.id}`,
    },
  };
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A provider's string value, trimmed; too long or not a string is a 400 (invalidValue). */
export const text = (value: unknown, field: string): string => parseScim(ProviderText, value, 'invalidValue', field);

export const bool = (value: unknown, field: string): boolean =>
  parseScim(ProviderBoolean, value, 'invalidValue', field);

export function emailAddress(value: unknown, field: string): string {
  const email = text(value, field);
  if (!EMAIL.test(email)) throw scimError('bad_request', 'invalidValue', `${field} must be an e-mail address`);
  return email;
}

/** The address of a SCIM `emails` list Sitefile keeps: the work one, else the primary one, else the first. */
export function pickEmail(emails: ScimEmails | undefined): string | undefined {
  if (!emails || emails.length === 0) return undefined;
  const chosen =
    emails.find((e) => e.type?.toLowerCase() === 'work') ?? emails.find((e) => e.primary === true) ?? emails[0];
  return chosen?.value === undefined ? undefined : emailAddress(chosen.value, 'emails.value');
}

/** The name a resource gives: displayName, else name.formatted, else the parts joined, else the userName. */
export function nameOf(resource: ScimUserRequest, fallback: string): string {
  const name = resource.name ?? {};
  if (resource.displayName?.trim()) return text(resource.displayName, 'displayName');
  if (name.formatted?.trim()) return text(name.formatted, 'name.formatted');
  const joined = [name.givenName, name.familyName].filter((p) => p?.trim()).join(' ');
  return joined ? text(joined, 'name') : fallback;
}

/** The state a POST or PUT body asks for (RFC 7644 §3.3, §3.5.1): userName required; the rest defaulted. */
export function userStateFrom(body: unknown): ScimUserState {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw scimError('bad_request', 'invalidSyntax', 'The body must be a SCIM User resource');
  }
  const resource = parseScim(ScimUserRequest, body, 'invalidValue');
  const { userName } = resource;
  const email = pickEmail(resource.emails) ?? (EMAIL.test(userName) ? userName : undefined);
  if (!email) {
    throw scimError('bad_request', 'invalidValue', 'A work e-mail address is required (emails, or an e-mail userName)');
  }
  return {
    userName,
    email,
    name: nameOf(resource, userName),
    externalId: resource.externalId ?? null,
    active: resource.active ?? true,
  };
}

/** RFC 7644 §3.4.2 list response. */
export const listResponse = <T>(resources: T[], total: number, startIndex: number) => ({
  schemas: [SCHEMA.list],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});
