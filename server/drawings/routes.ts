import { ProjectPath } from '../../shared/common.js';
import {
  AdminProjectPath,
  BundleBody,
  Drawing,
  DrawingBundle,
  DrawingList,
  DrawingListQuery,
  DrawingPath,
} from '../../shared/drawings.js';
import { ApiError } from '../errors.js';
import { access, defineRoute } from '../http/route.js';
import { bundleDrawings, getDrawing, listDrawings } from './service.js';

const description =
  'Merges the latest revision of every drawing of the project (or of one drawing package) into one PDF, in ' +
  'natural sheet-number order (A-101 before A-1010), with one bookmark per sheet. Files that are missing, empty, ' +
  'encrypted or not a PDF are listed in `skippedDrawings` with a reason. The same set of revisions returns the ' +
  'already-built bundle. When nothing can be included the answer is 200 with `drawingCount: 0` and ' +
  '`downloadUrl: null`. `downloadUrl` is a signed link valid for 15 minutes (SIGNED_URL_TTL_SECONDS).';

const responses = { 200: { description: 'The bundle', schema: DrawingBundle } };
const errors = {
  400: 'Invalid body, or more than 1000 drawings (restrict with drawingPackageId)',
  404: 'Project, or drawing package of this project, not found',
};

const inProject = { tags: ['Drawings'], access: access.needs('document:read', 'project'), method: 'get' as const };

export const drawingRoutes = [
  defineRoute({
    ...inProject,
    path: '/v1/organization/:orgId/project/:projectId/drawings',
    operationId: 'listDrawings',
    summary: "List a project's drawings",
    description: 'By sheet number (then id), each with its latest revision; `drawingPackageId` narrows to one package.',
    params: ProjectPath,
    query: DrawingListQuery,
    responses: { 200: { description: 'A page of drawings', schema: DrawingList } },
    errors: { 400: 'Invalid limit or cursor (a cursor made with another drawingPackageId included)' },
    handler: ({ app, params, query }) =>
      listDrawings(
        app,
        { organizationId: params.orgId, projectId: params.projectId, drawingPackageId: query.drawingPackageId },
        query,
      ),
  }),
  defineRoute({
    ...inProject,
    path: '/v1/organization/:orgId/project/:projectId/drawings/:drawingId',
    operationId: 'getDrawing',
    summary: 'One drawing with a signed download URL of its latest revision',
    description:
      "`downloadUrl` is a signed link to the latest revision's PDF, valid for 15 minutes (SIGNED_URL_TTL_SECONDS), " +
      'that needs no bearer token.',
    params: DrawingPath,
    responses: { 200: { description: 'The drawing', schema: Drawing } },
    errors: { 404: 'No drawing with this id in the project' },
    handler: ({ app, params }) =>
      getDrawing(app, { organizationId: params.orgId, projectId: params.projectId }, params.drawingId),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/organization/:orgId/project/:projectId/drawings/bundle',
    operationId: 'bundleDrawings',
    summary: 'Build a merged PDF of the latest drawings',
    description,
    tags: ['Drawings'],
    access: access.needs('document:read', 'project'),
    params: ProjectPath,
    body: BundleBody,
    responses,
    errors,
    handler: ({ app, params, body }) =>
      bundleDrawings(app, {
        organizationId: params.orgId,
        projectId: params.projectId,
        drawingPackageId: body.drawingPackageId,
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/admin/projects/:projectId/drawings/bundle',
    operationId: 'adminBundleDrawings',
    summary: 'Build a merged PDF of the latest drawings of any project (staff)',
    description: `${description} Same PDF result as the organization route (not a ZIP).`,
    tags: ['Admin', 'Drawings'],
    access: access.staff,
    params: AdminProjectPath,
    body: BundleBody,
    responses,
    errors,
    handler: async ({ app, params, body }) => {
      const organizationId = await app.caches.projectOwners.of(params.projectId);
      if (!organizationId) throw ApiError.notFound('Project');
      return bundleDrawings(app, {
        organizationId,
        projectId: params.projectId,
        drawingPackageId: body.drawingPackageId,
      });
    },
  }),
];
