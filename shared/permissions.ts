/** Permission keys of an OAuth client (the spec's OAuth client resource). */
export const permissionKeys = [
  'mcp:access',
  'organization:read',
  'project:read',
  'document:read',
  'email:read',
  /** File e-mail into the projects in scope, recorded as filed by the key (server-side ingestion). */
  'email:file',
  'client:read',
  'client:create',
  'explorer:query',
  'webhook:manage',
] as const;

export type Permission = (typeof permissionKeys)[number];

export const isPermission = (value: string): value is Permission =>
  (permissionKeys as readonly string[]).includes(value);

/** What a signed-in organization member may do; admins also manage the organization's settings. */
export const memberPermissions: readonly Permission[] = [
  'mcp:access',
  'organization:read',
  'project:read',
  'document:read',
  'email:read',
  'email:file',
  'explorer:query',
];
