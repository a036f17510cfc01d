import { z } from 'zod';
import { pingDatabase } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { access, defineRoute } from '../http/route.js';

const Health = z.object({ status: z.enum(['ok']) });

/** Probes for load balancers and orchestrators: no token. */
const probe = { method: 'get' as const, tags: ['Health'], access: access.public };

export const healthRoutes = [
  defineRoute({
    ...probe,
    path: '/healthz',
    operationId: 'health',
    description:
      'Answers 200 while the process runs, whatever the state of the database: for a liveness probe. Needs no token.',
    summary: 'The process is up',
    responses: { 200: { description: 'Up', schema: Health } },
    handler: async () => ({ status: 'ok' }),
  }),
  defineRoute({
    ...probe,
    path: '/readyz',
    operationId: 'ready',
    description:
      "Answers 200 once start-up is over and the database answers, 503 otherwise: for a readiness probe or a load balancer's health check. Needs no token.",
    summary: 'The database is reachable',
    responses: { 200: { description: 'Ready', schema: Health } },
    errors: { 503: 'Database unreachable' },
    handler: async ({ app }) => {
      if (!app.isReady()) throw new ApiError('service_unavailable', 'Starting: waiting for the database');
      try {
        await pingDatabase(app.db);
      } catch {
        throw new ApiError('service_unavailable', 'Database unreachable');
      }
      return { status: 'ok' };
    },
  }),
];
