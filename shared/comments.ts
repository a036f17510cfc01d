import { z } from 'zod';
import { Id } from './common.js';

export const CommentPath = z.object({ id: Id.meta({ description: 'Comment id' }) });
