import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, type AppOptions, createApp } from './app.js';
import { answerClientError } from './http/client-error.js';

export interface RunningServer {
  app: App;
  http: Server;
  url: string;
  /** Stop accepting, finish in-flight requests, run shutdown hooks. The database is the owner's to close. */
  close(): Promise<void>;
}

export async function startServer(options: AppOptions & { port?: number; host?: string }): Promise<RunningServer> {
  const app = createApp(options);
  const limits = options.config.http;
  // A client that sends its headers or its body too slowly is cut (408) once the limit passes, checked every
  // second rather than Node's 30 s; past `maxConnections` open sockets, new ones are closed at once.
  const http = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    app.express,
  );
  http.maxConnections = limits.maxConnections;
  http.listen(options.port ?? options.config.port, options.host ?? '127.0.0.1');
  http.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    http.once('listening', resolve);
    http.once('error', reject);
  });
  const { port } = http.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    app,
    http,
    url: `http://127.0.0.1:${port}`,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeIdleConnections();
        });
        await app.shutdown();
      })();
      return closing;
    },
  };
}
