// Parts of route declarations that several resources share: spread into a `defineRoute` spec.
import type { z } from 'zod';

/**
 * A route that answers one record: 200 with it, 404 when there is no such record where the path points
 * (`within`: ' in this project').
 */
export const oneRecord = (what: string, schema: z.ZodType, within = '') => ({
  responses: { 200: { description: `The ${what}`, schema } },
  errors: { 404: `No such ${what}${within}` },
});
