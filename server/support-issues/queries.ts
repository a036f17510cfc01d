import { desc } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import { supportIssues } from '../db/schema.js';

export type SupportIssueRow = typeof supportIssues.$inferSelect;

export async function insertSupportIssue(tx: Tx, row: SupportIssueRow): Promise<void> {
  await tx.insert(supportIssues).values(row);
}

export async function newestSupportIssues(db: Db, limit: number): Promise<SupportIssueRow[]> {
  return db.select().from(supportIssues).orderBy(desc(supportIssues.createdAt), desc(supportIssues.id)).limit(limit);
}
