// Blobs let go of: the sweep (server/blobs/sweep.ts) deletes each from storage once nothing refers to it any more
// and its grace period has passed.
import { pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** A stored blob that something stopped referring to (an unfiled e-mail's .eml, HTML body or attachment). */
export const blobReleases = pgTable('blob_releases', {
  blobKey: text('blob_key').primaryKey(),
  /** The latest release: the grace period counts from here. */
  releasedAt: ts('released_at').notNull(),
});
