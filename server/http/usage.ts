import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import type { UsageRecorder } from '../usage/recorder.js';

/** Records every response to a client key, by route template, when the response has been sent. */
export const recordUsage =
  (usage: UsageRecorder): RequestHandler =>
  (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const caller = req.caller;
      if (caller?.kind === 'client' && req.routeTemplate) {
        usage.record(caller.id, req.routeTemplate, performance.now() - started);
      }
    });
    next();
  };
