import { z } from 'zod';
import { Cursor, listEnvelope, pageLimit, strictQuery, Timestamp } from './common.js';

export const Organization = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Organization' });

export const Project = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    name: z.string(),
    code: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Project' });

export const ProjectListQuery = strictQuery({ cursor: Cursor, limit: pageLimit(25) });

export const OrganizationListQuery = strictQuery({ cursor: Cursor, limit: pageLimit(25) });

export const OrganizationList = listEnvelope(Organization).meta({ id: 'OrganizationList' });

export const ProjectList = listEnvelope(Project).meta({ id: 'ProjectList' });

export type Organization = z.infer<typeof Organization>;
export type Project = z.infer<typeof Project>;
