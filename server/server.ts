import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { type App, type AppOptions, createApp } from './app.js';
import { answerClientError } from './http/client-error.js';
import { limitConnections } from './http/connection-limits.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { serveMetrics } from './http/metrics.js';
import { requestLog } from './http/request-log.js';

export interface RunningServer {
  app: App;
  http: Server;
  url: string;
  /** The METRICS_PORT listener's `/metrics` URL, when one is configured. */
  metricsUrl?: string;
  /** Stop accepting, finish in-flight requests, run shutdown hooks. The database is the owner's to close. */
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return (server.address() as AddressInfo).port;
}

/**
 * Once `server` stops listening, a socket whose answer ends closes then: kept alive for another request, it would
 * hold close() for the keep-alive timeout (closeServer closes the sockets idle when it is called).
 */
function closeSocketsAnsweredWhileClosing(server: Server): void {
  server.on('request', (_req, res) =>
    res.once('finish', () => {
      if (!server.listening) server.closeIdleConnections();
    }),
  );
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });

/** `/metrics` alone on a port of its own (METRICS_PORT): scraped from the operator's network, not the public one. */
function listenForMetrics(app: App, port: number, host: string): Server {
  const metricsApp = express();
  metricsApp.disable('x-powered-by');
  metricsApp.use(requestLog(app.context.log));
  metricsApp.get('/metrics', serveMetrics(app.context.metrics, app.context.config.metricsToken));
  metricsApp.use(notFoundHandler);
  metricsApp.use(errorHandler);
  return metricsApp.listen(port, host);
}

/** A URL's host for a listener bound to `host` (a wildcard one is reached on loopback). */
const reachableAt = (host: string) =>
  host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

export async function startServer(options: AppOptions & { port?: number }): Promise<RunningServer> {
  const app = createApp(options);
  const { host, metricsHost } = options.config;
  const limits = options.config.http;
  // A client that sends its headers or its body too slowly is cut (408) once the limit passes, checked every
  // second rather than Node's 30 s; open sockets are capped in total and per address (limitConnections).
  // An idle kept-alive socket stays open longer than a balancer in front reuses it (ALB: 60 s; Node's 5 s would
  // close sockets the balancer is about to send on: a 502), and longer than a loaded event loop can stall between
  // a client's two requests. Those two timeouts do not cut it: they count from a request's first byte.
  const http = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    app.express,
  );
  limitConnections(http, limits, (reason) => app.context.metrics.connectionsClosed.inc({ reason }));
  closeSocketsAnsweredWhileClosing(http);
  http.listen(options.port ?? options.config.port, host);
  http.on('clientError', answerClientError);
  const port = await listen(http);
  const { metricsPort } = options.config;
  const metricsHttp = metricsPort === undefined ? undefined : listenForMetrics(app, metricsPort, metricsHost);
  const metricsUrl = metricsHttp && `http://${reachableAt(metricsHost)}:${await listen(metricsHttp)}/metrics`;
  let closing: Promise<void> | undefined;
  return {
    app,
    http,
    url: `http://${reachableAt(host)}:${port}`,
    metricsUrl,
    close() {
      closing ??= (async () => {
        await Promise.all([closeServer(http), metricsHttp && closeServer(metricsHttp)]);
        await app.shutdown();
      })();
      return closing;
    },
  };
}
