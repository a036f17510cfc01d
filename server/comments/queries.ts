import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import { commentMentions, comments, documents } from '../db/schema.js';

/** A comment that has not been deleted. */
export async function findLiveComment(db: Db, id: string) {
  const [row] = await db
    .select({
      id: comments.id,
      organizationId: comments.organizationId,
      projectId: comments.projectId,
      documentId: comments.documentId,
      authorId: comments.authorId,
      body: comments.body,
    })
    .from(comments)
    .where(and(eq(comments.id, id), isNull(comments.deletedAt)));
  return row;
}

/** Soft-deletes the comment and its mentions; false when it was deleted meanwhile. */
export async function softDeleteComment(tx: Tx, id: string, at: Date): Promise<boolean> {
  const deleted = await tx
    .update(comments)
    .set({ deletedAt: at })
    .where(and(eq(comments.id, id), isNull(comments.deletedAt)))
    .returning({ id: comments.id });
  if (deleted.length === 0) return false;
  await tx
    .update(commentMentions)
    .set({ deletedAt: at })
    .where(and(eq(commentMentions.commentId, id), isNull(commentMentions.deletedAt)));
  return true;
}

/** The document's search text, locked for rewriting in this transaction. */
export async function lockDocumentSearchText(tx: Tx, documentId: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ searchText: documents.searchText })
    .from(documents)
    .where(eq(documents.id, documentId))
    .for('update');
  return row?.searchText;
}

export async function setDocumentSearchText(tx: Tx, documentId: string, searchText: string): Promise<void> {
  await tx.update(documents).set({ searchText }).where(eq(documents.id, documentId));
}
