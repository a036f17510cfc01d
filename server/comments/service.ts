import { recordActivity } from '../activity/queries.js';
import { type Caller, isOrgAdmin } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { findLiveComment, lockDocumentSearchText, setDocumentSearchText, softDeleteComment } from './queries.js';

/**
 * Soft-deletes a comment and its mentions (so they no longer notify), drops its text from the document's search
 * text (so searches stop finding it) and records who deleted it, in one transaction. Allowed for the author,
 * staff, and admins of the comment's organization.
 */
export async function deleteComment(app: AppContext, caller: Caller, commentId: string): Promise<void> {
  const comment = await findLiveComment(app.db, commentId);
  if (!comment) throw ApiError.notFound('Comment');
  const isAuthor = caller.kind === 'user' && caller.id === comment.authorId;
  if (!isAuthor && !isOrgAdmin(caller, comment.organizationId)) throw ApiError.forbidden();
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
  });
}

/** The document's search text holds each live comment's body once: remove this one's (not its twins'). */
function withoutOnce(text: string, part: string): string {
  const at = text.indexOf(part);
  if (at < 0 || part.length === 0) return text;
  return `${text.slice(0, at)}${text.slice(at + part.length)}`.replace(/\s{2,}/g, ' ').trim();
}
