// Organizations, their projects, people and who belongs where.

import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, emptyTextArray, orgId, refersTo, ts, updatedAt } from './columns.js';

export const organizations = pgTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Counted up by triggers (migration 0008) whenever the organization's projects change: the suggestion
   *  ranker's cached project names are reloaded when it moves. */
  projectsVersion: bigint('projects_version', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
});

export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    organizationId: orgId().references(() => organizations.id),
    name: text('name').notNull(),
    code: text('code'),
    /** Other names people use for the project ("Lakeshore Library"); the suggestion ranker matches them. */
    aliases: text('aliases').array().notNull().default(emptyTextArray()),
    /** Where the site is ("1450 Mercer St, Denver"); e-mails naming its number and street are the project's. */
    siteAddress: text('site_address'),
    /** Numbers others give the project (owner's project number, permits, purchase orders, contracts), set by an
     *  admin: the suggestion ranker matches them from the first e-mail on, before any mail is filed. */
    referenceNumbers: jsonb('reference_numbers')
      .$type<{ label: string; value: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    /** Name, code and aliases folded for search (migration 0020): lower case, no accents or punctuation, letters
     *  and digits apart ("Pier9" is "pier 9"). The project search matches words of it, typos tolerated. */
    searchKey: text('search_key').notNull().generatedAlwaysAs(sql`project_search_key(name, code, aliases)`),
  },
  (t) => [
    index('projects_org_name_idx').on(t.organizationId, t.name, t.id),
    index('projects_search_key_idx').using('gin', sql`${t.searchKey} gin_trgm_ops`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash'),
    staff: boolean('staff').notNull().default(false),
    company: text('company'),
    phone: text('phone'),
    title: text('title'),
    /** A disabled person cannot sign in, and every token of theirs is refused on the next request. */
    disabledAt: ts('disabled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_idx').on(sql`lower(${t.email})`)],
);

/** Organization membership; a row is also the organization's directory entry. */
export const organizationMembers = pgTable(
  'organization_members',
  {
    id: text('id').primaryKey(),
    organizationId: orgId().references(() => organizations.id),
    userId: refersTo('user_id', () => users.id),
    role: text('role', { enum: ['admin', 'member'] }).notNull(),
    /** The identity provider's id for the person (SCIM `externalId`), set by SCIM provisioning; unique in the
     *  organization so the provider's `externalId eq` filter finds one person. */
    externalId: text('external_id'),
    /** The provider's SCIM `userName` when it is not the person's e-mail address (Entra's userPrincipalName may
     *  differ from the mail address); null: the e-mail address is the userName. */
    scimUserName: text('scim_user_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('organization_members_org_user_idx').on(t.organizationId, t.userId),
    index('organization_members_user_idx').on(t.userId),
    uniqueIndex('organization_members_org_external_idx').on(t.organizationId, t.externalId),
  ],
);

export const projectMembers = pgTable(
  'project_members',
  {
    organizationId: orgId(),
    projectId: refersTo('project_id', () => projects.id),
    userId: refersTo('user_id', () => users.id),
    role: text('role'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('project_members_user_idx').on(t.userId)],
);
