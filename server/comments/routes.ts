import { CommentPath } from '../../shared/comments.js';
import { access, defineRoute } from '../http/route.js';
import { commentOwner, deleteComment } from './service.js';

export const commentRoutes = [
  defineRoute({
    method: 'delete',
    path: '/v1/admin/comments/:id',
    operationId: 'adminDeleteComment',
    summary: 'Soft-delete a comment and its mentions',
    description:
      'Allowed for the comment’s author, platform staff, and admins of the organization the comment belongs to ' +
      '(signed-in people only; client keys are refused). The comment disappears from every list and search and ' +
      'its mentions stop notifying.',
    tags: ['Admin'],
    access: access.ownerOrOrgAdmin({ record: 'Comment', param: 'id', load: commentOwner }),
    params: CommentPath,
    responses: { 204: { description: 'Deleted; empty body' } },
    errors: { 404: 'Comment not found or already deleted' },
    handler: async ({ app, caller, params }) => {
      await deleteComment(app, caller, params.id);
      return undefined;
    },
  }),
];
