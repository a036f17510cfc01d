// SCIM 2.0 wire shapes (RFC 7643): the User resource as Sitefile keeps a person, and what a provider sends.
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

/** An ApiError answered on /scim/v2 with RFC 7644 §3.12's `scimType`. */
export const scimError = (code: 'bad_request' | 'conflict' | 'forbidden', scimType: string, message: string) =>
  new ApiError(code, message, { scimType });

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

export const toScimUser = (row: ScimPersonView, baseUrl: string) => {
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
const MAX_TEXT = 320;

/** A provider's string value, trimmed; too long or not a string is a 400 (invalidValue). */
export function text(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_TEXT) {
    throw scimError('bad_request', 'invalidValue', `${field} must be a non-empty string of at most ${MAX_TEXT}`);
  }
  return value.trim();
}

/** A boolean as providers send it: Entra ID sends `"True"`/`"False"` strings for `active` (documented). */
export function bool(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw scimError('bad_request', 'invalidValue', `${field} must be true or false`);
}

export function emailAddress(value: unknown, field: string): string {
  const email = text(value, field);
  if (!EMAIL.test(email)) throw scimError('bad_request', 'invalidValue', `${field} must be an e-mail address`);
  return email;
}

interface EmailValue {
  value?: unknown;
  type?: unknown;
  primary?: unknown;
}

/** The address of a SCIM `emails` list Sitefile keeps: the work one, else the primary one, else the first. */
export function pickEmail(emails: unknown): string | undefined {
  if (!Array.isArray(emails) || emails.length === 0) return undefined;
  const list = emails as EmailValue[];
  const chosen =
    list.find((e) => typeof e?.type === 'string' && e.type.toLowerCase() === 'work') ??
    list.find((e) => e?.primary === true || e?.primary === 'True' || e?.primary === 'true') ??
    list[0];
  return chosen?.value === undefined ? undefined : emailAddress(chosen.value, 'emails.value');
}

/** The name a resource gives: displayName, else name.formatted, else the parts joined, else the userName. */
export function nameOf(resource: Record<string, unknown>, fallback: string): string {
  const name = (resource.name ?? {}) as Record<string, unknown>;
  if (typeof resource.displayName === 'string' && resource.displayName.trim()) {
    return text(resource.displayName, 'displayName');
  }
  if (typeof name.formatted === 'string' && name.formatted.trim()) return text(name.formatted, 'name.formatted');
  const joined = [name.givenName, name.familyName].filter((p) => typeof p === 'string' && p.trim()).join(' ');
  return joined ? text(joined, 'name') : fallback;
}

/** The state a POST or PUT body asks for (RFC 7644 §3.3, §3.5.1): userName required; the rest defaulted. */
export function userStateFrom(body: unknown): ScimUserState {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw scimError('bad_request', 'invalidSyntax', 'The body must be a SCIM User resource');
  }
  const resource = body as Record<string, unknown>;
  const userName = text(resource.userName, 'userName');
  const email = pickEmail(resource.emails) ?? (EMAIL.test(userName) ? userName : undefined);
  if (!email) {
    throw scimError('bad_request', 'invalidValue', 'A work e-mail address is required (emails, or an e-mail userName)');
  }
  return {
    userName,
    email,
    name: nameOf(resource, userName),
    externalId:
      resource.externalId === undefined || resource.externalId === null
        ? null
        : text(resource.externalId, 'externalId'),
    active: resource.active === undefined ? true : bool(resource.active, 'active'),
  };
}

/** RFC 7644 §3.4.2 list response. */
export const listResponse = (resources: unknown[], total: number, startIndex: number) => ({
  schemas: [SCHEMA.list],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});
