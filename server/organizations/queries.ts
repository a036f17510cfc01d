import { and, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { KeysetPosition } from '../cursor.js';
import type { Db, Tx } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { selectRows } from '../db/rows.js';
import { organizations, projects } from '../db/schema.js';

export async function insertOrganization(tx: Db | Tx, row: { id: string; name: string }): Promise<void> {
  await tx.insert(organizations).values(row);
}

export async function findOrganization(db: Db | Tx, orgId: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, orgId));
  return row;
}

const organizationsByName = keysetOrder(organizations.name, organizations.id, 'asc');
const projectsByName = keysetOrder(projects.name, projects.id, 'asc');

/** One page of organizations by name (every one, or only some ids). */
export async function listOrganizationRows(
  db: Db | Tx,
  options: { only?: readonly string[]; after?: KeysetPosition; limit: number },
) {
  const conditions: SQL[] = [];
  if (options.only) conditions.push(inArray(organizations.id, [...options.only]));
  return db
    .select()
    .from(organizations)
    .where(and(...conditions, organizationsByName.after(options.after)))
    .orderBy(...organizationsByName.orderBy)
    .limit(options.limit);
}

/** One page of an organization's projects by name (index projects_org_name_idx), optionally only some ids. */
export async function listProjectRows(
  db: Db | Tx,
  options: { orgId: string; only?: readonly string[]; after?: KeysetPosition; limit: number },
) {
  return db
    .select()
    .from(projects)
    .where(and(...inOrg(options), projectsByName.after(options.after)))
    .orderBy(...projectsByName.orderBy)
    .limit(options.limit);
}

const inOrg = (options: { orgId: string; only?: readonly string[] }): SQL[] => [
  eq(projects.organizationId, options.orgId),
  ...(options.only ? [inArray(projects.id, [...options.only])] : []),
];

/**
 * How alike a typed word and a word of a project must be (pg_trgm's word similarity; its default is 0.6): one
 * letter wrong or missing in a word of six or more ("granit", "medcal", "riversde") still matches.
 */
const TYPO_SIMILARITY = '0.5';

/**
 * Projects whose folded name, code and aliases (`search_key`) hold every word of `text`, in any order, each
 * word as typed or with a typo; best first: the code exactly, then name or code starting with the text, then
 * every word found as typed, then the rest; within each, by how alike the whole text is, then by name.
 * Each word is one condition the trigram index (projects_search_key_idx) answers.
 */
export async function searchProjectRows(
  db: Db,
  options: { orgId: string; only?: readonly string[]; text: string; offset: number; limit: number },
): Promise<ProjectRow[]> {
  return db.transaction(async (tx) => {
    // `<%` reads its threshold from the session: set for this transaction only. The text is folded as the
    // key was (search_fold), so both sides agree on accents, apostrophes and letters beside digits.
    const [fold] = await selectRows(
      tx,
      sql`select set_config('pg_trgm.word_similarity_threshold', ${TYPO_SIMILARITY}, true) as threshold, search_fold(${options.text}) as folded`,
      z.object({ threshold: z.string(), folded: z.string() }),
    );
    const folded = fold!.folded;
    const words = folded.split(' ').filter(Boolean);
    if (words.length === 0) return [];
    const key = projects.searchKey;
    // A folded text holds no LIKE wildcard: % _ and \ are punctuation, and folding made them spaces.
    const contains = (word: string) => sql`${key} like ${`%${word}%`}`;
    // Typos only in words of three letters or more (shorter ones have no trigram to be alike by) and without
    // digits: job number 47110 is not a misspelt 47111 (as in the document search).
    const matches = (word: string) =>
      word.length < 3 || /\d/.test(word) ? contains(word) : sql`(${contains(word)} or ${word} <% ${key})`;
    const code = sql`search_fold(coalesce(${projects.code}, ''))`;
    const tier = sql<number>`case
      when ${code} = ${folded} then 0
      when ${key} like ${`${folded}%`} or ${code} like ${`${folded}%`} then 1
      when ${and(...words.map(contains))} then 2
      else 3 end`;
    return tx
      .select(getTableColumns(projects))
      .from(projects)
      .where(and(...inOrg(options), ...words.map(matches)))
      .orderBy(tier, desc(sql`word_similarity(${folded}, ${key})`), ...projectsByName.orderBy)
      .offset(options.offset)
      .limit(options.limit);
  });
}

export type ProjectRow = typeof projects.$inferSelect;

export async function insertProject(db: Db | Tx, row: typeof projects.$inferInsert): Promise<ProjectRow> {
  const [inserted] = await db.insert(projects).values(row).returning();
  return inserted!;
}

/** The updated row, or undefined when the organization has no such project. */
/** One project of the organization, locked until the transaction ends (what a change replaces). */
export async function lockProjectRow(tx: Tx, target: { organizationId: string; projectId: string }) {
  const [row] = await tx
    .select()
    .from(projects)
    .where(and(eq(projects.id, target.projectId), eq(projects.organizationId, target.organizationId)))
    .for('update');
  return row;
}

export async function updateProjectRow(
  db: Db | Tx,
  target: { organizationId: string; projectId: string },
  change: Partial<Pick<ProjectRow, 'name' | 'code' | 'aliases' | 'siteAddress' | 'referenceNumbers'>>,
): Promise<ProjectRow | undefined> {
  const [row] = await db
    .update(projects)
    .set(change)
    .where(and(eq(projects.id, target.projectId), eq(projects.organizationId, target.organizationId)))
    .returning();
  return row;
}
