import type { Server } from 'node:http';
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
  const http = app.express.listen(options.port ?? options.config.port, options.host ?? '127.0.0.1');
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
