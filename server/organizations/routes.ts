import { OrgPath, ProjectPath } from '../../shared/common.js';
import {
  CreateProjectBody,
  Organization,
  OrganizationList,
  OrganizationListQuery,
  Project,
  ProjectList,
  ProjectListQuery,
  UpdateProjectBody,
} from '../../shared/organizations.js';
import { actorOf } from '../audit/service.js';
import { oneRecord } from '../http/declarations.js';
import { access, defineRoute } from '../http/route.js';
import { createProject, getOrganization, listOrganizations, listProjects, updateProject } from './service.js';

const tags = ['Organizations'];
/** Projects are created and changed by the organization's own admins (and staff). */
const adminChange = { tags, access: access.orgAdmin };

/** An organization's projects by name, a page at a time: here and in the staff console (me/routes.ts). */
export const projectListing = {
  params: OrgPath,
  query: ProjectListQuery,
  responses: { 200: { description: 'Projects by name', schema: ProjectList } },
};

export const organizationRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organization',
    operationId: 'listOrganizations',
    summary: 'The organizations the caller may reach, by name',
    description:
      'A superadmin key reaches every organization; other keys those granted whole or through one of their ' +
      'projects; a person those they belong to. Also answers under `/v1/organizations`.',
    tags,
    access: access.needs('organization:read'),
    query: OrganizationListQuery,
    responses: { 200: { description: 'Organizations by name', schema: OrganizationList } },
    handler: ({ app, caller, query }) => listOrganizations(app, caller, query),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId',
    operationId: 'getOrganization',
    description:
      'The organization with its name and settings, when the caller may see it: a person who is a member (or staff), a key scoped to it.',
    summary: 'One organization in the caller’s scope',
    tags,
    access: access.needs('organization:read', 'org'),
    params: OrgPath,
    ...oneRecord('organization', Organization),
    handler: ({ app, params }) => getOrganization(app.db, params.orgId),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/project',
    operationId: 'listProjects',
    summary: 'The organization’s projects within the caller’s scope',
    description:
      'A key scoped to single projects sees only those; ordered by name. `search` narrows to projects holding ' +
      'every word of it in their name, code or aliases, in any order, ignoring case, accents and punctuation ' +
      '("st marys" finds "St Mary’s", "pier9" finds "Pier 9"), a typo forgiven in words of three letters or more; ' +
      'best match first: the code exactly, then names and codes starting with the text, then the words as typed, ' +
      'then with typos (the add-in’s type-ahead: any number of projects, a bounded page).',
    tags,
    access: access.needs('project:read', 'org'),
    ...projectListing,
    handler: ({ app, caller, params, query }) => listProjects(app, caller, params.orgId, query),
  }),
  defineRoute({
    ...adminChange,
    method: 'post',
    path: '/v1/organization/:orgId/project',
    operationId: 'createProject',
    summary: 'Create a project (organization admins and staff)',
    description:
      'Code, aliases, site address and reference numbers are what e-mail suggestions match besides the name, from ' +
      'the first e-mail on: `{"name":"Lakeshore Public Library","code":"4410","aliases":["Lakeshore Library"],' +
      '"siteAddress":"2200 Lakeshore Dr","referenceNumbers":[{"label":"Permit","value":"BP26-0113"}]}`. ' +
      'Client keys and members get 403.',
    params: OrgPath,
    body: CreateProjectBody,
    responses: { 201: { description: 'The new project', schema: Project } },
    errors: { 404: 'No such organization' },
    handler: async ({ app, req, caller, params, body }) => {
      await getOrganization(app.db, params.orgId);
      return createProject(app.db, { organizationId: params.orgId, ...body }, actorOf(caller, req.ip));
    },
  }),
  defineRoute({
    ...adminChange,
    method: 'patch',
    path: '/v1/organization/:orgId/project/:projectId',
    operationId: 'updateProject',
    summary:
      'Rename a project or set its code, aliases, site address and reference numbers (organization admins and staff)',
    description:
      'Only the fields given change; `code: null` and `siteAddress: null` remove them, `aliases` and ' +
      '`referenceNumbers` replace the list.',
    params: ProjectPath,
    body: UpdateProjectBody,
    responses: { 200: { description: 'The project as it is now', schema: Project } },
    errors: { 404: 'No such project in this organization' },
    handler: ({ app, req, caller, params, body }) =>
      updateProject(
        app.db,
        { organizationId: params.orgId, projectId: params.projectId },
        body,
        actorOf(caller, req.ip),
      ),
  }),
];
