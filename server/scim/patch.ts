import { type Filter, parse } from 'scim2-parse-filter';
import { z } from 'zod';
import {
  bool,
  emailAddress,
  nameParts,
  parseScim,
  pickEmail,
  SCHEMA,
  ScimEmails,
  type ScimUserState,
  scimError,
  text,
} from './resources.js';

const USER_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:user:/;
const MAX_OPERATIONS = 100;

/**
 * A PatchOp (RFC 7644 §3.5.2) as Entra ID and Okta send it: `op` in any case (Entra: "Replace", "Add"), with a
 * path or with none and an object of attributes (Okta's `{"op":"replace","value":{"active":false}}`; Entra's
 * no-path form with dotted keys such as `name.givenName`).
 */
export const ScimPatchOp = z
  .object({
    schemas: z
      .array(z.string())
      .refine((schemas) => schemas.includes(SCHEMA.patch), { error: `must name ${SCHEMA.patch}` })
      .meta({ contains: { const: SCHEMA.patch } }),
    Operations: z
      .array(
        z.looseObject({
          op: z
            .string()
            .transform((op) => op.toLowerCase())
            .pipe(z.enum(['add', 'replace', 'remove'], { error: 'must be add, replace or remove' }))
            .meta({ description: 'add, replace or remove, in any case ("Replace" as Entra ID sends it)' }),
          path: z
            .string()
            .optional()
            .meta({
              description:
                'userName, externalId, active, displayName, name.formatted, name.givenName, name.familyName, emails ' +
                '(`emails[type eq "work"].value`); other attributes are accepted and ignored. Without a path, ' +
                '`value` is an object of attributes (add and replace only)',
            }),
          value: z.unknown().optional(),
        }),
      )
      .min(1, { error: `must list 1 to ${MAX_OPERATIONS} operations` })
      .max(MAX_OPERATIONS, { error: `must list 1 to ${MAX_OPERATIONS} operations` }),
  })
  .meta({ id: 'ScimPatchOp' });

interface Working extends ScimUserState {
  /** The name's parts as patched; joined into `name` at the end unless the display name was set too. */
  givenName?: string;
  familyName?: string;
  displayNameSet: boolean;
}

/** Whether a value path's filter (`emails[type eq "work"]`) picks the work address Sitefile keeps. */
function picksWorkEmail(filterText: string): boolean {
  let filter: Filter;
  try {
    filter = parse(filterText);
  } catch {
    throw scimError('bad_request', 'invalidPath', `Not a value filter: [${filterText}]`);
  }
  const compare = filter as { op: string; attrPath?: string; compValue?: unknown };
  if (compare.op === 'eq' && compare.attrPath?.toLowerCase() === 'type') {
    return String(compare.compValue).toLowerCase() === 'work';
  }
  // `emails[primary eq true]` and the like: the one address kept is the primary one.
  return compare.op === 'eq' && compare.attrPath?.toLowerCase() === 'primary';
}

/** Sets one attribute (path in lower case, without the core schema's prefix); unknown ones are ignored. */
function setAttribute(state: Working, path: string, value: unknown, remove: boolean): void {
  const emailPath = /^emails(?:\[(.+)\])?(?:\.value)?$/.exec(path);
  if (emailPath) {
    if (remove) return; // A person keeps an address: removing it is not applied.
    if (emailPath[1] !== undefined && !picksWorkEmail(emailPath[1])) return;
    const email = Array.isArray(value)
      ? pickEmail(parseScim(ScimEmails, value, 'invalidValue', 'emails'))
      : emailAddress(value, 'emails.value');
    if (email) state.email = email;
    return;
  }
  switch (path) {
    case 'active':
      if (!remove) state.active = bool(value, 'active');
      return;
    case 'username':
      if (remove) throw scimError('bad_request', 'mutability', 'userName is required');
      state.userName = text(value, 'userName');
      return;
    case 'externalid':
      state.externalId = remove || value === null ? null : text(value, 'externalId');
      return;
    case 'displayname':
    case 'name.formatted':
      if (remove) return;
      state.name = text(value, 'displayName');
      state.displayNameSet = true;
      return;
    case 'name.givenname':
      state.givenName = remove ? '' : text(value, 'name.givenName');
      return;
    case 'name.familyname':
      state.familyName = remove ? '' : text(value, 'name.familyName');
      return;
    case 'name': {
      if (remove || typeof value !== 'object' || value === null) return;
      for (const [key, part] of Object.entries(value)) setAttribute(state, `name.${key.toLowerCase()}`, part, false);
      return;
    }
    default:
      // Attributes Sitefile does not keep (title, phoneNumbers, the enterprise extension, password, …) are
      // accepted and ignored, as providers send every mapped attribute.
      return;
  }
}

/** Applies a PatchOp (ScimPatchOp) to the person's state. `add` on a single-valued attribute replaces it. */
export function applyPatch(current: ScimUserState, body: unknown): ScimUserState {
  const { Operations: operations } = parseScim(ScimPatchOp, body, 'invalidSyntax');
  const state: Working = { ...current, displayNameSet: false };
  for (const operation of operations) {
    const { op } = operation;
    const remove = op === 'remove';
    if (typeof operation.path === 'string' && operation.path.trim() !== '') {
      setAttribute(state, operation.path.trim().toLowerCase().replace(USER_PREFIX, ''), operation.value, remove);
      continue;
    }
    if (remove) throw scimError('bad_request', 'noTarget', 'A remove operation needs a path');
    if (typeof operation.value !== 'object' || operation.value === null || Array.isArray(operation.value)) {
      throw scimError('bad_request', 'invalidValue', 'An operation without a path carries an object of attributes');
    }
    for (const [key, value] of Object.entries(operation.value)) {
      setAttribute(state, key.toLowerCase().replace(USER_PREFIX, ''), value, false);
    }
  }
  const { givenName, familyName, displayNameSet, ...patched } = state;
  if (!displayNameSet && (givenName !== undefined || familyName !== undefined)) {
    const parts = nameParts(current.name);
    const joined = [givenName ?? parts.givenName, familyName ?? parts.familyName].filter(Boolean).join(' ');
    if (joined) patched.name = joined;
  }
  return patched;
}
