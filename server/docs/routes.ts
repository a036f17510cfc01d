import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Express } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { jsonEtag } from '../http/etag.js';
import { buildOpenApiDocument, type OpenApiSection } from '../http/openapi.js';
import { type Route, refuseOtherMethods } from '../http/route.js';
import { repoRoot } from '../paths.js';

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Sitefile API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const OPENAPI_PATH = '/v1/openapi.json';
const init = `window.ui = SwaggerUIBundle({ url: '${OPENAPI_PATH}', dom_id: '#reference', deepLinking: true, tryItOutEnabled: true, persistAuthorization: true });`;

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const addinDist = path.join(repoRoot, 'dist/addin');

/** Vite writes only content-hashed files to assets/: a new build gives them new names, so they never change. */
const hashedAssets = path.join(addinDist, 'assets') + path.sep;
const cacheFor = (res: ServerResponse, file: string) =>
  res.setHeader('Cache-Control', file.startsWith(hashedAssets) ? 'public, max-age=31536000, immutable' : 'no-cache');

/** The OpenAPI document of `routes` (/v1/openapi.json), the interactive API reference (/docs, served offline from
 *  swagger-ui-dist) and the add-in build. */
export function mountDocs(
  app: Express,
  document: { routes: readonly Route[]; sections: readonly OpenApiSection[] },
  publicUrl: string,
): void {
  // Built on first request, not at start-up: it is a third of the app's construction time and few ask for it.
  let openApi: { json: string; etag: string } | undefined;
  app.get(OPENAPI_PATH, (_req, res) => {
    if (!openApi) {
      const json = JSON.stringify(buildOpenApiDocument(document.routes, document.sections, publicUrl));
      openApi = { json, etag: jsonEtag(json) };
    }
    res.setHeader('ETag', openApi.etag);
    res.type('json').send(openApi.json);
  });
  app.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  app.get('/docs/init.js', (_req, res) => {
    res.type('js').send(init);
  });
  app.use('/docs/assets', express.static(swaggerUiDir, { index: false }));
  // The build's .br/.gz twins (addin/vite.config.ts) go to clients that accept them; pages are revalidated
  // on every open (no-cache, with their ETag), hashed assets are kept for a year.
  app.use(
    '/addin',
    expressStaticGzip(addinDist, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: 'taskpane.html',
      serveStatic: { cacheControl: false, setHeaders: cacheFor },
    }),
  );
  app.get('/admin', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(path.join(addinDist, 'admin.html'));
  });
  for (const getOnly of [OPENAPI_PATH, '/docs', '/docs/init.js', '/admin']) refuseOtherMethods(app, getOnly, ['GET']);
}
