import { z } from 'zod';
import { Id } from '../../shared/common.js';

// The arguments many tools take, described once for the model, and how argument values become the query-string
// text the REST route parses.

export const organizationId = Id.describe('Organization id (from organizations_list or projects_find)');
export const projectId = Id.describe('Project id (from projects_find)');
export const cursor = z.string().min(1).max(2000).optional().describe('nextCursor from the previous call');

/** An optional page size from 1 to `max`. */
export const pageSize = (max: number) => z.number().int().min(1).max(max).optional().describe(`Page size, 1–${max}`);

/** A number or a yes/no as the query string carries it; absent stays absent. */
export const text = (value: number | boolean | undefined) => (value === undefined ? undefined : String(value));

/** A list argument as the query string's comma-separated value. */
export const list = (values: readonly string[] | undefined) => values?.join(',');
