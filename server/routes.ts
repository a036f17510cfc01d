import { activityRoutes } from './activity/routes.js';
import { apiKeyRoutes } from './api-keys/routes.js';
import { auditRoutes } from './audit/routes.js';
import { commandRoutes } from './commands/routes.js';
import { commentRoutes } from './comments/routes.js';
import { directoryRoutes } from './directory/routes.js';
import { dispatchRoutes } from './dispatches/routes.js';
import { documentRoutes } from './documents/routes.js';
import { downloadRoutes } from './downloads/routes.js';
import { drawingRoutes } from './drawings/routes.js';
import { explorerRoutes } from './explorer/routes.js';
import { filingRoutes } from './filing/routes.js';
import { emailFilingSettingsRoutes } from './filing-settings/routes.js';
import { healthRoutes } from './health/routes.js';
import type { OpenApiSection } from './http/openapi.js';
import type { Route } from './http/route.js';
import { meRoutes } from './me/routes.js';
import { organizationRoutes } from './organizations/routes.js';
import { reportRoutes } from './reports/routes.js';
import { scimSection } from './scim/openapi.js';
import { scimTokenRoutes } from './scim/routes.js';
import { ssoRoutes } from './sso/routes.js';
import { supportIssueRoutes } from './support-issues/routes.js';
import { userRoutes } from './users/routes.js';
import { webhookRoutes } from './webhooks/routes.js';

/** Every route of the server, one list per resource: add a resource's list here. */
export const allRoutes = (): Route[] => [
  ...healthRoutes,
  ...apiKeyRoutes,
  ...organizationRoutes,
  ...meRoutes,
  ...downloadRoutes,
  ...activityRoutes,
  ...dispatchRoutes,
  ...explorerRoutes,
  ...directoryRoutes,
  ...reportRoutes,
  ...commandRoutes,
  ...drawingRoutes,
  ...documentRoutes,
  ...filingRoutes,
  ...commentRoutes,
  ...emailFilingSettingsRoutes,
  ...supportIssueRoutes,
  ...userRoutes,
  ...webhookRoutes,
  ...auditRoutes,
  ...scimTokenRoutes,
  ...ssoRoutes,
];

/** The operations served outside the route table that the OpenAPI document describes too. */
export const documentedSections = (): OpenApiSection[] => [scimSection];
