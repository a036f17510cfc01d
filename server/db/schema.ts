// The whole data model of the spec, one file per domain in schema/; every tenant table carries organization_id
// so the data can be distributed by organization later. Importers (and drizzle) take the tables from here.
export * from './schema/activity.js';
export * from './schema/api-keys.js';
export * from './schema/audit.js';
export * from './schema/blobs.js';
export * from './schema/comments.js';
export * from './schema/comms.js';
export * from './schema/documents.js';
export * from './schema/drawings.js';
export * from './schema/filing.js';
export * from './schema/organizations.js';
export * from './schema/platform.js';
export * from './schema/reports.js';
export * from './schema/scim.js';
export * from './schema/sign-in.js';
export * from './schema/sso.js';
export * from './schema/webhooks.js';
