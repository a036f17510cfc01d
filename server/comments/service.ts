import { recordActivity } from '../activity/queries.js';
import type { Caller, RecordOwner } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { emitEvent } from '../outbox/queries.js';
import { findLiveComment, lockDocumentSearchText, setDocumentSearchText, softDeleteComment } from './queries.js';

/** Who wrote a live comment, in which organization: what the delete route's access rule decides on. */
export async function commentOwner(db: Db, commentId: string): Promise<RecordOwner | undefined> {
  const comment = await findLiveComment(db, commentId);
  return comment && { organizationId: comment.organizationId, userId: comment.authorId };
}

/**
 * Soft-deletes a comment and its mentions (so they no longer notify), drops its text from the document's search
 * text (so searches stop finding it) and records who deleted it, in one transaction. Who may is the route's
 * access rule (its author, staff, admins of its organization): the caller is one of them.
 */
export async function deleteComment(app: AppContext, caller: Caller, commentId: string): Promise<void> {
  const comment = await findLiveComment(app.db, commentId);
  if (!comment) throw ApiError.notFound('Comment');
  const isAuthor = caller.id === comment.authorId;
  await app.db.transaction(async (tx) => {
    const now = app.clock.now();
    if (!(await softDeleteComment(tx, comment.id, now))) throw ApiError.notFound('Comment');
    const searchText = await lockDocumentSearchText(tx, comment.documentId);
    if (searchText !== undefined) {
      await setDocumentSearchText(tx, comment.documentId, withoutOnce(searchText, comment.body));
    }
    await recordActivity(tx, {
      organizationId: comment.organizationId,
      projectId: comment.projectId,
      documentId: comment.documentId,
      actor: caller,
      action: 'comment_deleted',
      title: isAuthor ? 'Comment deleted by its author' : 'Comment deleted by an administrator',
      details: { commentId: comment.id },
      at: now,
    });
    await emitEvent(tx, {
      organizationId: comment.organizationId,
      projectId: comment.projectId,
      type: 'comment.deleted',
      data: {
        commentId: comment.id,
        organizationId: comment.organizationId,
        projectId: comment.projectId,
        documentId: comment.documentId,
        deletedBy: { id: caller.id, name: caller.name, email: caller.email },
        deletedAt: now.toISOString(),
      },
      at: now,
    });
  });
}

/** The document's search text holds each live comment's body once: remove this one's (not its twins'). */
function withoutOnce(text: string, part: string): string {
  const at = text.indexOf(part);
  if (at < 0 || part.length === 0) return text;
  return `${text.slice(0, at)}${text.slice(at + part.length)}`.replace(/\s{2,}/g, ' ').trim();
}
