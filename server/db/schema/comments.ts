// Comments on documents and the people they mention.
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, refersTo, tenantRow, ts } from './columns.js';
import { documents } from './documents.js';

export const comments = pgTable(
  'comments',
  {
    ...tenantRow(),
    projectId: text('project_id').notNull(),
    documentId: refersTo('document_id', () => documents.id, 'cascade'),
    authorId: text('author_id').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('comments_document_idx').on(t.documentId, t.createdAt)],
);

export const commentMentions = pgTable(
  'comment_mentions',
  {
    ...tenantRow(),
    commentId: refersTo('comment_id', () => comments.id, 'cascade'),
    userId: text('user_id').notNull(),
    createdAt: createdAt(),
    notifiedAt: ts('notified_at'),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('comment_mentions_comment_idx').on(t.commentId), index('comment_mentions_user_idx').on(t.userId)],
);
