import { downloadRoutes } from './downloads/routes.js';
import { healthRoutes } from './health/routes.js';
import type { Route } from './http/route.js';

/** Every route of the server, one list per resource: add a resource's list here. */
export const allRoutes = (): Route[] => [...healthRoutes, ...downloadRoutes];
