import { clientRoutes } from './clients/routes.js';
import { commandRoutes } from './commands/routes.js';
import { documentRoutes } from './documents/routes.js';
import { downloadRoutes } from './downloads/routes.js';
import { healthRoutes } from './health/routes.js';
import type { Route } from './http/route.js';
import { meRoutes } from './me/routes.js';
import { organizationRoutes } from './organizations/routes.js';

/** Every route of the server, one list per resource: add a resource's list here. */
export const allRoutes = (): Route[] => [
  ...healthRoutes,
  ...clientRoutes,
  ...organizationRoutes,
  ...meRoutes,
  ...downloadRoutes,
  ...commandRoutes,
  ...documentRoutes,
];
